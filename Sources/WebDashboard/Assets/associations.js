// Associations of one Z-Wave node (the `associations` request): each group with its label, most members and
// members (node or node:endpoint); add a member to a group (`associate`) or remove one (`dissociate`). The
// Lifeline's controller member has no remove button: the bridge never removes it.
import { h } from "./ui.js";

export function associationsPanel(store, node) {
  const body = h("tbody");
  const status = h("p", { class: "status", id: "associations-status" });
  const element = h("section", { class: "panel", id: "associations" },
    h("h3", {}, "Associations ", h("button", { type: "button", class: "small", onclick: load }, "refresh")),
    status,
    h("div", { class: "scroll" }, h("table", { class: "associations" },
      h("thead", {}, h("tr", {}, ["Group", "Label", "Max", "Members", "Add"].map((title) => h("th", {}, title)))),
      body)));

  let controller = null;  // the controller's node id, from the associations response

  function member(group, target) {
    const lifeline = group.group === 1 && target.split(":")[0] === String(controller);
    return h("span", { class: "member", dataset: { member: target } }, target,
      lifeline ? null : h("button", { type: "button", class: "small", title: `remove ${target}`,
        onclick: () => change("dissociate", group.group, target) }, "×"), " ");
  }

  function row(group) {
    const input = h("input", { type: "text", size: 6, placeholder: "5 or 5:1", "aria-label": `add to group ${group.group}` });
    const full = group.members.length >= group.max;
    return h("tr", { dataset: { group: String(group.group) } },
      h("td", {}, String(group.group)), h("td", {}, group.label || "—"), h("td", {}, String(group.max)),
      h("td", { class: "members" }, ...(group.members.length ? group.members.map((target) => member(group, target))
        : ["—"])),
      h("td", { class: "actions" }, input, h("button", { type: "button", class: "small", disabled: full,
        title: full ? "the group is full" : "", onclick: () => change("associate", group.group, input.value.trim()) },
      "add")));
  }

  function draw(data) {
    controller = data.controller;
    body.replaceChildren(...data.groups.map(row));
    if (data.groups.length === 0) {
      body.append(h("tr", {}, h("td", { colspan: 5, class: "empty" }, "This node has no association groups.")));
    }
  }

  async function load() {
    try {
      const response = await store.request("associations", { node });
      if (response.status === "ok") draw(response.data);
      else status.textContent = response.error;
    } catch (error) { status.textContent = error.message; }
  }

  async function change(verb, group, target) {
    if (!target) return;
    status.textContent = `${verb === "associate" ? "adding" : "removing"} ${target} in group ${group}…`;
    try {
      const response = await store.request(verb, { node, group, target });
      if (response.status === "ok") {
        status.textContent = `group ${group}: ${response.data.members.join(", ") || "no members"}`;
        await load();
      } else status.textContent = response.error;
    } catch (error) { status.textContent = error.message; }
  }

  return { element, load };
}

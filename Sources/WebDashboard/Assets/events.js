// Events: the bridge's events since this page was opened (command_rejected, node_dead, adapter_lost, ...), newest
// first, filtered by type and by text.
import { h, label } from "./ui.js";

export function eventsPage(store) {
  const list = h("ol", { class: "events", id: "events" });
  const type = h("select", { "aria-label": "event type", onchange: draw }, h("option", { value: "" }, "all types"));
  const text = h("input", { type: "search", placeholder: "filter", "aria-label": "filter", oninput: draw });
  const count = h("span", { class: "count" });
  const element = h("section", { class: "events-page panel" },
    h("div", { class: "row" }, h("h2", {}, "Events"), type, text, count), list);
  const types = new Set();

  function matches(entry) {
    if (type.value && entry.event.type !== type.value) return false;
    const needle = text.value.trim().toLowerCase();
    return !needle || JSON.stringify(entry.event).toLowerCase().includes(needle);
  }

  function item(entry) {
    const { type: kind, ...fields } = entry.event;
    const severity = /rejected|failed|lost|dead/.test(kind) ? "bad" : /recovered|alive|completed|added/.test(kind) ?
      "good" : "";
    return h("li", { class: severity, dataset: { type: kind } },
      h("time", { datetime: entry.at.toISOString() },
        entry.at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false })),
      h("strong", {}, label(kind)),
      h("span", { class: "fields" }, Object.entries(fields).map(([key, value]) =>
        h("span", {}, h("em", {}, key), " ", typeof value === "string" ? value : JSON.stringify(value)))));
  }

  function addType(kind) {
    if (types.has(kind)) return;
    types.add(kind);
    const options = [...types].sort().map((name) => h("option", { value: name }, label(name)));
    const chosen = type.value;
    type.replaceChildren(h("option", { value: "" }, "all types"), ...options);
    type.value = chosen;
  }

  function draw() {
    for (const entry of store.events) addType(entry.event.type);
    const shown = store.events.filter(matches).reverse();
    list.replaceChildren(...shown.map(item));
    if (shown.length === 0) list.append(h("li", { class: "empty" }, "No events yet (they are not kept: only those "
      + "since this page was opened)."));
    count.textContent = `${shown.length} of ${store.events.length}`;
  }

  draw();
  return {
    element,
    update(change) {
      if (change.kind !== "event") return;
      const entry = store.events[store.events.length - 1];
      addType(entry.event.type);
      if (list.querySelector(".empty")) list.replaceChildren();
      if (matches(entry)) list.prepend(item(entry));
      count.textContent = `${list.querySelectorAll("li:not(.empty)").length} of ${store.events.length}`;
    },
  };
}

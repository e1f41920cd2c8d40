// Network: every Z-Wave node (rows carry data-node="<id>") and CEC device; inclusion and exclusion with a countdown
// and the live progress events, then the devices.toml stanza the bridge wrote; heal; refresh a node.
import { h, label, ago } from "./ui.js";
import { networkStats, healthCheck } from "./stats.js";

const PROGRESS = /^(inclusion_|exclusion_|node_added|node_removed|interview_)/;

export function networkPage(store) {
  const nodesBody = h("tbody");
  const cecBody = h("tbody");
  const progress = h("ol", { class: "progress", id: "controller-progress" });
  const countdown = h("span", { class: "countdown", id: "controller-countdown" });
  const outcome = h("div", { class: "outcome", id: "controller-outcome" });
  const timeout = h("input", { type: "number", min: 1, max: 600, value: 60, class: "seconds",
    "aria-label": "seconds" });
  const includeButton = h("button", { type: "button", id: "include", onclick: () => controller("include") }, "Include");
  const excludeButton = h("button", { type: "button", id: "exclude", onclick: () => controller("exclude") }, "Exclude");
  const cancelButton = h("button", { type: "button", id: "cancel", disabled: true,
    onclick: () => store.request("cancel").catch(() => {}) }, "Cancel");
  const healButton = h("button", { type: "button", onclick: () => run("heal", {}, healButton) }, "Heal network");
  let timer = null;
  let running = null;
  const stats = networkStats(store);
  const health = healthCheck(store);

  const library = h("p", { class: "library", id: "openzwave-library" });
  const element = h("section", { class: "network-page" },
    h("section", { class: "panel controller" },
      h("h2", {}, "Add or remove a device"),
      h("div", { class: "row" }, includeButton, excludeButton, cancelButton, h("label", {}, "for ", timeout, " s"),
        countdown, h("span", { class: "spacer" }), healButton, health.button),
      progress, outcome, health.element),
    stats.element,
    h("section", { class: "panel" },
      h("h2", {}, "Z-Wave nodes"),
      library,
      h("div", { class: "scroll" }, h("table", { class: "nodes" },
        h("thead", {}, h("tr", {}, ["Node", "Device", "Product", "Interview", "State", "Last seen", ""].map(
          (title) => h("th", {}, title)))),
        nodesBody))),
    h("section", { class: "panel" },
      h("h2", {}, "CEC devices"),
      h("div", { class: "scroll" }, h("table", { class: "cec" },
        h("thead", {}, h("tr", {}, ["Address", "Device", "Inputs", "State"].map((title) => h("th", {}, title)))),
        cecBody))));

  function nodes() {
    const byNode = new Map();
    for (const device of store.devices) {
      if (device.adapter !== "zwave") continue;
      if (!byNode.has(device.node)) byNode.set(device.node, []);
      byNode.get(device.node).push(device);
    }
    return [...byNode.entries()].sort((a, b) => a[0] - b[0]);
  }

  function draw() {
    askLibrary();
    nodesBody.replaceChildren(...nodes().map(([node, devices]) => {
      const first = devices[0];
      const alive = devices.some((device) => store.available(device));
      const names = devices.map((device) => h("div", { class: device.configured ? "" : "unassigned" },
        `${device.room}/${device.name}`, device.instance ? h("small", {}, ` (endpoint ${device.instance})`) : null));
      const refresh = h("button", { type: "button", class: "small",
        onclick: () => run("refresh", { node }, refresh) }, "refresh");
      const heal = h("button", { type: "button", class: "small", onclick: () => run("heal", { node }, heal) }, "heal");
      return h("tr", { dataset: { node: String(node), alive: String(alive) }, class: alive ? "" : "dead" },
        h("td", {}, h("a", { href: `/node/${node}`, "data-link": true }, String(node))),
        h("td", {}, names),
        h("td", {}, [first.manufacturer, first.product].filter(Boolean).join(" ") || "—"),
        h("td", {}, first.interview_stage || "—"),
        h("td", {}, h("span", { class: `badge ${alive ? "alive" : "dead"}` }, alive ? "alive" : "dead")),
        h("td", { title: first.last_seen || "" }, ago(first.last_seen)),
        h("td", { class: "actions" }, refresh, heal));
    }));
    if (nodesBody.children.length === 0) {
      nodesBody.append(h("tr", {}, h("td", { colspan: 7, class: "empty" }, "No Z-Wave nodes.")));
    }
    const cec = store.devices.filter((device) => device.adapter === "cec");
    cecBody.replaceChildren(...cec.map((device) => {
      const alive = store.available(device);
      return h("tr", { dataset: { logicalAddress: String(device.logical_address) }, class: alive ? "" : "dead" },
        h("td", {}, String(device.logical_address)),
        h("td", {}, `${device.room}/${device.name}`),
        h("td", {}, (device.inputs || []).join(", ") || "—"),
        h("td", {}, h("span", { class: `badge ${alive ? "alive" : "dead"}` },
          alive ? store.value(device.topic) || "online" : "offline")));
    }));
    if (cec.length === 0) cecBody.append(h("tr", {}, h("td", { colspan: 4, class: "empty" }, "No CEC devices.")));
  }

  // Which OpenZWave runs, and which of the bridge's patches of it are active (a bridge without Z-Wave has none).
  // Asked once the page is connected (draw runs on every change of the store), again after a failed try.
  let libraryAsked = false;
  function askLibrary() {
    if (libraryAsked || !store.connected) return;
    libraryAsked = true;
    stats.load();
    store.request("network", {}).then((response) => {
      const data = (response && response.data) || {};
      if (!data.openzwave) return;
      const patches = (data.patches || []).join(", ") || "none";
      library.textContent = `OpenZWave ${data.openzwave}, patches: ${patches}`
        + (data.patches_refused ? ` (${data.patches_refused})` : "");
    }).catch(() => { libraryAsked = false; });
  }

  async function run(verb, args, button) {
    button.disabled = true;
    try {
      await store.request(verb, args);
    } catch (error) {
      /* the toast shows errors */
    } finally {
      button.disabled = false;
    }
  }

  async function controller(verb) {
    const seconds = Math.max(1, Math.min(600, Number(timeout.value) || 60));
    running = verb;
    progress.replaceChildren();
    outcome.replaceChildren();
    includeButton.disabled = excludeButton.disabled = true;
    cancelButton.disabled = false;
    const deadline = Date.now() + seconds * 1000;
    const tick = () => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      countdown.textContent = left > 0 ? `${verb === "include" ? "inclusion" : "exclusion"}: ${left} s left` : "";
    };
    tick();
    timer = setInterval(tick, 250);
    let response;
    try {
      response = await store.request(verb, { timeout_s: seconds });
    } catch (error) {
      response = { status: "error", error: error.message };
    }
    clearInterval(timer);
    countdown.textContent = "";
    running = null;
    includeButton.disabled = excludeButton.disabled = false;
    cancelButton.disabled = true;
    if (response.status !== "ok") {
      outcome.replaceChildren(h("p", { class: "failed" }, `${verb} failed: ${response.error}`));
      return;
    }
    const data = response.data || {};
    if (verb === "exclude") {
      outcome.replaceChildren(h("p", { class: "ok" }, `Node ${data.node} left the network.`));
      return;
    }
    const stanza = h("pre", { class: "stanza", id: "stanza" }, data.stanza || "");
    outcome.replaceChildren(
      h("p", { class: "ok" }, `Node ${data.node} joined: ${[data.manufacturer, data.product].filter(Boolean).join(" ")}`
        + (data.interview === "completed" ? "" : ` (interview stopped at ${data.stage}; refresh retries it)`)),
      h("p", {}, "Add it to devices.toml (choose its room and name), then restart the bridge:"),
      stanza,
      h("button", { type: "button", class: "small", onclick: () => copy(data.stanza || "") }, "copy"));
  }

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text);
    else {
      const range = document.createRange();
      range.selectNodeContents(document.getElementById("stanza"));
      getSelection().removeAllRanges();
      getSelection().addRange(range);
    }
  }

  draw();
  return {
    element,
    update(change) {
      if (change.kind === "event") health.show(change.event);
      if (change.kind === "event" && running && PROGRESS.test(change.event.type)) {
        const { type, ...fields } = change.event;
        const detail = Object.entries(fields).map(([key, value]) => `${key} ${value}`).join(", ");
        progress.append(h("li", { dataset: { type } }, label(type), detail ? h("small", {}, ` ${detail}`) : null));
      }
      if (["snapshot", "devices", "state", "bridge", "connection"].includes(change.kind)) draw();
    },
    unmount() { clearInterval(timer); },
  };
}

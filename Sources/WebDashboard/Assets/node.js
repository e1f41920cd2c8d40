// Node: one Z-Wave node: what the bridge knows of it, OpenZWave's statistics (node_stats) and its configuration
// parameters (config_list; read with get_config, set with set_config: to a sleeping node it is held for the node's
// wake-up, "pending"). An FGD212's parameter 28 (scene activation) comes first. Every value OpenZWave has for the
// node, mapped to a topic or not, its wake-up interval and the commands held for its wake-up (values). Its
// associations: associations.js.
import { h, label, ago } from "./ui.js";
import { associationsPanel } from "./associations.js";
import { healthCheck } from "./stats.js";

export function nodePage(store, node) {
  const facts = h("dl", { class: "facts" });
  const health = healthCheck(store, node);
  const stats = h("dl", { class: "facts stats", id: "node-stats" });
  const parameters = h("tbody");
  const values = h("tbody");
  const pending = h("ul", { class: "pending" });
  let wakeUp = "—";
  const status = h("p", { class: "status" });
  const associations = associationsPanel(store, node);
  const freeParameter = h("input", { type: "number", min: 1, max: 255, placeholder: "parameter",
    "aria-label": "parameter" });
  const element = h("section", { class: "node-page", dataset: { node: String(node) } },
    h("p", {}, h("a", { href: "/network", "data-link": true }, "← Network")),
    h("h2", {}, `Node ${node}`),
    h("div", { class: "columns" },
      h("section", { class: "panel" }, h("h3", {}, "Device"), facts),
      h("section", { class: "panel" },
        h("h3", {}, "Statistics ", h("button", { type: "button", class: "small", onclick: loadStats }, "refresh")),
        stats)),
    h("section", { class: "panel" }, h("h3", {}, "Health ", health.button), health.element),
    associations.element,
    h("section", { class: "panel" },
      h("h3", {}, "Configuration parameters"),
      h("div", { class: "row" }, freeParameter,
        h("button", { type: "button", class: "small", onclick: () => {
          const number = Number(freeParameter.value);
          if (number >= 1 && number <= 255) read(number);
        } }, "read")),
      status,
      h("div", { class: "scroll" }, h("table", { class: "parameters" },
        h("thead", {}, h("tr", {}, ["#", "Parameter", "Value", ""].map((title) => h("th", {}, title)))),
        parameters))),
    h("section", { class: "panel" },
      h("h3", {}, "Held for the wake-up"), pending),
    h("section", { class: "panel" },
      h("h3", {}, "All values ", h("button", { type: "button", class: "small", onclick: loadValues }, "refresh")),
      h("div", { class: "scroll" }, h("table", { class: "values" },
        h("thead", {}, h("tr", {}, ["Class", "Instance.index", "Value", ""].map((title) => h("th", {}, title)))),
        values))));

  const rows = new Map();

  function devices() { return store.devices.filter((device) => device.adapter === "zwave" && device.node === node); }

  function drawFacts() {
    const list = devices();
    const first = list[0] || {};
    const alive = list.some((device) => store.available(device));
    const entries = [
      ["Devices", list.map((device) => `${device.room}/${device.name}`).join(", ") || "none in the inventory"],
      ["Manufacturer", first.manufacturer || "—"], ["Product", first.product || "—"],
      ["Ids", [first.manufacturer_id, first.product_type, first.product_id].filter(Boolean).join(" / ") || "—"],
      ["Interview", first.interview_stage || "—"], ["State", list.length ? (alive ? "alive" : "dead") : "—"],
      ["Last seen", first.last_seen ? `${ago(first.last_seen)} (${first.last_seen})` : "never"],
      ["Battery", battery(list)], ["Wake-up interval", wakeUp], ["Buttons", buttons(list)],
    ];
    facts.replaceChildren(...entries.flatMap(([key, value]) =>
      [h("dt", {}, key), h("dd", { dataset: { fact: key.toLowerCase().replace(" ", "-") } }, value)]));
  }

  /// The node's battery level (its device with a battery sensor), "—" for a node that reported none.
  function battery(list) {
    const device = list.find((candidate) => candidate.sensors && "battery" in candidate.sensors);
    if (!device) return "—";
    const level = store.value(`${device.topic}/battery`);
    return level === undefined ? "not reported yet" : `${level} %`;
  }

  /// The node's scene buttons (Central Scene) with the actions each supports: `4: pressed, pressed 2x, …` when they
  /// all support the same, else button by button; "—" for a node without.
  function buttons(list) {
    const device = list.find((candidate) => Object.keys(candidate.buttons || {}).length > 0);
    if (!device) return "—";
    const entries = Object.entries(device.buttons).sort((a, b) => Number(a[0]) - Number(b[0]));
    const words = (actions) => actions.map((action) => action.replace("_", " ")).join(", ");
    const same = entries.every(([, actions]) => words(actions) === words(entries[0][1]));
    return same ? `${entries.length}: ${words(entries[0][1])}`
      : entries.map(([button, actions]) => `${button}: ${words(actions)}`).join("; ");
  }

  async function loadStats() {
    try {
      const response = await store.request("node_stats", { node });
      const entry = response.status === "ok" && response.data.nodes[0];
      if (!entry) return;
      const names = {
        sent: "Frames sent", sent_failed: "Sent, failed", retries: "Retries", received: "Frames received",
        received_duplicates: "Received twice", received_unsolicited: "Received unsolicited",
        average_request_rtt_ms: "Average request RTT (ms)", average_response_rtt_ms: "Average response RTT (ms)",
        last_sent: "Last sent", last_received: "Last received",
      };
      stats.replaceChildren(...Object.entries(names).flatMap(([key, name]) =>
        [h("dt", {}, name), h("dd", { dataset: { stat: key } }, String(entry[key] ?? "—") || "—")]));
    } catch (error) { /* shown as a toast */ }
  }

  /// Every value OpenZWave has for the node (the class in hex, as OpenZWave's logs name it), the wake-up interval
  /// (Wake Up, 0x84, index 0) among them, and the set_configs held for the node's wake-up.
  async function loadValues() {
    try {
      const response = await store.request("values", { node });
      if (response.status !== "ok") return;
      const list = response.data.values;
      values.replaceChildren(...list.map((value) => h("tr", {},
        h("td", {}, `0x${value.command_class.toString(16).padStart(2, "0").toUpperCase()}`),
        h("td", {}, `${value.instance}.${value.index}`),
        h("td", {}, value.label, ": ", h("span", { class: "current" },
          value.value === null ? "—" : String(value.value) + (value.units ? ` ${value.units}` : ""))),
        h("td", {}, value.read_only ? "read-only" : ""))));
      const interval = list.find((value) => value.command_class === 0x84 && value.index === 0);
      wakeUp = interval && interval.value !== null ? `${interval.value} s` : "—";
      drawFacts();
      drawPending(response.data.pending);
    } catch (error) { /* shown as a toast */ }
  }

  function drawPending(list) {
    pending.replaceChildren(...list.map((command) => h("li", { dataset: { parameter: String(command.parameter) } },
      `parameter ${command.parameter} → ${command.value}, asked ${ago(new Date(command.since * 1000).toISOString())}`)));
    if (list.length === 0) pending.append(h("li", { class: "empty" }, "nothing"));
  }

  function isFGD212() {
    const first = devices()[0] || {};
    return /FGD-?212|Dimmer 2/i.test(`${first.product || ""}`);
  }

  function row(parameter) {
    if (rows.has(parameter.parameter)) return rows.get(parameter.parameter);
    const value = h("input", { type: "number", class: "value-input", "aria-label": `parameter ${parameter.parameter}` });
    const current = h("span", { class: "current" });
    const setButton = h("button", { type: "button", class: "small", onclick: () => write(parameter.parameter,
      Number(value.value)) }, "set");
    const readButton = h("button", { type: "button", class: "small", onclick: () => read(parameter.parameter) }, "read");
    const element = h("tr", { dataset: { parameter: String(parameter.parameter) } },
      h("td", {}, String(parameter.parameter)),
      h("td", {}, parameter.label || "", parameter.units ? h("small", {}, ` (${parameter.units})`) : null),
      h("td", {}, current, " ", value),
      h("td", { class: "actions" }, readButton, parameter.read_only ? null : setButton));
    const entry = { element, show(data) {
      current.textContent = data.value === null || data.value === undefined ? "?" :
        String(data.value) + (data.choice ? ` (${data.choice})` : "");
      value.value = data.value ?? "";
    } };
    entry.show(parameter);
    rows.set(parameter.parameter, entry);
    return entry;
  }

  function drawParameters(list) {
    const first = isFGD212() ? 28 : -1;
    list.sort((a, b) => (b.parameter === first) - (a.parameter === first) || a.parameter - b.parameter);
    parameters.replaceChildren(...list.map((parameter) => row(parameter).element));
    if (list.length === 0) {
      parameters.append(h("tr", {}, h("td", { colspan: 4, class: "empty" },
        "OpenZWave knows no parameters of this node; read one by number above.")));
    }
  }

  async function loadParameters() {
    try {
      const response = await store.request("config_list", { node });
      if (response.status === "ok") drawParameters(response.data.parameters);
    } catch (error) { /* shown as a toast */ }
  }

  async function read(parameter) {
    status.textContent = `reading parameter ${parameter}…`;
    try {
      const response = await store.request("get_config", { node, parameter });
      if (response.status === "ok") {
        const entry = rows.get(parameter) || row({ parameter, label: "" });
        if (!entry.element.isConnected) parameters.prepend(entry.element);
        entry.show(response.data);
        status.textContent = `parameter ${parameter} is ${response.data.value}`;
      } else status.textContent = response.error;
    } catch (error) { status.textContent = error.message; }
  }

  async function write(parameter, value) {
    status.textContent = `setting parameter ${parameter} to ${value}…`;
    try {
      const response = await store.request("set_config", { node, parameter, value });
      if (response.status === "ok" && response.data.pending) {
        status.textContent = `parameter ${parameter}: ${value} is held until the node wakes up`;
        loadValues();
      } else if (response.status === "ok") {
        rows.get(parameter)?.show(response.data);
        status.textContent = `parameter ${parameter} is now ${response.data.value}`;
      } else status.textContent = response.error;
    } catch (error) { status.textContent = error.message; }
  }

  let loaded = false;
  function load() {
    drawFacts();
    if (!store.connected || loaded) return;
    loaded = true;
    loadStats();
    loadParameters();
    loadValues();
    associations.load();
  }
  load();
  return {
    element,
    update(change) {
      if (change.kind === "event") health.show(change.event);
      if (change.kind === "event" && change.event.node === node && /^(command_pending|pending_)/.test(change.event.type)) {
        loadValues();
      }
      if (change.kind === "connection" && !change.connected) loaded = false;
      if (["snapshot", "devices", "state", "bridge", "connection"].includes(change.kind)) load();
    },
  };
}

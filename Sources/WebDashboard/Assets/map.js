// Map: the Z-Wave mesh as the controller's routing table gives it (the `neighbors` request). The controller in the
// middle, each node on the ring of its hop count, a line per link, dead nodes marked, each node labelled with its
// devices' room/name; click a node for its page, filter by room, focus a node to light up its links.
import { h, ago, throttle } from "./ui.js";
import { layoutMap, mapLinks } from "./map-layout.js";

const SVG = "http://www.w3.org/2000/svg";
const SIZE = 1000;

function s(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null && value !== false) element.setAttribute(key, value);
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

/// Draws `data` (the `neighbors` response's data) into `svg`. `devices`: Map(node → [{room, name}]); `dead`:
/// Set of nodes whose devices are offline. Returns the drawn nodes' elements by node.
export function drawMap(svg, data, devices = new Map(), dead = new Set()) {
  const controller = data.controller ?? 1;
  const nodes = data.nodes || [];
  const { center, radius, rings, positions } = layoutMap(nodes, controller, SIZE);
  const guides = s("g", { class: "map-rings" });
  for (let ring = 1; ring <= rings; ring++) {
    guides.append(s("circle", { cx: center.x, cy: center.y, r: radius(ring) }));
  }
  const linkPath = mapLinks(nodes).map(([a, b]) => {
    const from = positions.get(a);
    const to = positions.get(b);
    return from && to ? `M${from.x.toFixed(1)} ${from.y.toFixed(1)}L${to.x.toFixed(1)} ${to.y.toFixed(1)}` : "";
  }).join("");
  const drawn = new Map();
  const group = s("g", { class: "map-nodes" });
  const hub = positions.get(controller);
  group.append(s("g", { class: "map-node controller", transform: `translate(${hub.x} ${hub.y})`,
    "data-node": controller, "data-hops": 0 }, s("circle", { r: 14 }), s("text", { class: "id" }, "◎"),
  s("title", {}, `controller (node ${controller})`)));
  for (const entry of nodes) {
    if (entry.node === controller) continue;
    const at = positions.get(entry.node);
    const names = (devices.get(entry.node) || []).map((device) => `${device.room}/${device.name}`);
    const text = names.length === 0 ? `node ${entry.node}` : names[0] + (names.length > 1 ? ` +${names.length - 1}` : "");
    const degrees = (at.angle * 180) / Math.PI;
    const flip = Math.cos(at.angle) < 0;
    const isDead = entry.dead || dead.has(entry.node);
    const read = entry.read_at ? `read ${ago(entry.read_at)} (${entry.read_at})` : "not read yet";
    const node = s("g", { class: `map-node${isDead ? " dead" : ""}${entry.hops > 0 ? "" : " unreachable"}`,
      transform: `translate(${at.x.toFixed(1)} ${at.y.toFixed(1)})`, "data-node": entry.node,
      "data-hops": entry.hops ?? "none" },
    s("circle", { r: 9 }),
    s("text", { class: "id" }, String(entry.node)),
    s("text", { class: "label", transform: `rotate(${flip ? degrees + 180 : degrees})`, x: flip ? -13 : 13,
      "text-anchor": flip ? "end" : "start" }, text),
    s("title", {}, `node ${entry.node}: ${names.join(", ") || "no devices"}\n${entry.hops > 0 ? `${entry.hops} hop(s)`
      : "not reachable"}${isDead ? ", dead" : ""}\nneighbours ${(entry.neighbors || []).join(", ") || "none"}\n`
      + `table ${read}`));
    const link = s("a", { href: `/node/${entry.node}`, "data-link": "" }, node);
    drawn.set(entry.node, node);
    group.append(link);
  }
  svg.replaceChildren(guides, s("path", { class: "map-links", d: linkPath }),
    s("path", { class: "map-links hot", d: "" }), group);
  svg.setAttribute("viewBox", `0 0 ${SIZE} ${SIZE}`);
  return { drawn, positions };
}

/// Lights up `focus` (a node id, or null) and its neighbours; fades nodes outside `room` (or none when null).
export function highlightMap(svg, data, map, focus, room, devices = new Map()) {
  const entries = new Map((data.nodes || []).map((entry) => [entry.node, entry]));
  const neighbours = new Set(focus != null ? (entries.get(focus)?.neighbors || []) : []);
  for (const [node, element] of map.drawn) {
    const inRoom = room == null || (devices.get(node) || []).some((device) => device.room === room);
    element.classList.toggle("faded", !inRoom || (focus != null && node !== focus && !neighbours.has(node)));
    element.classList.toggle("focus", node === focus);
    element.classList.toggle("neighbor", neighbours.has(node));
  }
  const from = focus != null ? map.positions.get(focus) : null;
  svg.querySelector(".map-links.hot").setAttribute("d", from ? [...neighbours].map((other) => {
    const to = map.positions.get(other);
    return to ? `M${from.x.toFixed(1)} ${from.y.toFixed(1)}L${to.x.toFixed(1)} ${to.y.toFixed(1)}` : "";
  }).join("") : "");
  svg.classList.toggle("focused", focus != null);
}

export function mapPage(store) {
  const svg = s("svg", { class: "map", id: "mesh-map", role: "img", "aria-label": "Z-Wave mesh map" });
  const roomSelect = h("select", { id: "map-room", onchange: () => highlight() }, h("option", { value: "" }, "all rooms"));
  const focusSelect = h("select", { id: "map-focus", onchange: () => highlight() }, h("option", { value: "" }, "none"));
  const status = h("p", { class: "map-status", id: "map-status" }, "Reading the neighbour tables…");
  const detail = h("div", { class: "map-detail", id: "map-detail" });
  const reread = h("button", { type: "button", onclick: () => ask(false) }, "Read again");
  const update = h("button", { type: "button", id: "map-update", disabled: true,
    onclick: () => ask(true, Number(focusSelect.value)) }, "Neighbour update of the focused node");
  const element = h("section", { class: "map-page" },
    h("section", { class: "panel" },
      h("h2", {}, "Mesh map"),
      h("p", { class: "note" }, "Each node's neighbours as the controller's routing table holds them. A table is what "
        + "the node reported when it was last read (its interview, or a neighbour update): it can be stale after a "
        + "node moved or a link failed. Hover a node for when its table was read; a neighbour update reads it anew."),
      h("div", { class: "row" }, h("label", {}, "Room ", roomSelect), h("label", {}, "Focus ", focusSelect),
        h("span", { class: "spacer" }), reread, update),
      status, detail),
    h("section", { class: "panel map-panel" }, svg));
  let data = null;
  let map = null;
  let asked = false;

  function devicesByNode() {
    const byNode = new Map();
    for (const device of store.devices) {
      if (device.adapter !== "zwave") continue;
      if (!byNode.has(device.node)) byNode.set(device.node, []);
      byNode.get(device.node).push(device);
    }
    return byNode;
  }

  /// Nodes whose every device the bridge reported offline (a node without reports is not called dead).
  function deadNodes(byNode) {
    const dead = new Set();
    for (const [node, devices] of byNode) {
      if (devices.every((device) => store.value(`${device.topic}/availability`) === "offline")) dead.add(node);
    }
    return dead;
  }

  async function ask(refresh, node) {
    asked = true;
    reread.disabled = update.disabled = true;
    if (refresh) status.textContent = `Neighbour update of node ${node}…`;
    try {
      if (refresh) {
        const updated = await store.request("neighbors", { node, refresh: true });
        if (updated.status !== "ok") throw new Error(updated.error);
      }
      // After an update the other nodes' lists change too (links count both ways): every table is read again.
      const response = await store.request("neighbors", {});
      if (response.status !== "ok") throw new Error(response.error);
      data = response.data;
      draw();
    } catch (error) {
      status.textContent = `Cannot read the neighbour tables: ${error.message}`;
      asked = refresh ? asked : false;
    } finally {
      reread.disabled = false;
      update.disabled = focusSelect.value === "";
    }
  }

  function draw() {
    if (!data) return;
    const started = performance.now();
    const byNode = devicesByNode();
    map = drawMap(svg, data, byNode, deadNodes(byNode));
    const rooms = [...new Set(store.devices.filter((device) => device.adapter === "zwave").map((device) => device.room))]
      .sort();
    const room = roomSelect.value;
    roomSelect.replaceChildren(h("option", { value: "" }, "all rooms"), ...rooms.map((name) => h("option", { value: name }, name)));
    roomSelect.value = rooms.includes(room) ? room : "";
    const focus = focusSelect.value;
    focusSelect.replaceChildren(h("option", { value: "" }, "none"), ...data.nodes.map((entry) =>
      h("option", { value: String(entry.node) }, `node ${entry.node}`)));
    focusSelect.value = data.nodes.some((entry) => String(entry.node) === focus) ? focus : "";
    const times = data.nodes.map((entry) => entry.read_at).filter(Boolean).sort();
    const unreachable = data.nodes.filter((entry) => !(entry.hops > 0)).length;
    status.textContent = `${data.nodes.length} nodes, up to ${Math.max(0, ...data.nodes.map((entry) => entry.hops || 0))}`
      + ` hops${unreachable ? `, ${unreachable} not reachable` : ""}; tables read `
      + (times.length ? `between ${times[0]} and ${times[times.length - 1]}` : "never");
    highlight();
    element.dataset.nodes = String(data.nodes.length);
    element.dataset.renderMs = (performance.now() - started).toFixed(1);
  }

  function highlight() {
    if (!data || !map) return;
    const focus = focusSelect.value === "" ? null : Number(focusSelect.value);
    const byNode = devicesByNode();
    highlightMap(svg, data, map, focus, roomSelect.value || null, byNode);
    update.disabled = focus == null;
    const entry = data.nodes.find((candidate) => candidate.node === focus);
    detail.replaceChildren(...(entry ? [
      h("strong", {}, `Node ${entry.node}`),
      ` · ${(byNode.get(entry.node) || []).map((device) => `${device.room}/${device.name}`).join(", ") || "no devices"}`,
      ` · ${entry.hops > 0 ? `${entry.hops} hop(s) from the controller` : "not reachable"}`,
      ` · neighbours ${(entry.neighbors || []).join(", ") || "none"}`,
      ` · table read ${entry.read_at ? `${ago(entry.read_at)} (${entry.read_at})` : "never"}`,
      entry.refresh_error ? h("span", { class: "failed" }, ` · update failed: ${entry.refresh_error}`) : null,
    ] : []));
  }

  // States change often on a large network: the map follows availability at most every 2 s.
  const redraw = throttle(draw, 2000);
  if (store.connected) ask(false);
  return {
    element,
    update(change) {
      if (!asked && store.connected) ask(false);
      else if (change.kind === "devices") draw();
      else if (change.kind === "state" && data) redraw();
    },
  };
}

// The network's statistics (network_stats) as one sortable table, with the counts of alive, dead and asleep nodes
// and the driver's counters; and the health check (health_check) with its live progress, for the network page and
// the node page. Route fields the stick does not report show as "not reported", never as 0. OpenZWave 1.6's
// `quality` is not shown: the library never computes it (always 0).
import { h } from "./ui.js";

const COLUMNS = [
  ["node", "Node"], ["status", "Status"], ["sent", "Sent"], ["sent_failed", "Failed"], ["retries", "Retries"],
  ["received", "Received"], ["received_duplicates", "Duplicates"], ["received_unsolicited", "Unsolicited"],
  ["average_request_rtt_ms", "Request RTT ms"], ["average_response_rtt_ms", "Response RTT ms"],
  ["last_sent", "Last sent"], ["last_received", "Last received"], ["hops", "Hops"],
  ["rssi", "RSSI"], ["route", "Route"], ["last_failed_link", "Last failed link"],
];

function cell(value) {
  if (value === null || value === undefined) return h("span", { class: "unreported" }, "not reported");
  if (Array.isArray(value)) return value.length ? value.join(", ") : "direct";
  if (typeof value === "object") return `${value.from} → ${value.to}`;
  return value === "" ? "never" : String(value);
}

/// The statistics panel: `load()` asks the bridge again.
export function networkStats(store) {
  const counts = h("p", { class: "counts", id: "network-counts" });
  const head = h("tr");
  const body = h("tbody", { id: "network-stats" });
  const driver = h("dl", { class: "facts stats", id: "driver-stats" });
  let nodes = [];
  let sort = { key: "node", ascending: true };

  function draw() {
    head.replaceChildren(...COLUMNS.map(([key, title]) => h("th", {
      dataset: { sort: key }, class: sort.key === key ? (sort.ascending ? "sorted up" : "sorted down") : "",
      onclick: () => {
        sort = { key, ascending: sort.key === key ? !sort.ascending : true };
        draw();
      },
    }, title)));
    const sorted = [...nodes].sort((a, b) => {
      const x = a[sort.key] ?? -Infinity;
      const y = b[sort.key] ?? -Infinity;
      const order = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
      return sort.ascending ? order : -order;
    });
    body.replaceChildren(...sorted.map((entry) => h("tr", { dataset: { statsNode: String(entry.node) } },
      COLUMNS.map(([key]) => h("td", { dataset: { column: key } }, cell(entry[key]))))));
  }

  async function load() {
    try {
      const response = await store.request("network_stats", {});
      if (response.status !== "ok") return;
      const data = response.data;
      nodes = data.nodes || [];
      counts.textContent = `${data.alive} alive · ${data.dead} dead · ${data.asleep} asleep`;
      driver.replaceChildren(...Object.entries(data.driver || {}).flatMap(([key, value]) =>
        [h("dt", {}, key.replace(/_/g, " ")), h("dd", { dataset: { driver: key } }, String(value))]));
      draw();
    } catch (error) { /* shown as a toast */ }
  }

  draw();
  const element = h("section", { class: "panel" },
    h("h2", {}, "Statistics ", h("button", { type: "button", class: "small", onclick: load }, "refresh")),
    counts,
    h("div", { class: "scroll" }, h("table", { class: "stats" }, h("thead", {}, head), body)),
    h("details", {}, h("summary", {}, "Driver"), driver));
  return { element, load };
}

/// A "Health check" button for `node` (every node when undefined) and where its progress and results go;
/// `show(event)` takes the bridge's health_check_* events.
export function healthCheck(store, node) {
  const output = h("ol", { class: "progress", id: node === undefined ? "health-progress" : "node-health-progress" });
  const results = h("tbody", { id: node === undefined ? "health-results" : "node-health-results" });
  const button = h("button", { type: "button", id: "health-check", onclick: run }, "Health check");

  async function run() {
    button.disabled = true;
    output.replaceChildren();
    try {
      const response = await store.request("health_check", node === undefined ? {} : { node });
      if (response.status !== "ok") output.append(h("li", { class: "failed" }, response.error));
      else {
        results.replaceChildren(...response.data.nodes.map(row));
        table.hidden = false;
      }
    } catch (error) {
      output.append(h("li", { class: "failed" }, error.message));
    } finally {
      button.disabled = false;
    }
  }

  function row(result) {
    const rtt = [result.rtt_min_ms, result.rtt_mean_ms, result.rtt_max_ms].map((v) => v ?? "—").join(" / ");
    return h("tr", { dataset: { healthNode: String(result.node), rating: String(result.rating ?? "") } },
      h("td", {}, String(result.node)), h("td", {}, result.status),
      h("td", {}, `${result.acknowledged}/${result.sent}`), h("td", {}, rtt),
      h("td", { class: "rating" }, result.rating === null ? "—" : `${result.rating}/10`));
  }

  function show(event) {
    if (!/^health_check_/.test(event.type) || (node !== undefined && event.node !== undefined && event.node !== node)) {
      return;
    }
    if (event.type === "health_check_frame") {
      output.append(h("li", {}, `node ${event.node}: frame ${event.frame}/${event.of} `
        + (event.acknowledged ? `acknowledged in ${event.rtt_ms} ms` : "failed")));
    } else if (event.type === "health_check_node") {
      output.append(h("li", {}, `node ${event.node}: ${event.status}, rating ${event.rating ?? "—"}`));
    }
  }

  const table = h("table", { class: "health" },
    h("thead", {}, h("tr", {}, ["Node", "Status", "Acknowledged", "RTT min / mean / max ms", "Rating"].map(
      (title) => h("th", {}, title)))),
    results);
  table.hidden = true;  // until a check has results
  const element = h("div", { class: "health" }, output, table);
  return { button, element, show };
}

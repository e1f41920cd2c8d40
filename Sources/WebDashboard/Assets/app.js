// The dashboard: one WebSocket (store.js) and four pages drawn from it, switched without reloading.
import { Store } from "./store.js";
import { h, toast } from "./ui.js";
import { tilesPage } from "./tiles.js";
import { networkPage } from "./network.js";
import { nodePage } from "./node.js";
import { eventsPage } from "./events.js";
import { mapPage } from "./map.js";

const store = new Store();
const view = document.getElementById("view");
let page = null;
let drawnFor = null;  // the role the page was drawn for

/// The network pages are the admin's; the control token (a wall tablet) gets the tiles and the events only.
function adminOnly(make) {
  return () => store.role === "admin" ? make()
    : { element: h("p", { class: "empty" }, "The network pages need the admin token.") };
}

function route(path) {
  const node = path.match(/^\/node\/(\d+)$/);
  if (node) return { name: "network", make: adminOnly(() => nodePage(store, Number(node[1]))) };
  if (path === "/network") return { name: "network", make: adminOnly(() => networkPage(store)) };
  if (path === "/network/map") return { name: "map", make: adminOnly(() => mapPage(store)) };
  if (path === "/events") return { name: "events", make: () => eventsPage(store) };
  return { name: "tiles", make: () => tilesPage(store) };
}

function show() {
  if (page && page.unmount) page.unmount();
  const { name, make } = route(location.pathname);
  for (const link of document.querySelectorAll("nav a")) {
    link.classList.toggle("active", link.dataset.page === name);
  }
  view.replaceChildren();
  page = make();
  drawnFor = store.role;
  view.append(page.element);
  document.title = `Thuis ${store.bridge || ""} · ${name}`;
}

document.addEventListener("click", (click) => {
  const link = click.target.closest("a[data-link]");
  if (!link || click.metaKey || click.ctrlKey || click.shiftKey) return;
  click.preventDefault();
  if (link.getAttribute("href") !== location.pathname) history.pushState(null, "", link.getAttribute("href"));
  show();
  window.scrollTo(0, 0);
});
window.addEventListener("popstate", show);

const pill = document.getElementById("connection");
function showConnection() {
  const state = !store.connected ? "disconnected" : store.state === "online" ? "online" : "bridge offline";
  pill.textContent = state;
  pill.dataset.connection = state.replace(" ", "-");
  document.body.classList.toggle("offline", state !== "online");
  document.getElementById("bridge-name").textContent = store.bridge;
  for (const link of document.querySelectorAll("nav a[data-admin]")) link.hidden = store.role !== "admin";
}

store.subscribe((change) => {
  if (change.kind === "connection" || change.kind === "bridge" || change.kind === "snapshot") showConnection();
  // The role is known once the snapshot came: a network page drawn before it is drawn again.
  if (change.kind === "snapshot" && store.role !== drawnFor && ["network", "map"].includes(route(location.pathname).name)) {
    show();
  }
  if (change.kind === "error") toast(change.error);
  if (change.kind === "response" && change.response && change.response.status === "error" &&
      String(change.response.transaction || "").startsWith(`web-${store.session}-`)) {
    toast(`${change.verb}: ${change.response.error}`);
  }
  if (change.kind === "event" && change.event.type === "command_rejected" && store.sentRecently(change.event.topic)) {
    toast(`command rejected: ${change.event.reason}`);
  }
  if (page && page.update) page.update(change);
});

show();
store.connect();

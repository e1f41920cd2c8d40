// Small DOM helpers shared by the pages.

/// `h("div", {class: "tile", dataset: {topic}}, child, "text")`: an element with attributes, properties
/// (`on*` handlers, `value`, `checked`) and children.
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) element.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(element.dataset, value);
    else if (key === "value" || key === "checked" || key === "disabled") element[key] = value;
    else element.setAttribute(key, value === true ? "" : value);
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/// "living/tv" → "Living tv"; "node10" stays.
export function label(text) {
  const spaced = String(text).replace(/[_-]+/g, " ");
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/// "2026-11-25T17:41:02Z" → "3 min ago".
export function ago(iso) {
  if (!iso) return "never";
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (!Number.isFinite(seconds)) return iso;
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86400)} d ago`;
}

/// Calls `send(value)` at most every `interval` ms while values keep coming, and always with the last one.
export function throttle(send, interval) {
  let last = 0;
  let timer = null;
  let pending;
  return (value) => {
    pending = value;
    const wait = last + interval - Date.now();
    if (wait <= 0) {
      last = Date.now();
      send(pending);
    } else if (!timer) {
      timer = setTimeout(() => {
        timer = null;
        last = Date.now();
        send(pending);
      }, wait);
    }
  };
}

/// A short note at the bottom of the screen (an error reply, a refused request).
export function toast(text, kind = "error") {
  const note = h("div", { class: `toast ${kind}`, role: "status" }, text);
  document.body.append(note);
  setTimeout(() => note.remove(), 6000);
}

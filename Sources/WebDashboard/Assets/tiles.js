// Tiles: every device grouped by room, then the mapped scenes. Each device tile carries
// data-topic="<prefix>/device/<room>/<name>" and data-state="<its retained state payload>", kept live.
import { h, label, throttle } from "./ui.js";

const KIND_ORDER = { dimmer: 0, switch: 1, socket: 2, cover: 3, thermostat: 4, lock: 5, tv: 6, sensor: 7, buttons: 8 };

/// A sensor's name on a tile, in the inventory's order of sensors.
const SENSOR_NAMES = {
  temperature: "Temperature", humidity: "Humidity", luminance: "Light", ultraviolet: "UV", pressure: "Pressure",
  co2: "CO₂", gas_volume: "Gas", water_volume: "Water", heating_energy: "Heating", cooling_energy: "Cooling",
  motion: "Motion", contact: "Contact", tamper: "Tamper", smoke: "Smoke", water: "Leak", battery: "Battery",
};

/// A binary sensor's payload in words.
const SENSOR_WORDS = {
  motion: { on: "motion", off: "no motion" },
  contact: { open: "open", closed: "closed" },
  tamper: { on: "tampered", off: "ok" },
  smoke: { on: "smoke", off: "no smoke" },
  water: { on: "leak", off: "dry" },
};


/// A sensor's reading as a tile shows it: a number with its unit (`21.5 °C`, `90 %`), a binary sensor in words,
/// `—` before its first report.
export function sensorText(sensor, unit, payload) {
  if (payload === undefined) return "—";
  const words = SENSOR_WORDS[sensor];
  if (words) return words[payload] ?? payload;
  return unit ? `${payload} ${unit}` : payload;
}

export function tilesPage(store) {
  const element = h("section", { class: "tiles-page" });
  let tiles = [];

  function build() {
    tiles = [];
    const rooms = new Map();
    for (const device of store.devices) {
      if (!rooms.has(device.room)) rooms.set(device.room, []);
      rooms.get(device.room).push(device);
    }
    const names = [...rooms.keys()].sort((a, b) =>
      (a === "unassigned") - (b === "unassigned") || a.localeCompare(b));
    const sections = names.map((room) => {
      const devices = rooms.get(room).sort((a, b) =>
        (KIND_ORDER[a.kind] ?? 9) - (KIND_ORDER[b.kind] ?? 9) || a.name.localeCompare(b.name));
      const made = devices.map((device) => makeTile(store, device));
      tiles.push(...made);
      return h("section", { class: "room", dataset: { room } },
        h("h2", {}, label(room)), h("div", { class: "grid" }, made.map((tile) => tile.element)));
    });
    if (store.scenes.length > 0) {
      const made = store.scenes.map((scene) => sceneTile(store, scene));
      tiles.push(...made);
      sections.push(h("section", { class: "room scenes" },
        h("h2", {}, "Scenes"), h("div", { class: "grid" }, made.map((tile) => tile.element))));
    }
    if (sections.length === 0) {
      sections.push(h("p", { class: "empty" }, store.connected ? "No devices yet." : "Connecting to the bridge…"));
    }
    element.replaceChildren(...sections);
    for (const tile of tiles) tile.update();
  }

  build();
  return {
    element,
    update(change) {
      if (change.kind === "snapshot" || change.kind === "devices") return build();
      for (const tile of tiles) {
        if (change.kind === "message" && tile.message) tile.message(change);
        else if (change.kind === "state" && tile.topics && tile.topics.some((t) => change.topic === t)) tile.update();
        else if (change.kind === "bridge" || change.kind === "connection") tile.update();
      }
    },
  };
}

/// A device's tile: the frame every kind shares (name, availability, data-topic/data-state), its controls inside.
function makeTile(store, device) {
  const base = device.topic;
  const state = h("span", { class: "value" });
  const detail = h("span", { class: "detail" });
  const controls = h("div", { class: "controls" });
  const readings = sensorReadings(store, device);
  const buttons = buttonActions(device);
  const element = h("article", { class: `tile ${device.kind}`, dataset: { topic: base, kind: device.kind } },
    h("header", {}, h("span", { class: "name" }, label(device.name)), state),
    controls, buttons.element, readings.element, detail);
  // A kind this page does not know yet shows its state and takes no command (a toggle could send it nonsense).
  const kind = KINDS[device.kind] || KINDS.readonly;
  const parts = kind(store, device, controls);
  const topics = [base, base + "/availability", base + "/power", base + "/energy", base + "/volume",
    base + "/mute", base + "/input", base + "/movement", base + "/setpoint", base + "/mode", base + "/operating_state",
    ...readings.topics];

  function update() {
    const payload = store.value(base);
    element.dataset.state = payload ?? "";
    const available = store.available(device);
    element.classList.toggle("offline", !available);
    element.setAttribute("aria-disabled", String(!available));
    const shown = parts.update(payload);
    state.textContent = available ? shown : "offline";
    readings.update();
    buttons.update();
    const power = store.value(base + "/power");
    const energy = store.value(base + "/energy");
    detail.textContent = [power !== undefined ? `${power} W` : null, energy !== undefined ? `${energy} kWh` : null]
      .filter(Boolean).join(" · ");
  }
  return { element, update, topics, message: buttons.message };
}

/// The last action of each scene button the page saw, by topic (`<device>/button/<n>`): `{ payload, at }`. Kept
/// outside the tiles, which a changed inventory rebuilds.
const LAST_ACTIONS = new Map();

/// A device's scene buttons (the inventory's `buttons`: number → actions), one row each with the last action the
/// dashboard saw on `<device>/button/<n>` and when (`Held · 20:15:04`), `—` before one (actions are events, not
/// retained: a page opened later starts with none). Read-only.
function buttonActions(device) {
  const rows = Object.keys(device.buttons || {}).map(Number).sort((a, b) => a - b).map((button) => {
    const value = h("dd", {}, "—");
    const row = h("div", { class: "reading button", dataset: { button: String(button), action: "" } },
      h("dt", {}, `Button ${button}`), value);
    return { topic: `${device.topic}/button/${button}`, row, value };
  });
  const element = rows.length ? h("dl", { class: "readings buttons" }, rows.map((entry) => entry.row)) : null;
  function show(entry) {
    const last = LAST_ACTIONS.get(entry.topic);
    if (!last) return;
    entry.row.dataset.action = last.payload;
    entry.value.textContent = `${label(last.payload)} · ${last.at.toLocaleTimeString()}`;
  }
  return {
    element,
    update() { for (const entry of rows) show(entry); },
    message(change) {
      const entry = rows.find((candidate) => candidate.topic === change.topic);
      if (!entry) return;
      LAST_ACTIONS.set(change.topic, { payload: change.payload, at: new Date() });
      show(entry);
      entry.row.classList.remove("flash");
      void entry.row.offsetWidth;
      entry.row.classList.add("flash");
    },
  };
}

/// A device's sensors (the inventory's `sensors`: name → unit), one row each with its reading, the battery last;
/// the battery is marked low while the bridge's `battery_low` is on (below `[zwave] low_battery`), not a row itself.
function sensorReadings(store, device) {
  const sensors = Object.entries(device.sensors || {});
  const rows = sensors.filter(([sensor]) => sensor !== "battery_low").map(([sensor, unit]) => {
    const value = h("dd", {});
    const row = h("div", { class: "reading", dataset: { sensor } }, h("dt", {}, SENSOR_NAMES[sensor] || label(sensor)),
      value);
    return { sensor, unit, row, value };
  });
  const element = rows.length ? h("dl", { class: "readings" }, rows.map((entry) => entry.row)) : null;
  return {
    element,
    topics: sensors.map(([sensor]) => `${device.topic}/${sensor}`),
    update() {
      for (const { sensor, unit, row, value } of rows) {
        const payload = store.value(`${device.topic}/${sensor}`);
        value.textContent = sensorText(sensor, unit, payload);
        row.dataset.value = payload ?? "";
        row.classList.toggle("active", SENSOR_WORDS[sensor] !== undefined && ["on", "open"].includes(payload));
        row.classList.toggle("low", sensor === "battery" && store.value(`${device.topic}/battery_low`) === "on");
      }
    },
  };
}

const KINDS = {
  dimmer(store, device, controls) {
    const base = device.topic;
    let dragging = false;
    let settle = null;
    const send = throttle((level) => store.command(base, level), 120);
    const slider = h("input", {
      type: "range", min: 0, max: 99, step: 1, "aria-label": `${label(device.name)} level`,
      oninput: () => { dragging = true; send(slider.value); },
      onchange: () => {
        store.command(base, slider.value);
        clearTimeout(settle);
        settle = setTimeout(() => { dragging = false; }, 800);
      },
    });
    const power = h("button", {
      class: "toggle", type: "button",
      onclick: () => store.command(base, Number(store.value(base) || 0) > 0 ? "off" : "on"),
    }, "on/off");
    controls.append(slider, power);
    return {
      update(payload) {
        const level = Number(payload || 0);
        if (!dragging) slider.value = level;
        slider.style.setProperty("--level", `${Math.round((level / 99) * 100)}%`);
        power.classList.toggle("on", level > 0);
        power.setAttribute("aria-pressed", String(level > 0));
        return payload === undefined ? "…" : level > 0 ? `${level}%` : "off";
      },
    };
  },

  switch(store, device, controls) {
    const base = device.topic;
    const button = h("button", {
      class: "toggle big", type: "button", "aria-label": `${label(device.name)} on or off`,
      onclick: () => store.command(base, "toggle"),
    }, "toggle");
    controls.append(button);
    return {
      update(payload) {
        button.classList.toggle("on", payload === "on");
        button.setAttribute("aria-pressed", String(payload === "on"));
        button.textContent = payload === "on" ? "turn off" : "turn on";
        return payload ?? "…";
      },
    };
  },

  socket(store, device, controls) { return KINDS.switch(store, device, controls); },

  /// A roller shutter or blind: open, stop and close, and a position slider (0 closed … 100 open, set when let go);
  /// the header shows the position, or the movement (`opening`, `closing`) while it moves.
  cover(store, device, controls) {
    const base = device.topic;
    const name = label(device.name);
    const slider = h("input", {
      type: "range", min: 0, max: 100, step: 1, "aria-label": `${name} position`,
      onchange: () => store.command(base, slider.value),
    });
    const buttons = ["open", "stop", "close"].map((command) => h("button", {
      class: "toggle", type: "button", dataset: { command }, "aria-label": `${command} ${name}`,
      onclick: () => store.command(base, command),
    }, command));
    controls.append(h("div", { class: "row" }, buttons), slider);
    return {
      update(payload) {
        const position = Number(payload || 0);
        if (document.activeElement !== slider) slider.value = position;
        slider.style.setProperty("--level", `${position}%`);
        const movement = store.value(`${base}/movement`);
        if (payload === undefined) return "…";
        return movement === "opening" || movement === "closing" ? `${movement} ${position}%`
          : position === 0 ? "closed" : position === 100 ? "open" : `${position}% open`;
      },
    };
  },

  /// A door lock: lock and unlock; the header shows locked, unlocked or jammed. Unlocking is the admin's (the
  /// bridge refuses it from the control token): a control dashboard shows unlock disabled.
  lock(store, device, controls) {
    const base = device.topic;
    const name = label(device.name);
    const admin = store.role === "admin";
    const buttons = ["lock", "unlock"].map((command) => h("button", {
      class: "toggle", type: "button", dataset: { command }, "aria-label": `${command} ${name}`,
      disabled: command === "unlock" && !admin,
      title: command === "unlock" && !admin ? "unlocking needs the admin token" : undefined,
      onclick: () => store.command(base, command),
    }, command));
    controls.append(h("div", { class: "row" }, buttons));
    return {
      update(payload) {
        buttons[0].classList.toggle("on", payload === "locked");
        buttons[0].setAttribute("aria-pressed", String(payload === "locked"));
        return payload ?? "…";
      },
    };
  },

  /// A thermostat: its setpoint between − and + (the device's step, 0.5 °C, within its range; each press sends the
  /// setpoint it shows), its mode in a selector; the header shows the mode and the setpoint, its readings (the
  /// current temperature, the battery) follow.
  thermostat(store, device, controls) {
    const base = device.topic;
    const name = label(device.name);
    const range = device.setpoint || { min: 5, max: 30, step: 0.5, unit: "°C" };
    const decimals = range.step < 1 ? 1 : 0;
    let pending = null;
    const shown = h("output", { class: "setpoint", "aria-live": "polite" }, "—");
    const step = (direction) => {
      const from = pending ?? Number(store.value(`${base}/setpoint`) ?? range.min);
      const stepped = Math.round((from + direction * range.step) / range.step) * range.step;
      const next = Math.min(range.max, Math.max(range.min, stepped));
      pending = next;
      shown.textContent = `${next.toFixed(decimals)} ${range.unit}`;
      store.command(base, next.toFixed(decimals), "/setpoint/set");
    };
    const buttons = [["lower", "−", -1], ["raise", "+", 1]].map(([command, text, direction]) => h("button", {
      class: "toggle", type: "button", dataset: { command }, "aria-label": `${command} ${name} setpoint`,
      onclick: () => step(direction),
    }, text));
    const mode = h("select", {
      "aria-label": `${name} mode`, onchange: () => store.command(base, mode.value, "/mode/set"),
    }, (device.modes || ["off", "heat"]).map((word) => h("option", { value: word }, label(word))));
    controls.append(h("div", { class: "row" }, buttons[0], shown, buttons[1]), mode);
    return {
      update(payload) {
        const setpoint = store.value(`${base}/setpoint`);
        if (setpoint !== undefined && pending !== null && Math.abs(Number(setpoint) - pending) < 0.01) pending = null;
        if (pending === null) shown.textContent = setpoint === undefined ? "—" : `${setpoint} ${range.unit}`;
        if (payload !== undefined && document.activeElement !== mode) mode.value = payload;
        if (payload === undefined) return "…";
        return setpoint === undefined ? label(payload) : `${label(payload)} · ${setpoint} ${range.unit}`;
      },
    };
  },

  /// A sensor device: its readings (sensorReadings) and no control; the header shows what it is mostly for
  /// (open or closed, motion, else its first reading).
  sensor(store, device) {
    const sensors = device.sensors || {};
    const main = ["contact", "motion", "water", "smoke"].find((sensor) => sensor in sensors)
      ?? Object.keys(sensors).find((sensor) => sensor !== "battery" && sensor !== "battery_low");
    return {
      update() {
        if (!main) return "";
        return sensorText(main, sensors[main], store.value(`${device.topic}/${main}`));
      },
    };
  },

  /// A wall controller (Central Scene): its buttons' last actions (buttonActions) and no control; the header says
  /// how many buttons it has.
  buttons(store, device) {
    const count = Object.keys(device.buttons || {}).length;
    return { update() { return count === 1 ? "1 button" : `${count} buttons`; } };
  },

  readonly() {
    return { update(payload) { return payload ?? "…"; } };
  },

  tv(store, device, controls) {
    const base = device.topic;
    const power = h("button", {
      class: "toggle", type: "button",
      onclick: () => store.command(base, store.value(base) === "on" ? "standby" : "on"),
    }, "power");
    const input = h("select", {
      "aria-label": `${label(device.name)} input`,
      onchange: () => store.command(base, input.value, "/input/set"),
    }, (device.inputs || []).map((name) => h("option", { value: name }, label(name))));
    let dragging = false;
    let settle = null;
    const send = throttle((value) => store.command(base, value, "/volume/set"), 150);
    const volume = h("input", {
      type: "range", min: 0, max: 100, step: 1, class: "volume", "aria-label": `${label(device.name)} volume`,
      oninput: () => { dragging = true; send(volume.value); },
      onchange: () => {
        store.command(base, volume.value, "/volume/set");
        clearTimeout(settle);
        settle = setTimeout(() => { dragging = false; }, 800);
      },
    });
    const mute = h("button", {
      class: "toggle", type: "button", onclick: () => store.command(base, "toggle", "/mute/set"),
    }, "mute");
    controls.append(h("div", { class: "row" }, power, input), h("div", { class: "row" }, volume, mute));
    return {
      update(payload) {
        power.classList.toggle("on", payload === "on");
        power.setAttribute("aria-pressed", String(payload === "on"));
        const current = store.value(base + "/input");
        if (current && ![...input.options].some((option) => option.value === current)) {
          input.append(h("option", { value: current }, current));
        }
        if (current) input.value = current;
        const level = store.value(base + "/volume");
        if (!dragging && level !== undefined) volume.value = level;
        const muted = store.value(base + "/mute") === "on";
        mute.classList.toggle("on", muted);
        mute.setAttribute("aria-pressed", String(muted));
        mute.textContent = muted ? "muted" : "mute";
        return payload ?? "…";
      },
    };
  },
};

/// What sends a mapped scene: the button and press when the bridge knows the node's product (its device profile),
/// else the node and scene id.
function pressName(scene) {
  const where = `node ${scene.node}`;
  if (scene.button === undefined) return `${where} scene ${scene.scene}`;
  return `${where} S${scene.button} ${scene.press} press (scene ${scene.scene})`;
}

/// A mapped scene (`[[zwave.scene]]`): pressing it publishes its topic and payload as the device's button would;
/// it lights up whenever the scene is published.
function sceneTile(store, scene) {
  const name = scene.topic.split("/").pop();
  const button = h("button", { class: "toggle big", type: "button", onclick: () => store.scene(scene) }, "activate");
  const last = h("span", { class: "value" }, "");
  const element = h("article", { class: "tile scene", dataset: { sceneTopic: scene.topic } },
    h("header", {}, h("span", { class: "name" }, label(name)), last),
    h("div", { class: "controls" }, button),
    h("span", { class: "detail" }, `${pressName(scene)} → ${scene.topic} ${scene.payload}`));
  return {
    element,
    update() {},
    message(change) {
      if (change.topic !== scene.topic || change.payload !== scene.payload) return;
      last.textContent = new Date().toLocaleTimeString();
      element.classList.remove("flash");
      void element.offsetWidth;
      element.classList.add("flash");
    },
  };
}

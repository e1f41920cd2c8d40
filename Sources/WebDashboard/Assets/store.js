// The bridge as the page sees it: one WebSocket (/ws) that sends the whole state on connect (`snapshot`), then
// every change, and takes the MQTT contract's commands. Everything the pages draw comes from here.

const MAX_EVENTS = 500;

export class Store {
  constructor() {
    this.bridge = "";
    this.prefix = "Thuis";
    this.version = "";
    this.role = "";              // "admin" or "control" (the token's role), from the snapshot
    this.state = "offline";      // the bridge's own state (online/offline)
    this.connected = false;      // the WebSocket
    this.devices = [];           // the inventory (as on <prefix>/bridge/<bridge>/devices)
    this.retained = new Map();   // retained device topics -> payload
    this.scenes = [];            // [[zwave.scene]] mappings
    this.events = [];            // bridge events since the page loaded, newest last
    this.listeners = new Set();
    this.pending = new Map();    // transaction -> {resolve, reject}
    this.sequence = 0;
    this.session = Math.random().toString(36).slice(2, 8);
    this.retry = 500;
    this.socket = null;
    this.sent = new Map();       // command topic -> when this page last sent on it
  }

  /// `listener(change)` for every change: {kind: "snapshot" | "state" | "devices" | "bridge" | "event" |
  /// "response" | "message" | "connection" | "error", ...}.
  subscribe(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(change) {
    for (const listener of this.listeners) {
      try { listener(change); } catch (error) { console.error(error); }
    }
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws`);
    this.socket = socket;
    socket.onmessage = (message) => this.receive(message.data);
    socket.onopen = () => { this.retry = 500; };
    socket.onclose = (close) => {
      if (this.socket !== socket) return;
      this.connected = false;
      for (const { reject } of this.pending.values()) reject(new Error("connection lost"));
      this.pending.clear();
      this.emit({ kind: "connection", connected: false, code: close.code, reason: close.reason });
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  receive(text) {
    let message;
    try { message = JSON.parse(text); } catch { return; }
    switch (message.type) {
      case "snapshot":
        this.connected = true;
        this.bridge = message.bridge;
        this.prefix = message.prefix;
        this.version = message.version;
        this.role = message.role;
        this.state = message.state;
        this.scenes = message.scenes || [];
        this.devices = message.devices || [];
        this.retained = new Map(Object.entries(message.retained || {}));
        this.emit({ kind: "connection", connected: true });
        this.emit({ kind: "snapshot" });
        break;
      case "state":
        if (message.payload === "") this.retained.delete(message.topic);
        else this.retained.set(message.topic, message.payload);
        this.emit({ kind: "state", topic: message.topic, payload: message.payload });
        break;
      case "bridge":
        this.state = message.state;
        this.emit({ kind: "bridge", state: message.state });
        break;
      case "devices":
        this.devices = message.devices;
        this.emit({ kind: "devices" });
        break;
      case "event":
        this.events.push({ at: new Date(), event: message.event });
        if (this.events.length > MAX_EVENTS) this.events.splice(0, this.events.length - MAX_EVENTS);
        this.emit({ kind: "event", event: message.event });
        break;
      case "response": {
        const transaction = message.response && message.response.transaction;
        const waiter = this.pending.get(transaction);
        if (waiter) {
          this.pending.delete(transaction);
          waiter.resolve(message.response);
        }
        this.emit({ kind: "response", verb: message.verb, response: message.response });
        break;
      }
      case "message":
        this.emit({ kind: "message", topic: message.topic, payload: message.payload });
        break;
      case "error":
        this.emit({ kind: "error", error: message.error });
        break;
    }
  }

  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /// A device command, exactly as published on MQTT: `topic` is the device's state topic, `suffix` the command
  /// (`/set`, `/volume/set`...).
  command(base, payload, suffix = "/set") {
    this.sent.set(base + suffix, Date.now());
    return this.send({ type: "set", topic: base + suffix, payload: String(payload) });
  }

  /// Whether this page sent a command on `topic` in the last few seconds (its rejection is ours to show).
  sentRecently(topic) {
    return Date.now() - (this.sent.get(topic) || 0) < 5000;
  }

  /// A bridge request; resolves with its response (`{transaction, status, data | error}`).
  request(verb, args = {}) {
    const transaction = `web-${this.session}-${++this.sequence}`;
    return new Promise((resolve, reject) => {
      this.pending.set(transaction, { resolve, reject });
      if (!this.send({ type: "request", verb, payload: { transaction, ...args } })) {
        this.pending.delete(transaction);
        reject(new Error("not connected"));
      }
    });
  }

  scene(scene) {
    return this.send({ type: "scene", topic: scene.topic, payload: scene.payload });
  }

  // Reading the state.

  value(topic) { return this.retained.get(topic); }

  // A battery node between wake-ups (`asleep`) is available: its last readings stand.
  available(device) {
    const availability = this.value(device.topic + "/availability");
    return this.state === "online" && (availability === "online" || availability === "asleep");
  }
}

// The one socket module every screen uses: the public watch client (/ws/watch), the
// referee's table session (/ws/tables/{id}) with its durable command queue, and the
// server clock offset that shot-clock countdowns are drawn against.

// ---------------------------------------------------------------- server clock
// offset = server_time - local time at receipt, so server "now" = Date.now() + offset.
let clockOffset = 0;
let offsetKnown = false;

export function noteServerTime(serverTime) {
  if (typeof serverTime !== "number") return;
  const sample = serverTime - Date.now();
  // Take the first sample as is, then smooth so one slow message cannot jerk the clock.
  clockOffset = offsetKnown ? Math.round(clockOffset * 0.7 + sample * 0.3) : sample;
  offsetKnown = true;
}

export function serverNow() { return Date.now() + clockOffset; }

/** Milliseconds left on a `clock.shot` / `clock.match` object, or null. */
export function remainingMs(clock) {
  if (!clock) return null;
  if (clock.running === false || clock.deadline === null || clock.deadline === undefined) {
    return typeof clock.remaining_ms === "number" ? Math.max(0, clock.remaining_ms) : null;
  }
  return Math.max(0, clock.deadline - serverNow());
}

function wsUrl(path) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}${path}`;
}

function backoff(attempt) {
  return Math.min(5000, 250 * 2 ** Math.min(attempt, 5)) + Math.floor(Math.random() * 200);
}

// ---------------------------------------------------------------- watch client
// GET /api/config: {"watch_url": path or ws(s):// URL | null, "watch_port": N | null}, asked once.
let watchUrlPromise = null;
function watchUrl() {
  if (!watchUrlPromise) {
    watchUrlPromise = fetch("/api/config").then((r) => (r.ok ? r.json() : {})).catch(() => ({})).then((cfg) => {
      if (typeof cfg.watch_url === "string" && cfg.watch_url) {
        return cfg.watch_url.startsWith("/") ? wsUrl(cfg.watch_url) : cfg.watch_url;
      }
      if (Number.isInteger(cfg.watch_port)) {
        const proto = location.protocol === "https:" ? "wss:" : "ws:";
        return `${proto}//${location.hostname}:${cfg.watch_port}/ws/watch`;
      }
      return wsUrl("/ws/watch");
    });
  }
  return watchUrlPromise;
}

/**
 * const w = new Watch({onStatus});
 * w.subscribe("match:m1", (data, msg) => ..., {replay: true});
 * Reconnects by itself; `match:` channels resubscribe with `since` so nothing is missed.
 */
export class Watch {
  constructor({ onStatus } = {}) {
    this.subs = new Map(); // channel -> {handlers:Set, version, replay}
    this.onStatus = onStatus || (() => {});
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    this.onStatus("connecting");
    // The hub's watch gateway when it advertises one; its own /ws/watch otherwise, and after a
    // gateway that would not open twice in a row.
    watchUrl().then((url) => this._open(this.gatewayFailures >= 2 ? wsUrl("/ws/watch") : url));
  }

  _open(url) {
    if (this.closed) return;
    const ws = new WebSocket(url);
    this.ws = ws;
    let opened = false;
    ws.addEventListener("open", () => {
      opened = true;
      this.gatewayFailures = 0;
      this.attempt = 0;
      this.onStatus("live");
      for (const ch of this.subs.keys()) this._sendSubscribe(ch);
    });
    ws.addEventListener("message", (ev) => this._onMessage(ev));
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      if (!opened && url !== wsUrl("/ws/watch")) this.gatewayFailures = (this.gatewayFailures || 0) + 1;
      this.onStatus("offline");
      if (!this.closed) setTimeout(() => this.connect(), backoff(this.attempt++));
    });
    ws.addEventListener("error", () => { try { ws.close(); } catch (_) { /* ignore */ } });
  }

  _send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(obj));
  }

  _sendSubscribe(channel) {
    const sub = this.subs.get(channel);
    const msg = { type: "subscribe", channel };
    // Only match: channels replay history; others answer with a fresh snapshot anyway.
    if (channel.startsWith("match:")) {
      if (sub.version !== null) msg.since = sub.version;
      else if (sub.replay) msg.since = 0;
    }
    this._send(msg);
  }

  subscribe(channel, handler, { replay = false } = {}) {
    let sub = this.subs.get(channel);
    if (!sub) {
      sub = { handlers: new Set(), version: null, replay };
      this.subs.set(channel, sub);
      this._sendSubscribe(channel);
    }
    sub.handlers.add(handler);
  }

  unsubscribe(channel) {
    if (this.subs.delete(channel)) this._send({ type: "unsubscribe", channel });
  }

  _onMessage(ev) {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (_) { return; }
    if (msg.server_time !== undefined) noteServerTime(msg.server_time);
    if (msg.type !== "snapshot" && msg.type !== "update") return;
    const sub = this.subs.get(msg.channel);
    if (!sub) return;
    if (msg.type === "update" && sub.version !== null && typeof msg.version === "number"
        && msg.version <= sub.version) return; // already seen (replay overlap)
    if (typeof msg.version === "number") sub.version = msg.version;
    for (const h of sub.handlers) {
      try { h(msg.data, msg); } catch (e) { console.error(e); }
    }
  }

  close() { this.closed = true; if (this.ws) this.ws.close(); }
}

// ---------------------------------------------------------------- table session
export function newCommandId() {
  if (crypto && crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/**
 * The referee's session. Commands go into a queue kept in localStorage first and leave it
 * only when the hub answers them (ack or reject); after a reconnect every queued command
 * is sent again with the same id, which the hub answers idempotently.
 *
 * Events: onReady(match), onState(match), onAck(envelope, msg), onReject(envelope, msg),
 * onStatus("connecting"|"live"|"offline"|"auth"), onAuthFailed(), onQueue(n).
 */
export class TableSession {
  constructor(tableId, token, handlers = {}) {
    this.tableId = tableId;
    this.token = token;
    this.h = handlers;
    this.key = `cuehub.queue.${tableId}`;
    this.ws = null;
    this.ready = false;
    this.attempt = 0;
    this.closed = false;
    this.match = null;
    this.connect();
  }

  _emit(name, ...args) { const f = this.h[name]; if (f) { try { f(...args); } catch (e) { console.error(e); } } }

  queue() {
    try { return JSON.parse(localStorage.getItem(this.key) || "[]"); } catch (_) { return []; }
  }

  _saveQueue(q) {
    localStorage.setItem(this.key, JSON.stringify(q));
    this._emit("onQueue", q.length);
  }

  connect() {
    if (this.closed) return;
    this.ready = false;
    this._emit("onStatus", "connecting");
    const ws = new WebSocket(wsUrl(`/ws/tables/${encodeURIComponent(this.tableId)}`));
    this.ws = ws;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "auth", token: this.token }));
      this._emit("onStatus", "auth");
    });
    ws.addEventListener("message", (ev) => this._onMessage(ev));
    ws.addEventListener("close", (ev) => {
      if (this.ws !== ws) return;
      this.ready = false;
      if (ev.code === 4401) {
        this.closed = true;
        this._emit("onStatus", "offline");
        this._emit("onAuthFailed");
        return;
      }
      this._emit("onStatus", "offline");
      if (!this.closed) setTimeout(() => this.connect(), backoff(this.attempt++));
    });
    ws.addEventListener("error", () => { try { ws.close(); } catch (_) { /* ignore */ } });
  }

  _onMessage(ev) {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (_) { return; }
    if (msg.server_time !== undefined) noteServerTime(msg.server_time);
    switch (msg.type) {
      case "ready":
        this.ready = true;
        this.attempt = 0;
        this.match = msg.match;
        this._emit("onStatus", "live");
        this._emit("onReady", msg.match);
        this.flush();
        break;
      case "state":
        this.match = msg.match;
        this._emit("onState", msg.match);
        break;
      case "ack":
      case "reject": {
        const q = this.queue();
        const i = q.findIndex((e) => e.id === msg.id);
        const env = i >= 0 ? q[i] : { id: msg.id };
        if (i >= 0) { q.splice(i, 1); this._saveQueue(q); }
        this._emit(msg.type === "ack" ? "onAck" : "onReject", env, msg);
        break;
      }
      default:
        break;
    }
  }

  /** Queue a command for the current match and send it if the socket is up.
   * `matchId` defaults to the match on the table. Returns the envelope. */
  send(command, matchId) {
    const mid = matchId || (this.match && this.match.id);
    const env = { id: newCommandId(), match_id: mid, command };
    const q = this.queue();
    q.push(env);
    this._saveQueue(q);
    if (this.ready) this._sendRaw(env);
    return env;
  }

  flush() {
    for (const env of this.queue()) this._sendRaw(env);
  }

  _sendRaw(env) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(env));
  }

  /** Drop a queued command the referee no longer wants sent. */
  discard(id) {
    this._saveQueue(this.queue().filter((e) => e.id !== id));
  }

  close() { this.closed = true; if (this.ws) this.ws.close(); }
}

// ---------------------------------------------------------------- REST reads
export async function getJSON(path) {
  const r = await fetch(path, { headers: { Accept: "application/json" } });
  if (!r.ok) throw new Error(`${r.status}`);
  return r.json();
}

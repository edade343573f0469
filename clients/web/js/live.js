// The one socket module every screen uses: the public watch client (/ws/watch), the referee's table
// session (/ws/tables/{id}) with its durable command queue, the server clock offset shot clocks use.
import { deviceId } from "./device.js";

// ---------------------------------------------------------------- server clock
// offset = server_time - local time at receipt, so server "now" = Date.now() + offset.
let clockOffset = 0;
let offsetKnown = false;
const OFFSET_KEY = "cuehub.clock_offset";

export function noteServerTime(serverTime) {
  if (typeof serverTime !== "number") return;
  const sample = serverTime - Date.now();
  // Take the first sample as is, then smooth so one slow message cannot jerk the clock.
  clockOffset = offsetKnown ? Math.round(clockOffset * 0.7 + sample * 0.3) : sample;
  offsetKnown = true;
  try { localStorage.setItem(OFFSET_KEY, String(clockOffset)); } catch (_) { /* ignore */ }
}

// A tablet reloaded without a link still knows the hub's clock from its last visit.
try {
  const saved = Number(localStorage.getItem(OFFSET_KEY));
  if (Number.isFinite(saved) && localStorage.getItem(OFFSET_KEY) !== null) clockOffset = saved;
} catch (_) { /* storage may be blocked */ }

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

// A socket not open within this long is given up (a dead network can leave it connecting forever).
const OPEN_TIMEOUT_MS = 4000;

function openTimeout(ws, onTimeout) {
  const timer = setTimeout(() => { if (ws.readyState === WebSocket.CONNECTING) onTimeout(); }, OPEN_TIMEOUT_MS);
  ws.addEventListener("open", () => clearTimeout(timer));
  ws.addEventListener("close", () => clearTimeout(timer));
}

function backoff(attempt) {
  return Math.min(5000, 250 * 2 ** Math.min(attempt, 5)) + Math.floor(Math.random() * 200);
}

/**
 * A socket that must keep hearing from the hub: `{"type": "ping"}` is sent when nothing came for
 * `pingMs`, and a socket that brought nothing for `staleMs` is closed (and reopened by its owner):
 * a half-dead network keeps a WebSocket "open" while nothing goes through.
 */
class Liveness {
  constructor(ws, { pingMs, staleMs, always = false, onStale }) {
    this.ws = ws;
    this.heardAt = Date.now();
    this.timer = setInterval(() => {
      const quiet = Date.now() - this.heardAt;
      if (quiet >= staleMs) { this.stop(); onStale(); return; }
      if ((always || quiet >= pingMs) && ws.readyState === WebSocket.OPEN) {
        try { ws.send('{"type":"ping"}'); } catch (_) { /* closing */ }
      }
    }, pingMs);
  }

  heard() { this.heardAt = Date.now(); }

  stop() { clearInterval(this.timer); }
}

// ---------------------------------------------------------------- watch client
// GET /api/config: {"watch_url": path or ws(s):// URL | null, "watch_port": N | null}, asked once.
let watchUrlPromise = null;
function watchUrl() {
  if (!watchUrlPromise) {
    watchUrlPromise = fetch("/api/config").then((r) => (r.ok ? r.json() : {})).catch(() => ({})).then((/** @type {any} */ cfg) => {
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

// A screen pings after 5 s without a message and gives the socket up after 12 s without one.
export const WATCH_PING_MS = 5000;
export const WATCH_STALE_MS = 12000;

/**
 * const w = new Watch({onStatus});
 * w.subscribe("match:m1", (data, msg) => ..., {replay: true, onError: (code) => ...});
 * Reconnects by itself; `match:` channels resubscribe with `since` so nothing is missed.
 * onStatus: "connecting" | "live" | "stale" (the socket brought nothing for a while: it is
 * reopened) | "offline". `onError(code, msg)` hears the hub's refusals of that channel
 * (`unknown_channel` for an id the hub does not know).
 */
export class Watch {
  /** @param {{onStatus?: (status: string) => void}} [options] */
  constructor({ onStatus } = {}) {
    this.subs = new Map(); // channel -> {handlers:Set, errors:Set, version, replay}
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
    let live = null;
    openTimeout(ws, () => { try { ws.close(); } catch (_) { /* ignore */ } });
    ws.addEventListener("open", () => {
      opened = true;
      this.gatewayFailures = 0;
      this.attempt = 0;
      this.onStatus("live");
      live = new Liveness(ws, { pingMs: WATCH_PING_MS, staleMs: WATCH_STALE_MS, onStale: () => {
        if (this.ws !== ws) return;
        this.onStatus("stale");
        try { ws.close(); } catch (_) { /* ignore */ }
      } });
      for (const ch of this.subs.keys()) this._sendSubscribe(ch);
    });
    ws.addEventListener("message", (ev) => { if (live) live.heard(); this._onMessage(ev); });
    ws.addEventListener("close", () => {
      if (live) live.stop();
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

  subscribe(channel, handler, { replay = false, onError = null } = {}) {
    let sub = this.subs.get(channel);
    if (!sub) {
      sub = { handlers: new Set(), errors: new Set(), version: null, replay };
      this.subs.set(channel, sub);
      this._sendSubscribe(channel);
    }
    sub.handlers.add(handler);
    if (onError) sub.errors.add(onError);
  }

  /** Ask for a channel's snapshot again (its owner lost track of it: a gap in a tournament's deltas). */
  resubscribe(channel) {
    const sub = this.subs.get(channel);
    if (!sub) return;
    sub.version = null;
    this._sendSubscribe(channel);
  }

  unsubscribe(channel) {
    if (this.subs.delete(channel)) this._send({ type: "unsubscribe", channel });
  }

  _onMessage(ev) {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (_) { return; }
    if (msg.server_time !== undefined) noteServerTime(msg.server_time);
    if (msg.type === "error") {
      const sub = msg.channel ? this.subs.get(msg.channel) : null;
      for (const h of (sub ? sub.errors : [])) {
        try { h((msg.error || {}).code, msg); } catch (e) { console.error(e); }
      }
      return;
    }
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

// The tablet pings every second; a link that brought nothing for 3.5 s is given up and reopened.
// (The hub counts a pinging tablet as at the table while it heard it within 2 s: hub/matches/presence.py.)
export const TABLE_PING_MS = 1000;
export const TABLE_STALE_MS = 3500;
// After an ack, the next queued entry waits for the state of that version (at most this long):
// a decision that the stroke left open must be answered before the strokes entered after it.
const STATE_WAIT_MS = 1500;
// Entries that the rules refuse while a player has a choice to make (decision_pending).
const WAIT_FOR_DECISION = new Set(["shot", "foul", "extension"]);

/**
 * The referee's session. Commands go into a queue kept in localStorage first and leave it
 * only when the hub answers them (ack or reject). They are sent one at a time, in order: the
 * next leaves when the previous one has been answered and its state drawn, so strokes entered
 * offline reach the hub in the order they were entered, each judged on the match its
 * predecessor left. After a reconnect (or a reload) the first one is sent again with the same
 * id, which the hub answers idempotently.
 *
 * - A reject with more entries behind it holds them (`held`): the referee sends them on
 *   (`release()`) or drops them (`discardHeld()`), since they were entered after the one refused.
 * - While the match waits for a player's choice, strokes wait (`waiting`): the decision the
 *   referee enters goes ahead of them (`send(cmd, {front: true})`).
 *
 * Events: onReady(match), onState(match), onAck(envelope, msg), onReject(envelope, msg),
 * onSent(envelope), onStatus("connecting"|"auth"|"live"|"offline"), onAuthFailed(),
 * onQueue(n), onFlow({held, waiting}).
 */
export class TableSession {
  constructor(tableId, token, handlers = {}) {
    this.tableId = tableId;
    this.token = token;
    this.h = handlers;
    this.key = `cuehub.queue.${tableId}`;
    this.matchKey = `cuehub.match.${tableId}`;
    this.ws = null;
    this.ready = false;
    this.attempt = 0;
    this.closed = false;
    // The last match the hub sent, kept so a tablet reloaded without a link still shows it.
    this.match = null;
    try { this.match = JSON.parse(localStorage.getItem(this.matchKey) || "null"); } catch (_) { this.match = null; }
    this.inflight = null; // id of the entry sent and not answered yet
    this.waitVersion = null; // the next entry waits for the state of this version
    this.waitTimer = null;
    this.held = false;
    this.waiting = null; // "decision" while strokes wait for a player's choice
    this.onlineHandler = () => this._kickReconnect();
    this.offlineHandler = () => this._drop();
    window.addEventListener("online", this.onlineHandler);
    window.addEventListener("offline", this.offlineHandler);
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
    this.inflight = null;
    this._emit("onStatus", "connecting");
    const ws = new WebSocket(wsUrl(`/ws/tables/${encodeURIComponent(this.tableId)}`));
    this.ws = ws;
    let live = null;
    openTimeout(ws, () => { if (this.ws === ws) this._drop(); });
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "auth", token: this.token, device: deviceId() }));
      this._emit("onStatus", "auth");
      live = new Liveness(ws, { pingMs: TABLE_PING_MS, staleMs: TABLE_STALE_MS, always: true,
        onStale: () => { if (this.ws === ws) this._drop(); } });
    });
    ws.addEventListener("message", (ev) => { if (live) live.heard(); if (this.ws === ws) this._onMessage(ev); });
    ws.addEventListener("close", (ev) => {
      if (live) live.stop();
      if (this.ws !== ws) return;
      this._lost();
      if (ev.code === 4401) {
        this.closed = true;
        this._emit("onAuthFailed");
        return;
      }
      this._retry();
    });
    ws.addEventListener("error", () => { try { ws.close(); } catch (_) { /* ignore */ } });
  }

  /** The link is gone (or silent): forget this socket and open another after a pause. */
  _drop() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    try { ws.close(); } catch (_) { /* ignore */ }
    this._lost();
    this._retry();
  }

  _lost() {
    this.ready = false;
    this.inflight = null;
    this._clearWait();
    this._emit("onStatus", "offline");
  }

  _retry() {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => { this.retryTimer = null; this.connect(); }, backoff(this.attempt++));
  }

  _kickReconnect() {
    if (this.ready || this.closed) return;
    if (this.retryTimer) { clearTimeout(this.retryTimer); this.retryTimer = null; }
    this.attempt = 0;
    const stuck = this.ws;
    this.ws = null; // a socket opened while there was no network may never open: start afresh
    if (stuck) { try { stuck.close(); } catch (_) { /* ignore */ } }
    this.connect();
  }

  _onMessage(ev) {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (_) { return; }
    if (msg.server_time !== undefined) noteServerTime(msg.server_time);
    switch (msg.type) {
      case "ready":
        this.ready = true;
        this.attempt = 0;
        this._keep(msg.match);
        this._emit("onStatus", "live");
        this._emit("onReady", msg.match);
        this._pump();
        break;
      case "state":
        this._keep(msg.match);
        this._emit("onState", msg.match);
        if (this.waitVersion !== null && msg.match && msg.match.version >= this.waitVersion) {
          this._clearWait();
          this._pump();
        } else if (this.waiting) this._pump();
        break;
      case "match_left": {
        // The match left this table (moved, requeued, cancelled, a withdrawal): the entries queued
        // for it can never be stored here; they leave the queue and the page says where it went.
        // The `state` that follows says what is on the table now.
        const q = this.queue();
        const dropped = q.filter((e) => e.match_id === msg.match_id && e.id !== this.inflight);
        if (dropped.length) this._saveQueue(q.filter((e) => !dropped.includes(e)));
        if (this.match && this.match.id === msg.match_id) this._keep(null);
        this._emit("onLeft", msg, dropped);
        this._pump();
        break;
      }
      case "reject":
        if (msg.error && msg.error.code === "rate_limited" && msg.id === this.inflight) {
          // Not judged: the hub asks for the same id again a little later.
          this.inflight = null;
          setTimeout(() => this._pump(), 1000);
          break;
        }
      // falls through
      case "ack": {
        const q = this.queue();
        const i = q.findIndex((e) => e.id === msg.id);
        const env = i >= 0 ? q[i] : { id: msg.id };
        if (i >= 0) { q.splice(i, 1); this._saveQueue(q); }
        if (this.inflight === msg.id) this.inflight = null;
        if (msg.type === "ack") {
          // The next entry waits until the state of this version is drawn (unless it is here).
          if (!this.match || this.match.version < msg.version) this._waitFor(msg.version);
        } else if (i >= 0 && q.length) {
          this.held = true;
          this._flow();
        }
        this._emit(msg.type === "ack" ? "onAck" : "onReject", env, msg);
        this._pump();
        break;
      }
      default:
        break;
    }
  }

  _keep(match) {
    this.match = match;
    try { localStorage.setItem(this.matchKey, JSON.stringify(match)); } catch (_) { /* full: memory will do */ }
  }

  _waitFor(version) {
    this._clearWait();
    this.waitVersion = version;
    this.waitTimer = setTimeout(() => { this._clearWait(); this._pump(); }, STATE_WAIT_MS);
  }

  _clearWait() {
    if (this.waitTimer) clearTimeout(this.waitTimer);
    this.waitTimer = null;
    this.waitVersion = null;
  }

  _flow() { this._emit("onFlow", { held: this.held ? this.queue().length : 0, waiting: this.waiting }); }

  /** Send the first queued entry when nothing is in flight and nothing holds the queue. */
  _pump() {
    if (!this.ready || this.inflight || this.waitVersion !== null) return;
    const q = this.queue();
    if (!q.length) {
      if (this.held || this.waiting) { this.held = false; this.waiting = null; this._flow(); }
      return;
    }
    if (this.held) return;
    const next = q[0];
    const m = this.match;
    const waiting = m && m.rack && m.rack.phase === "decision" && WAIT_FOR_DECISION.has(next.command && next.command.kind)
      ? "decision" : null;
    if (waiting !== this.waiting) { this.waiting = waiting; this._flow(); }
    if (waiting) return;
    this.inflight = next.id;
    this._sendRaw(next);
    this._emit("onSent", next);
  }

  /** Queue a command for the current match and send it when its turn comes.
   * `front`: ahead of the entries waiting (a decision the strokes after it need).
   * Returns the envelope. */
  send(command, { front = false, matchId = null, expectedVersion = null } = {}) {
    const mid = matchId || (this.match && this.match.id);
    const env = { id: newCommandId(), match_id: mid, command };
    if (expectedVersion !== null && expectedVersion !== undefined) env.expected_version = expectedVersion;
    const q = this.queue();
    if (front) q.splice(this.inflight && q.length && q[0].id === this.inflight ? 1 : 0, 0, env);
    else q.push(env);
    this._saveQueue(q);
    this._pump();
    return env;
  }

  /** Send on the entries a reject held. */
  release() { this.held = false; this._flow(); this._pump(); }

  /** Drop the entries a reject held; returns them. */
  discardHeld() {
    const dropped = this.queue().filter((e) => e.id !== this.inflight);
    this._saveQueue(this.queue().filter((e) => e.id === this.inflight));
    this.held = false;
    this._flow();
    return dropped;
  }

  /** Drop a queued command that is not in flight; true if it was dropped. */
  discard(id) {
    if (id === this.inflight) return false;
    const q = this.queue();
    const kept = q.filter((e) => e.id !== id);
    if (kept.length === q.length) return false;
    this._saveQueue(kept);
    return true;
  }

  /** The last queued entry that has not left yet (the one Undo may take back), or null. */
  lastUnsent() {
    const q = this.queue();
    const last = q.length ? q[q.length - 1] : null;
    return last && last.id !== this.inflight ? last : null;
  }

  _sendRaw(env) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(env));
  }

  close() {
    this.closed = true;
    window.removeEventListener("online", this.onlineHandler);
    window.removeEventListener("offline", this.offlineHandler);
    this._clearWait();
    if (this.ws) this.ws.close();
  }
}

// ---------------------------------------------------------------- REST reads
export class HttpError extends Error {
  constructor(status) { super(`${status}`); this.status = status; }
}

export async function getJSON(path) {
  const r = await fetch(path, { headers: { Accept: "application/json" } });
  if (!r.ok) throw new HttpError(r.status);
  return r.json();
}

// The desk's calls to the hub. The session lives in the HttpOnly cookie `cuehub_session` (the page
// never sees it); every write carries `X-Requested-With: cuehub`, which the hub demands of writes
// signed in with the cookie (another site cannot send that header). Nothing is kept in storage.

const WRITE_HEADER = { "X-Requested-With": "cuehub" };

export class ApiError extends Error {
  constructor(status, code, message, retryAfter = null) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code || "";
    this.retryAfter = retryAfter;
    this.detail = {}; // the whole error object of the answer (a refusal may name a match)
  }
}

/** @type {(e: Error) => void} */
let onSignedOut = () => {};

/** Called when a write finds the session gone (expired, signed out elsewhere). */
export function whenSignedOut(fn) { onSignedOut = fn; }

/** `method path [body]` -> the answer's JSON (null for 204); throws ApiError. */
export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  if (method !== "GET") Object.assign(headers, WRITE_HEADER);
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let r;
  try {
    r = await fetch(path, {
      method, headers, credentials: "same-origin", cache: "no-store",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (_) {
    throw new ApiError(0, "network", "");
  }
  if (r.status === 204) return null;
  let data = null;
  try { data = await r.json(); } catch (_) { data = null; }
  if (!r.ok) {
    const err = (data && data.error) || {};
    const retry = Number(r.headers.get("Retry-After")) || null;
    const e = new ApiError(r.status, err.code, err.message, retry);
    e.detail = err;
    if (r.status === 401 && method !== "GET" && path !== "/api/session") onSignedOut(e);
    throw e;
  }
  return data;
}

export const session = {
  state: () => api("GET", "/api/session"),
  signIn: (token) => api("POST", "/api/session", { token }),
  signOut: () => api("DELETE", "/api/session"),
  signOutEverywhere: () => api("DELETE", "/api/sessions"),
};

const enc = encodeURIComponent;

export const hub = {
  tournaments: ({ archived = false } = {}) => api("GET", `/api/tournaments${archived ? "?archived=1" : ""}`),
  deleteTournament: (tid) => api("DELETE", `/api/tournaments/${enc(tid)}`),
  archiveTournament: (tid) => api("POST", `/api/tournaments/${enc(tid)}/archive`),
  unarchiveTournament: (tid) => api("POST", `/api/tournaments/${enc(tid)}/unarchive`),
  tournament: (tid) => api("GET", `/api/tournaments/${enc(tid)}`),
  createTournament: (name) => api("POST", "/api/tournaments", { name }),
  createTable: (tid, name) => api("POST", `/api/tournaments/${enc(tid)}/tables`, { name }),
  table: (id) => api("GET", `/api/tables/${enc(id)}`),
  renameTable: (id, name) => api("PATCH", `/api/tables/${enc(id)}`, { name }),
  rotateToken: (id) => api("POST", `/api/tables/${enc(id)}/token`),
  pairingCode: (id) => api("POST", `/api/tables/${enc(id)}/pairing`),
  // section 7: players, the draw, the queue, tables, matches
  addPlayers: (tid, players) => api("POST", `/api/tournaments/${enc(tid)}/players`, { players }),
  updatePlayer: (tid, pid, changes) => api("PATCH", `/api/tournaments/${enc(tid)}/players/${enc(pid)}`, changes),
  withdrawPlayer: (tid, pid) => api("POST", `/api/tournaments/${enc(tid)}/players/${enc(pid)}/withdraw`),
  removePlayer: (tid, pid) => api("DELETE", `/api/tournaments/${enc(tid)}/players/${enc(pid)}`),
  makeDraw: (tid, body) => api("POST", `/api/tournaments/${enc(tid)}/draw`, body),
  drawFormats: () => api("GET", "/api/draw-formats"),
  reinstatePlayer: (tid, pid) => api("POST", `/api/tournaments/${enc(tid)}/players/${enc(pid)}/reinstate`),
  reopen: (tid, key) => api("POST", `/api/tournaments/${enc(tid)}/draw/${enc(key)}/reopen`),
  enterResult: (mid, body) => api("POST", `/api/matches/${enc(mid)}/result`, body),
  walkover: (tid, key, winner) => api("POST", `/api/tournaments/${enc(tid)}/draw/${enc(key)}/walkover`, { winner }),
  callNow: (tid, key, tableId) => api("POST", `/api/tournaments/${enc(tid)}/draw/${enc(key)}/call`, tableId ? { table_id: tableId } : {}),
  requeue: (tid, key) => api("POST", `/api/tournaments/${enc(tid)}/draw/${enc(key)}/requeue`),
  orderQueue: (tid, keys) => api("POST", `/api/tournaments/${enc(tid)}/queue`, { keys }),
  pauseTable: (id) => api("POST", `/api/tables/${enc(id)}/pause`),
  resumeTable: (id) => api("POST", `/api/tables/${enc(id)}/resume`),
  moveMatch: (mid, tableId) => api("PATCH", `/api/matches/${enc(mid)}`, { table_id: tableId }),
  cancelMatch: (mid) => api("DELETE", `/api/matches/${enc(mid)}`),
  match: (mid) => api("GET", `/api/matches/${enc(mid)}`),
  pair: (code) => api("POST", "/api/pair", { code }),
  command: (mid, token, envelope) => commandCall(mid, token, envelope),
};

/** A command sent as one of the table's tablets (the desk pairs itself to the table for that:
 * a token of its own, in memory only). A reject answers like an error. */
async function commandCall(mid, token, envelope) {
  let r;
  try {
    r = await fetch(`/api/matches/${enc(mid)}/commands`, {
      method: "POST", credentials: "omit", cache: "no-store",
      headers: { Accept: "application/json", "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify(envelope),
    });
  } catch (_) {
    throw new ApiError(0, "network", "");
  }
  let data = null;
  try { data = await r.json(); } catch (_) { data = null; }
  if (!r.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(r.status, err.code, err.message);
  }
  return data;
}

// The referee's console: /tablet/{table_id}
//
// One entry, one stroke: "Enter stroke" sends the stroke once (its id) and locks the form until
// the hub answers; a second tap of a double tap finds the form locked, or a fresh untouched form
// that ignores it. Offline, entries are kept on the tablet (live.js) and sent in order when the
// link is back; a stroke entered without knowing whose turn it is names no player, and the hub
// takes it for the player at the table. The hub judges; the page only shows its verdicts.
//
// The end of a match stays on screen: "Match over" with both players and the final score, an
// Undo that reopens it, and "Next match"; the next match the hub has called to the table is shown
// only once the referee taps it (kept in localStorage, so a reload keeps the finished match too).
// After the event's last match it says the event is over. A draw match is named by its round as
// the bracket names it ("Final · W3-1"). A result the desk decided (entered by hand, a withdrawal's
// forfeit) is undone only at the desk: the tablet says so instead of offering its Undo.
// A match scored rack by rack (`options.scoring: "racks"`) has no stroke form: "who won the rack"
// buttons (the win type first where the discipline has several, who pays where it names a payer),
// the same on a player's phone paired to the table (a phone is just another tablet of its table).
// A match that leaves the table (moved, back to the queue, cancelled, a withdrawal: the socket's
// `match_left`) is said in plain words ("W1-7 moved to Table 3") and the table's current state
// follows; nothing is offered for a match that is not on this table.
import { t, tc, onLangChange, applyI18n, inParens } from "./i18n.js";
import { TableSession, remainingMs, serverNow, getJSON, HttpError } from "./live.js";
import {
  el, fill, pathId, header, setConn, playerName, scoreline, ball, bihText, paintShotClock, memberDue,
  confirmDialog, lastText, statusText, resultText, clockText, isolated, playerNames, matchNames, drawText,
} from "./ui.js";
import { newForm, formFromShot, openQuestion, toCommand, strokeFormNodes, calledFouls } from "./stroke_form.js";
import { entryText, verdictOf, verdictLine, rejectText } from "./entries.js";
import { traitsOf, matchTraits, racksScored } from "./disciplines.js";
import { startMembers, memberOrderRows } from "./tablet-doubles.js";

const tableId = pathId();
const TOKEN_KEY = `cuehub.token.${tableId}`;
const TABLE_KEY = `cuehub.table.${tableId}`;
const LOG_KEY = `cuehub.log.${tableId}`;
const OVER_KEY = `cuehub.over.${tableId}`;
const DISMISSED_KEY = `cuehub.over-seen.${tableId}`;
const DOUBLE_TAP_MS = 1000; // an untouched form ignores "Enter stroke" this long after an entry
const LINK_GRACE_MS = 3000; // the hub pauses the shot clock of a table it has not heard for this long

let session = null;
let match = null;
let conn = "connecting";
let offlineSince = null; // local ms the link was lost
let form = null; // the stroke being entered
let formKey = ""; // the situation the form was made for
let lock = null; // {id}: the entry in flight; the form waits for its answer
let lastEntryAt = 0;
let flow = { held: 0, waiting: null };
let restoreForm = null; // {version, data}: an undone stroke comes back on the form
const sentForms = new Map(); // command id -> {form, key}: a refused stroke comes back for correction
const undoTargets = new Map(); // undo command id -> the event it names
let lastLinkLost = null;
let lastSeenVersion = null;
let over = null; // the finished match kept on screen until "Next match" is tapped
let dismissed = null; // the id of the finished match the referee has moved on from
let undoneHere = null; // the match this tablet's own Undo reopens (not said as reopened at the desk)
const leftIds = new Set(); // matches a `match_left` was said for
const shownIds = new Set(); // matches this tablet has shown as the one to play (a match_left of another is only logged)
let left = null; // {what, to} of the match that last left this table, said until the next one starts
const drawNames = new Map(); // tournament id -> matchNames() of it (its draw names the rounds), once read
const eventOver = new Map(); // tournament id -> true once its draw is finished; false while asked
let tableInfo = null; // {name, tournament_name} of this table, kept from the last visit
try { tableInfo = JSON.parse(localStorage.getItem(TABLE_KEY) || "null"); } catch (_) { tableInfo = null; }
try { over = JSON.parse(localStorage.getItem(OVER_KEY) || "null"); } catch (_) { over = null; }
try { dismissed = localStorage.getItem(DISMISSED_KEY); } catch (_) { dismissed = null; }

function keepOver(m) {
  over = m;
  try {
    if (m) localStorage.setItem(OVER_KEY, JSON.stringify(m));
    else localStorage.removeItem(OVER_KEY);
  } catch (_) { /* the screen still has it */ }
}

/** `text` as nodes with every name it may carry (the players of `matches`, this table's and its
 * tournament's) in a <bdi>: a right-to-left or mixed name never reorders the words around it. */
function named(text, ...matches) {
  const ms = matches.length ? matches : [match, over];
  return isolated(text, ms.map(playerNames), tableInfo && tableInfo.name, tableInfo && tableInfo.tournament_name,
    leftNames(left));
}

/** The names a "left the table" text may carry: the match's players, the table it went to. */
function leftNames(l) {
  if (!l) return [];
  return [...(l.what || "").split(" – "), ...(l.names || "").split(" – "), l.to && l.to.name].filter(Boolean);
}

// ------------------------------------------------------------------ the log (kept on the tablet)
let log = [];
try { log = JSON.parse(localStorage.getItem(LOG_KEY) || "[]"); } catch (_) { log = []; }

function saveLog() {
  log.length = Math.min(log.length, 40);
  try { localStorage.setItem(LOG_KEY, JSON.stringify(log)); } catch (_) { /* full: the screen still shows it */ }
}

function logEntry(entry) {
  log.unshift({ at: Date.now(), names: [...playerNames(match), ...playerNames(over)], ...entry });
  saveLog();
  paintLog();
}

function logUpdate(id, changes) {
  const e = log.find((x) => x.id === id);
  if (e) { Object.assign(e, changes); saveLog(); paintLog(); }
  return e;
}

function paintLog() {
  const ul = document.getElementById("log");
  fill(ul, log.map((e) => el("li", { class: `${e.kind || "info"} ${e.foul ? "foul" : ""}`, dataset: { id: e.id || "" } },
    el("span", { class: "time muted", text: new Date(e.at).toLocaleTimeString() }), " ",
    el("span", { class: "what" }, logNamed(e.text, e)),
    e.status ? el("span", { class: "status" }, logNamed(` — ${statusLabel(e)}`, e)) : null,
    e.verdict ? el("div", { class: "verdict-line" }, logNamed(e.verdict, e)) : null)));
}

/** A log line's text, the names it was written with (kept with it) isolated. */
function logNamed(text, e) {
  return isolated(text, e.names || [], tableInfo && tableInfo.name);
}

function statusLabel(e) {
  if (e.status === "stored") return `${t("accepted")}${inParens(`#${e.version}`)}`;
  if (e.status === "refused") return `${t("rejected")}: ${e.detail || ""}`;
  if (e.status === "removed") return t("removed_unsent");
  if (e.status === "sending") return t("sending");
  return t("queued");
}

// ------------------------------------------------------------------ token
function takeTokenFromUrl() {
  const url = new URL(location.href);
  let token = url.searchParams.get("token");
  const hash = new URLSearchParams(url.hash.replace(/^#/, ""));
  if (!token && hash.get("token")) token = hash.get("token");
  if (token) {
    localStorage.setItem(TOKEN_KEY, token);
    url.searchParams.delete("token");
    hash.delete("token");
    const h = hash.toString();
    history.replaceState(null, "", url.pathname + url.search + (h ? `#${h}` : ""));
  }
  return localStorage.getItem(TOKEN_KEY);
}

// ------------------------------------------------------------------ layout
header("tablet_title", [el("span", { class: "badge queue hidden", id: "queue-count" }),
  el("span", { class: "tablename", id: "table-name" })]);
const app = document.getElementById("app");

const notFoundPanel = el("section", { class: "card notfound hidden", id: "not-found" });
const tokenPanel = el("section", { class: "card token hidden", id: "token-panel" },
  el("h2", { "data-i18n": "token_prompt" }),
  el("p", { class: "muted", "data-i18n": "token_help" }),
  el("p", { class: "err hidden", id: "token-error", "data-i18n": "token_bad" }),
  el("form", { id: "token-form", onsubmit: (e) => { e.preventDefault(); saveToken(); } },
    el("input", { id: "token-input", type: "password", autocomplete: "off", required: true, "data-i18n-placeholder": "token_prompt" }),
    el("button", { class: "btn primary", type: "submit", id: "token-save", "data-i18n": "token_save" })));

const statePanel = el("section", { class: "card state", id: "state" });
const clockBox = el("div", { class: "clockbox" },
  el("div", { class: "shotclock big", id: "shot-clock" }),
  el("div", { class: "muted small", id: "clock-note" }),
  el("div", { class: "muted small", id: "match-clock" }));
const rejectBanner = el("div", { class: "reject hidden", id: "reject", role: "alert" });
const linkBanner = el("div", { class: "linkbanner hidden", id: "link-banner", role: "status" });
const heldPanel = el("div", { class: "held hidden", id: "held", role: "alert" });
const verdictBanner = el("div", { class: "verdict hidden", id: "verdict", role: "status" });
const startPanel = el("section", { class: "card hidden", id: "start" });
const overPanel = el("section", { class: "card over hidden", id: "over", role: "status" });
const leftBanner = el("div", { class: "leftbanner hidden", id: "left-banner", role: "alert" });
const pendingPanel = el("section", { class: "card pending hidden", id: "pending" });
const racksPanel = el("section", { class: "card racks hidden", id: "racks" });
const strokePanel = el("section", { class: "card stroke hidden", id: "stroke" });
const actionsPanel = el("section", { class: "card actions hidden", id: "actions" });
const logPanel = el("section", { class: "card log", id: "log-panel" },
  el("h3", { class: "section-title", "data-i18n": "log" }), el("ul", { id: "log" }));

// Two columns on a landscape tablet (tablet.css): the entry (reject, start, decision, stroke)
// on one side, verdict/projection/clock/actions/log on the other, so the stroke fits one screen.
// On narrow or portrait screens the wrappers dissolve (display: contents) into one column.
const cols = el("div", { class: "cols" },
  el("div", { class: "entry" }, leftBanner, rejectBanner, heldPanel, overPanel, startPanel, pendingPanel, racksPanel, strokePanel),
  el("div", { class: "side" }, linkBanner, verdictBanner, el("div", { class: "top" }, statePanel, clockBox), actionsPanel, logPanel));
app.append(notFoundPanel, tokenPanel, cols);
applyI18n(document);
paintLog();

function saveToken() {
  const v = /** @type {HTMLInputElement} */ (document.getElementById("token-input")).value.trim();
  if (!v) return;
  localStorage.setItem(TOKEN_KEY, v);
  tokenPanel.classList.add("hidden");
  connect(v);
}

function askToken(bad) {
  tokenPanel.classList.remove("hidden");
  document.getElementById("token-error").classList.toggle("hidden", !bad);
  setConn("auth");
  document.getElementById("token-input").focus();
}

// ------------------------------------------------------------------ the table (name, not found)

function paintTableName() {
  const names = tableInfo ? [tableInfo.name, tableInfo.tournament_name].filter(Boolean) : [];
  fill(document.getElementById("table-name"), names.map((n, i) => [i ? " · " : "", el("bdi", { text: n })]));
  document.title = `${tableInfo && tableInfo.name ? `${tableInfo.name} · ` : ""}${t("tablet_title")} · cuehub`;
}

async function loadTable() {
  try {
    tableInfo = await getJSON(`/api/tables/${encodeURIComponent(tableId)}`);
    localStorage.setItem(TABLE_KEY, JSON.stringify({ name: tableInfo.name, tournament_name: tableInfo.tournament_name }));
  } catch (e) {
    if (e instanceof HttpError && e.status === 404) return false;
    // No link: the name kept from the last visit will do.
  }
  paintTableName();
  return true;
}

function showNotFound() {
  cols.classList.add("hidden");
  tokenPanel.classList.add("hidden");
  fill(notFoundPanel, el("h2", { text: t("not_found") }), el("p", { text: t("no_such_table", { id: tableId }) }));
  notFoundPanel.classList.remove("hidden");
  setConn("not-found");
  document.body.dataset.conn = "not-found";
}

// ------------------------------------------------------------------ session
function connect(token) {
  if (session) session.close();
  session = new TableSession(tableId, token, {
    onStatus: onStatus,
    onReady: (m) => { setMatch(m, { ready: true }); },
    onState: (m) => { setMatch(m); },
    onLeft: onLeft,
    onSent: (env) => { if (logUpdate(env.id, { status: "sending" })) paintQueue(); },
    onAck: onAck,
    onReject: onReject,
    onAuthFailed: () => { localStorage.removeItem(TOKEN_KEY); askToken(true); },
    onQueue: paintQueue,
    onFlow: (f) => { flow = f; render(); },
  });
  match = session.match; // the last match seen, until the hub sends it again
  paintQueue();
  render();
}

function onStatus(s) {
  conn = s;
  setConn(s);
  document.body.dataset.conn = s;
  if (s === "live") offlineSince = null;
  else if (offlineSince === null && s === "offline") offlineSince = Date.now();
  if (s !== "live" && lock) {
    // The link went while an entry was on its way: it stays queued (sent again, same id, when the
    // link is back) and the form is free for the next stroke.
    logUpdate(lock.id, { status: "queued" });
    lock = null;
    const ctx = formContext();
    form = ctx ? newForm(ctx) : null;
  }
  render();
}

function onAck(env, msg) {
  sentForms.delete(env.id);
  if (lock && lock.id === env.id) {
    lock = null;
    const ctx = formContext();
    form = ctx ? newForm(ctx) : null; // a fresh form: the stroke just stored is not on it any more
  }
  const entry = logUpdate(env.id, { status: "stored", version: msg.version, kind: "ok" });
  if (!entry) logEntry({ id: env.id, text: entryText(env.command, match), status: "stored", version: msg.version, kind: "ok" });
  const target = undoTargets.get(env.id);
  undoTargets.delete(env.id);
  if (target && target.kind === "shot") restoreForm = { version: msg.version, data: target.data };
  verdictFor(msg.version);
  render();
}

function onReject(env, msg) {
  const undone = [over, match].find((m) => m && m.id === env.match_id);
  const deskOnly = env.command && env.command.kind === "undo" && msg.error && msg.error.code === "not_allowed" && deskDecided(undone);
  const text = deskOnly ? t("tl_desk_only") : rejectText(msg.error, match);
  if (lock && lock.id === env.id) lock = null;
  undoTargets.delete(env.id);
  showReject(`${entryText(env.command, match)} — ${t("rejected")}: ${text}`);
  if (!logUpdate(env.id, { status: "refused", detail: text, kind: "err" })) {
    logEntry({ id: env.id, text: entryText(env.command, match), status: "refused", detail: text, kind: "err" });
  }
  const saved = sentForms.get(env.id);
  sentForms.delete(env.id);
  if (saved && saved.key === formKey) form = saved.form; // back on the form for correction
  if (form) form.asking = false;
  render();
}

function paintQueue() {
  const n = session ? session.queue().length : 0;
  const q = document.getElementById("queue-count");
  q.textContent = t("queued_n", { n });
  q.classList.toggle("hidden", !n);
}

function showReject(text) {
  fill(rejectBanner, named(text));
  rejectBanner.classList.remove("hidden");
}
function clearReject() { rejectBanner.classList.add("hidden"); }

/** Queue a command and log it; returns the envelope. */
function queueCommand(command, { front = false, expectedVersion = null, matchId = null } = {}) {
  clearReject();
  const online = session.ready && !session.queue().length;
  const env = session.send(command, { front, expectedVersion, matchId });
  logEntry({ id: env.id, text: entryText(command, match), status: online ? "sending" : "queued", kind: "info" });
  paintQueue();
  return env;
}

/** The same after an in-page confirmation, when there is a question; the envelope or null.
 * @param {object} command
 * @param {{confirmText?: string | null, front?: boolean, expectedVersion?: number | null, matchId?: string | null}} [options] */
async function send(command, { confirmText = null, ...opts } = {}) {
  if (confirmText && !(await confirmDialog(named(confirmText)))) return null;
  return queueCommand(command, opts);
}

/** Commands bound to the turn name their player only when the tablet knows whose turn it is. */
function knowsTheTurn() {
  return !!(session && session.ready && !session.queue().length && match && match.status === "live");
}

// ------------------------------------------------------------------ match
/** A state for the table. A match not on this table (moved away) is not shown; a finished match
 * that is not the one on screen (corrected at the desk after the table moved on) only updates the
 * "Match over" it may be showing. */
function setMatch(m, { ready = false } = {}) {
  const prev = match;
  if (m && m.table_id && m.table_id !== tableId) {
    if (match && match.id === m.id) match = null;
    if (over && over.id === m.id) keepOver(null);
    render();
    return;
  }
  if (m && m.status === "finished") {
    if (over && over.id === m.id) keepOver(m);
    else if (!match || match.id === m.id || match.status === "finished") {
      if (m.id !== dismissed) keepOver(m); // the match on screen has just ended (or the table's last one, at ready)
    } else { render(); return; } // an older match of this table: what is on screen stays
  } else if (m) {
    if (over && over.id === m.id) { // reopened (an undo here or at the desk): play on
      if (undoneHere !== m.id) reopenedAt(m);
      undoneHere = null;
      keepOver(null);
    } else if (over && m.status === "live") keepOver(null); // the next match began (another tablet): move on
    if (m.status === "live" && !(left && left.reopened && left.id === m.id && m.version <= left.version)) left = null;
  } // m null: nothing on the table now; a finished match on screen stays there until "Next match"
  if (ready && prev && m && prev.id !== m.id && prev.status === "live" && !over) checkEnded(prev.id);
  // A match not started that gives way to another (or to none) left the table; `match_left` says
  // where it went, and a hub that sends none is asked (the tablet says it either way).
  if (prev && prev.status === "scheduled" && (!m || m.id !== prev.id) && shownIds.has(prev.id) && !over) wentAway(prev);
  match = m;
  noteServerEvents(prev, m);
  if (m && restoreForm && m.version >= restoreForm.version) {
    const ctx = formContext();
    const data = restoreForm.data;
    restoreForm = null;
    if (ctx && m.rack && m.rack.shooter === data.player) {
      formKey = situationKey(m);
      form = formFromShot(data, ctx);
    }
  }
  render();
}

/** The link came back with another match on the table than the live one on screen: if that one
 * finished meanwhile (its last strokes sent from here while offline), it is shown as over. */
async function checkEnded(mid) {
  try {
    const m = await getJSON(`/api/matches/${encodeURIComponent(mid)}`);
    if (m && m.status === "finished" && m.table_id === tableId && !over && mid !== dismissed) { keepOver(m); render(); }
  } catch (_) { /* gone (cancelled) or no link: nothing to show */ }
}

/** What a match is, in words: its draw key, else its players. */
function matchLabel(m) {
  if (!m) return "";
  if (m.draw && m.draw.key) return m.draw.key;
  return (m.players || []).map((p) => p.name).join(" – ");
}

async function wentAway(prev) {
  const said = { id: prev.id, what: matchLabel(prev), names: prev.draw ? (prev.players || []).map((p) => p.name).join(" – ") : "", to: null };
  left = said;
  try {
    const m = await getJSON(`/api/matches/${encodeURIComponent(prev.id)}`);
    if (m && m.table_id && m.table_id !== tableId && left === said) {
      const tb = await getJSON(`/api/tables/${encodeURIComponent(m.table_id)}`).catch(() => null);
      if (left === said) left = { ...said, to: { table_id: m.table_id, name: tb ? tb.name : m.table_id } };
    }
  } catch (_) { /* cancelled (gone) or no link: "no longer on this table" says it */ }
  if (left && left.id === said.id && !left.logged) {
    left.logged = true;
    logEntry({ text: leftText(left), names: leftNames(left), kind: "info" });
  }
  render();
}

function onLeft(msg, dropped) {
  const gone = [match, over, session && session.match].find((x) => x && x.id === msg.match_id) || null;
  if (!gone && !(dropped && dropped.length) && leftIds.has(msg.match_id)) return; // said already
  leftIds.add(msg.match_id);
  const before = left && left.id === msg.match_id ? left : null; // said already, from the state that came first
  const said = {
    id: msg.match_id,
    what: gone ? matchLabel(gone) : before ? before.what : "",
    names: gone && gone.draw ? (gone.players || []).map((p) => p.name).join(" – ") : before ? before.names : "",
    to: msg.to || null,
  };
  // A match the referee never had in front of it (called while "Match over" was up) goes quietly.
  if (shownIds.has(msg.match_id) || (left && left.id === msg.match_id)) left = said;
  if (over && over.id === msg.match_id) keepOver(null);
  if (match && match.id === msg.match_id) match = null;
  if (lock) lock = null;
  for (const env of dropped || []) logUpdate(env.id, { status: "removed", kind: "info" });
  if (!(before && before.logged && leftText(before) === leftText(said))) logEntry({ text: leftText(said), names: leftNames(said), kind: "info" });
  said.logged = true;
  paintQueue();
  render();
}

/** The finished match on screen came back (the desk reopened it, or corrected it on another
 * tablet): said like a match that left, until the next entry. */
function reopenedAt(m) {
  left = { id: m.id, what: matchLabel(m), names: "", to: null, reopened: true, version: m.version, logged: false };
  logEntry({ text: leftText(left), names: leftNames(left), kind: "info" });
  left.logged = true;
}

function leftText(l = left) {
  if (!l) return "";
  const what = l.what || t("tl_that_match");
  if (l.reopened) return t("tl_reopened", { what });
  if (l.to) return t("tl_moved_to", { what, table: l.to.name || l.to.table_id });
  return t("tl_left", { what });
}

function renderLeft() {
  leftBanner.classList.toggle("hidden", !left);
  if (!left) return;
  fill(leftBanner,
    el("strong", { id: "left-text" }, named(leftText())),
    left.names ? el("span", { class: "left-names" }, named(inParens(left.names))) : null,
    left.reopened ? null : el("div", { class: "muted small", id: "left-now" }, named(match ? t("tl_now_here", { what: matchLabel(match) }) : t("tl_nothing_here"))),
    el("button", { type: "button", class: "btn small", id: "left-ok", text: t("tl_ok"), onclick: () => { left = null; render(); } }));
}

/** "Final · W3-1": a draw match's round as the bracket names it, once the tournament's draw is read
 * (the key alone until then); "" for a match outside a draw. */
function roundText(m) {
  if (!m || !m.draw || !m.tournament_id) return "";
  const tid = m.tournament_id;
  if (!drawNames.has(tid)) {
    drawNames.set(tid, null);
    matchNames(m).then((n) => { drawNames.set(tid, n); render(); });
  }
  return drawText(m, drawNames.get(tid));
}

/** A result the desk decided: entered by hand, or the forfeit of a player withdrawn from the event.
 * Only the desk undoes it (PROTOCOL.md section 9): the tablet's Undo would be refused. */
function deskDecided(m) {
  const res = (m && m.status === "finished" && m.result) || null;
  return !!(res && (res.entered || (res.withdrawn || []).length));
}

/** After a draw match with nothing called next: was it the event's last? Asked of the hub until its
 * draw says finished (the result reaches the draw a moment after the match ends), a few times. */
function checkEventOver(m, tries = 8) {
  const tid = m && m.draw && m.tournament_id;
  if (!tid || eventOver.get(tid) !== undefined) return;
  eventOver.set(tid, false);
  getJSON(`/api/tournaments/${encodeURIComponent(tid)}?matches_limit=1`).then((tr) => {
    if (tr && tr.draw && tr.draw.status === "finished") { eventOver.set(tid, true); render(); return; }
    throw new Error("not yet");
  }).catch(() => {
    if (tries <= 1) return;
    setTimeout(() => { eventOver.delete(tid); if (over && over.id === m.id) checkEventOver(m, tries - 1); }, 2000);
  });
}

/** What comes next on this table after `m`: the match called next, the event's end, or nothing yet. */
function nextText(m, next) {
  if (next) return t("tl_next_is", { what: matchLabel(next), names: next.players.map((p) => p.name).join(" – ") });
  if (m && m.draw && m.tournament_id) {
    checkEventOver(m);
    if (eventOver.get(m.tournament_id)) return t("tl_event_over");
  }
  return t("tl_no_next");
}

/** The finished match: both players, the final score, how it ended; Undo reopens it; the next
 * match waits for "Next match". */
function renderOver() {
  overPanel.classList.toggle("hidden", !over);
  if (!over) return;
  const next = match && match.id !== over.id && match.status !== "finished" ? match : null;
  const final = (over.players || []).map((p) => String(p.score ?? 0)).join(" : ");
  const entered = over.result && over.result.entered;
  const deskOnly = deskDecided(over);
  const round = roundText(over);
  fill(overPanel,
    el("h2", { class: "over-title", id: "over-title", text: t("p_over") }),
    round ? el("p", { class: "over-round", id: "over-round" }, named(round, over)) : null,
    el("div", { class: "over-score", id: "over-score" },
      (over.players || []).map((p, i) => [i ? el("span", { class: "over-sep", text: ":" }) : null,
        el("div", { class: `over-player${over.winner === p.id ? " won" : ""}`, dataset: { player: p.id } },
          // the winner's star beside the name, outside its isolation
          el("span", { class: "over-name" }, over.winner === p.id ? el("span", { class: "nm-mark", "aria-hidden": "true", text: "★" }) : null,
            el("bdi", { class: "name", text: p.name })),
          el("span", { class: "score", text: String(p.score ?? 0) }))])),
    el("p", { class: "over-result", id: "over-result" }, named(resultText(over) || final, over)),
    entered ? el("p", { class: "muted small", id: "over-entered", text: t("tl_entered") }) : null,
    deskOnly ? el("p", { class: "muted small", id: "over-desk-only", text: t("tl_desk_only") }) : null,
    el("div", { class: "btnrow" },
      el("button", { type: "button", class: "btn danger", id: "over-undo", text: t("undo"), onclick: undoClicked, disabled: deskOnly }),
      el("button", { type: "button", class: "btn primary big", id: "next-match", text: t("tl_next_match"), onclick: nextMatch })),
    el("p", { class: "muted small", id: "over-next" }, named(nextText(over, next), next)));
}

function nextMatch() {
  if (!over) return;
  dismissed = over.id;
  try { localStorage.setItem(DISMISSED_KEY, dismissed); } catch (_) { /* memory will do */ }
  keepOver(null);
  clearReject();
  render();
}

/** Clock expiries and link changes are not the referee's entries: the log names them too. */
function noteServerEvents(prev, m) {
  if (!m) return;
  const last = m.last;
  if (prev && prev.id === m.id && last && last.kind === "clock_expired" && last.version !== (prev.last || {}).version
      && last.version !== lastSeenVersion) {
    logEntry({ id: `v${last.version}`, text: `${tc("k", "clock_expired")} · ${playerName(m, last.player)}`,
      verdict: verdictLine(verdictOf(m)), kind: "err", foul: true });
  }
  lastSeenVersion = last ? last.version : null;
  const lost = !!(m.link && m.link.lost);
  if (lastLinkLost !== null && lost !== lastLinkLost && prev && prev.id === m.id) {
    logEntry({ text: lost ? t("log_link_lost") : t("log_link_back"), kind: "info" });
  }
  lastLinkLost = lost;
  // A stored entry's verdict, as soon as the projection of its version is here.
  for (const e of log) if (e.status === "stored" && !e.verdict && e.version) verdictFor(e.version);
}

function verdictFor(version) {
  if (!match || !match.last || match.last.version !== version) return;
  const e = log.find((x) => x.status === "stored" && x.version === version);
  if (!e || e.verdict) return;
  const v = verdictOf(match);
  e.verdict = verdictLine(v);
  e.foul = v.foul;
  if (v.foul) e.kind = "err";
  saveLog();
  paintLog();
}

function queuedStrokes() {
  return session ? session.queue().filter((e) => e.command && e.command.kind === "shot") : [];
}

/** What the stroke form is for. With strokes not yet judged, the tablet does not know the turn,
 * the phase or the balls the rules put back: it shows the balls not entered as gone (all of them
 * once the win ball went down: a new rack may have begun) and lets the referee say "break". */
function formContext() {
  const m = match;
  if (!m || !m.rack) return null;
  const r = m.rack;
  const pending = queuedStrokes();
  const shooter = m.players.find((p) => p.id === r.shooter);
  const ctx = { discipline: m.discipline, phase: r.phase, phaseKnown: true, onTable: r.on_table || [],
    pushOutAllowed: r.push_out_allowed, group: shooter ? shooter.group : null, doubles: !!m.doubles };
  if (!pending.length) return ctx;
  const gone = new Set(pending.flatMap((e) => [...(e.command.pocketed || []), ...(e.command.off_table || [])]));
  const traits = matchTraits(m);
  ctx.onTable = gone.has(traits.win_ball) ? [...traits.balls] : ctx.onTable.filter((n) => !gone.has(n));
  ctx.phase = "play";
  ctx.phaseKnown = false;
  ctx.pushOutAllowed = false;
  ctx.group = null;
  return ctx;
}

function situationKey(m) {
  const r = (m && m.rack) || {};
  return m ? JSON.stringify([m.id, m.status, r.number, r.phase, r.shooter, r.on_table, r.pending, r.ball_in_hand,
    queuedStrokes().length]) : "";
}

function render() {
  if (!notFoundPanel.classList.contains("hidden")) return;
  const shown = over || match;
  document.body.dataset.version = shown && !lock ? String(shown.version) : "";
  document.body.dataset.over = over ? over.id : "";
  if (!over && match && match.status !== "finished") shownIds.add(match.id);
  const key = situationKey(match);
  if (key !== formKey && !lock) { const ctx = formContext(); form = ctx ? newForm(ctx) : null; formKey = key; }
  renderLink();
  renderLeft();
  renderOver();
  renderVerdict();
  renderState();
  if (over) {
    // Nothing of the next match before "Next match": its start, choices and strokes wait.
    for (const p of [startPanel, pendingPanel, racksPanel, strokePanel, actionsPanel]) p.classList.add("hidden");
  } else {
    renderStart();
    renderPending();
    renderRacks();
    renderStroke();
    renderActions();
  }
  renderHeld();
  tick();
}

function renderLink() {
  const offline = conn !== "live" && session && !session.closed;
  linkBanner.classList.toggle("hidden", !offline);
  if (!offline) return;
  const n = session.queue().length;
  const clock = match && match.clock && match.clock.shot;
  fill(linkBanner,
    el("strong", { text: t("offline_title") }), " ", t("offline_body"),
    n ? el("div", { text: t("offline_unsent", { n }) }) : null,
    clock && match.status === "live" ? el("div", { text: t("offline_clock") }) : null);
}

function renderVerdict() {
  const m = over || match;
  const v = verdictOf(m);
  const show = !!(v && m.last && !["start", "lag", "pause", "resume", "timeout"].includes(m.last.kind));
  verdictBanner.classList.toggle("hidden", !show);
  if (!show) return;
  verdictBanner.className = `verdict ${v.foul ? "foul" : "ok"}`;
  const canUndo = m.version > 0 && session && session.ready && !over;
  fill(verdictBanner,
    el("div", { class: "v-head" },
      el("span", { class: "v-title", id: "verdict-title" }, named(v.headline, m)),
      v.by ? el("span", { class: "v-by" }, `${tc("k", m.last.kind)} · `, el("bdi", { text: v.by })) : null),
    v.next ? el("div", { class: "v-next", id: "verdict-next" }, named(v.next, m)) : null,
    v.notes.length ? el("div", { class: "v-notes" }, named(v.notes.join(" · "), m)) : null,
    v.foul && canUndo ? el("button", { type: "button", class: "btn danger", id: "verdict-undo", text: t("undo_this"), onclick: undoClicked }) : null);
}

function renderState() {
  const m = over || (matchShown() ? match : null);
  if (!m) {
    fill(statePanel,
      tableInfo && tableInfo.name ? el("bdi", { class: "tablecard", text: tableInfo.name }) : null,
      el("p", { class: "muted", id: "no-match", text: conn !== "live" ? t("loading") : lastWasFinal() ? t("tl_event_over")
        : t(dismissed ? "tl_waiting_next" : "no_match") }));
    return;
  }
  const r = m.rack || {};
  const info = [];
  info.push(el("span", { class: "badge", id: "phase", text: statusText(m) }));
  if (r.number) info.push(el("span", { class: "badge", text: t("rack_n", { n: r.number }) }));
  if (r.ball_in_hand) info.push(el("span", { class: "badge bih", id: "bih", text: bihText(r) }));
  if (matchTraits(m).groups && r.table_open && m.status === "live") info.push(el("span", { class: "badge", text: t("table_open") }));
  if (isPaused()) info.push(el("span", { class: "badge foul", id: "paused", text: t("paused") }));
  const res = resultText(m);
  fill(statePanel,
    el("div", { class: "disc muted" },
      tableInfo && tableInfo.name ? [el("bdi", { class: "tablecard" }, el("strong", { text: tableInfo.name })), " · "] : null,
      `${tc("d", m.discipline)}`),
    roundText(m) ? el("div", { class: "round muted", id: "round-name" }, named(roundText(m), m)) : null,
    scoreline(m),
    el("div", { class: "info" }, info),
    r.on_table && m.status !== "finished" && !racksScored(m) ? el("div", { class: "ontable" }, el("span", { class: "muted", text: t("balls_on_table") + " " }),
      el("span", { class: "balls" }, r.on_table.map((n) => ball(n)))) : null,
    res ? el("div", { class: "result" }, named(res, m)) : null,
    el("div", { class: "last muted", id: "last" }, named(lastText(m), m)));
}

/** The match the referee moved on from was the event's last (its draw is finished). */
function lastWasFinal() {
  const m = match && match.id === dismissed ? match : null;
  if (!m || !m.draw || !m.tournament_id) return false;
  checkEventOver(m);
  return eventOver.get(m.tournament_id) === true;
}

/** The current match is shown unless it is the finished one the referee moved on from. */
function matchShown() {
  return !!match && !(match.status === "finished" && match.id === dismissed);
}

function isPaused() {
  if (!match) return false;
  if (typeof match.paused === "boolean") return match.paused;
  const c = match.clock || {};
  const phase = match.rack && match.rack.phase;
  return !!(c.shot && c.shot.running === false && (phase === "break" || phase === "play"));
}

function renderStart() {
  const show = match && match.rack && match.rack.phase === "lag" && !queuedStrokes().length;
  startPanel.classList.toggle("hidden", !show);
  if (!show) return;
  const ps = match.players;
  const kids = [el("h3", { class: "section-title", text: t("start_match") })];
  // chosen before the break or the lag is tapped; kept to the match's end (a later lag has none)
  if (match.doubles && match.status === "scheduled") kids.push(memberOrderRows(match, ps, named, render));
  if (match.status === "scheduled") {
    if (ps.length === 3) {
      const perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
      kids.push(el("div", { class: "btnrow" }, perms.map((pm) => {
        const order = pm.map((i) => ps[i].id);
        return el("button", { class: "btn", type: "button", dataset: { order: order.join(",") },
          onclick: () => send({ kind: "start", order }) }, named(t("order_label", { order: pm.map((i) => ps[i].name).join(" → ") })));
      })));
    } else {
      kids.push(el("div", { class: "btnrow" }, ps.map((p) => el("button", {
        class: "btn primary", type: "button", dataset: { breaker: p.id },
        onclick: () => send({ kind: "start", breaker: p.id, ...startMembers(match, ps) }) }, named(t("breaks_first", { name: p.name }))))));
    }
  }
  if (ps.length === 2) {
    kids.push(el("div", { class: "btnrow" }, ps.map((p) => el("button", {
      class: "btn", type: "button", dataset: { lag: p.id },
      onclick: () => send({ kind: "lag", winner: p.id, ...startMembers(match, ps) }) }, named(t("lag_won", { name: p.name }))))));
  }
  fill(startPanel, kids);
}

function renderPending() {
  const pend = match && match.rack && match.rack.pending;
  // The hub's choice, unless the referee has already answered it on this tablet (queued).
  const answered = session && session.queue().some((e) => e.command && e.command.kind === "decision");
  const show = !!pend && !answered;
  pendingPanel.classList.toggle("hidden", !show);
  if (!show) return;
  fill(pendingPanel,
    el("h3", { class: "section-title plain", id: "pending-title" }, named(t("decision_for", { name: playerName(match, pend.player) }))),
    flow.waiting === "decision" ? el("p", { class: "waiting", id: "pending-waiting", text: t("strokes_wait_for_choice", { n: session.queue().length }) }) : null,
    el("div", { class: "btnrow" }, (pend.options || []).map((o) => el("button", {
      class: "btn primary big", type: "button", dataset: { choice: o },
      onclick: () => send({ kind: "decision", player: pend.player, choice: o }, { front: flow.waiting === "decision" }) },
    named(choiceText(o, pend))))));
}

function renderHeld() {
  heldPanel.classList.toggle("hidden", !flow.held);
  if (!flow.held) return;
  fill(heldPanel,
    el("p", { text: t("held_body", { n: flow.held }) }),
    el("div", { class: "btnrow" },
      el("button", { type: "button", class: "btn primary", id: "held-send", text: t("held_send"), onclick: () => session.release() }),
      el("button", { type: "button", class: "btn danger", id: "held-discard", text: t("held_discard"), onclick: discardHeld })));
}

async function discardHeld() {
  if (!(await confirmDialog(t("confirm_discard_held", { n: flow.held })))) return;
  for (const env of session.discardHeld()) logUpdate(env.id, { status: "removed", kind: "info" });
  paintQueue();
  render();
}

/** A pending choice's label. "pass" names who shoots then: the player whose stroke made the
 * decision (push-out, snooker, loss of chance), when that is not the one choosing. */
function choiceText(o, pend) {
  const by = match.last && match.last.player;
  if (o === "pass" && by && by !== pend.player && match.players.some((p) => p.id === by)) {
    return t("o_pass_to", { name: playerName(match, by) });
  }
  return tc("o", o);
}

// ---- a rack reported won (a match scored rack by rack)
let rackPick = { key: "", winType: "normal", winner: null }; // the choice being made, for this version
let rackSent = null; // {version, at} of the last rack reported here: a double tap on the same state is dropped

function racksVisible() {
  const m = match;
  return !!(m && m.status === "live" && racksScored(m) && m.rack && ["break", "play"].includes(m.rack.phase) && !m.rack.pending);
}

function renderRacks() {
  const show = racksVisible();
  racksPanel.classList.toggle("hidden", !show);
  if (!show) return;
  const r = match.rack;
  const traits = matchTraits(match);
  const key = `${match.id}:${match.version}`;
  if (rackPick.key !== key) rackPick = { key, winType: "normal", winner: null };
  const busy = !!lock;
  const types = traits.win_types.length > 1 ? el("div", { class: "field" },
    el("span", { class: "label", text: t("rk_type") }),
    el("div", { class: "btnrow chips", id: "rack-types" }, traits.win_types.map((w) => el("button", {
      type: "button", class: `btn toggle${rackPick.winType === w ? " on" : ""}`, "aria-pressed": rackPick.winType === w ? "true" : "false",
      dataset: { winType: w }, text: tc("w", w), disabled: busy,
      onclick: () => { rackPick.winType = w; rackPick.winner = null; renderRacks(); } })))) : null;
  // a break and run is the rack's breaker's only (PROTOCOL.md section 17)
  const winners = el("div", { class: "btnrow winners" }, match.players.map((p) => el("button", {
    type: "button", class: `btn primary big${rackPick.winner === p.id ? " on" : ""}`, dataset: { winner: p.id },
    disabled: busy || (rackPick.winType === "big_gold" && p.id !== r.breaker),
    onclick: () => pickWinner(p.id) }, named(t("rk_won", { name: p.name })))));
  const payer = rackPick.winner && traits.rack_paid_by ? el("div", { class: "field", id: "rack-payer" },
    el("span", { class: "label" }, named(t("rk_pays", { name: playerName(match, rackPick.winner) }))),
    el("div", { class: "btnrow" },
      match.players.filter((p) => p.id !== rackPick.winner).map((p) => el("button", {
        type: "button", class: "btn primary big", dataset: { paidBy: p.id }, disabled: busy,
        onclick: () => sendRack(rackPick.winner, p.id) }, named(p.name))),
      el("button", { type: "button", class: "btn", id: "rack-payer-cancel", text: t("cancel"),
        onclick: () => { rackPick.winner = null; renderRacks(); } }))) : null;
  fill(racksPanel,
    el("h3", { class: "section-title plain", id: "racks-title", text: t("rk_title", { n: r.number }) }),
    types, winners, payer);
}

function pickWinner(pid) {
  if (matchTraits(match).rack_paid_by) { rackPick.winner = pid; renderRacks(); return; }
  sendRack(pid, null);
}

function sendRack(winner, paidBy) {
  // One report a rack: a second tap of a double tap finds the panel locked (online), or the same
  // match state a moment after the first (offline: the report waits in the queue).
  if (!racksVisible() || lock) return;
  if (rackSent && rackSent.version === match.version && Date.now() - rackSent.at < DOUBLE_TAP_MS) return;
  const cmd = { kind: "rack", winner };
  if (rackPick.winType !== "normal") cmd.win_type = rackPick.winType;
  if (paidBy) cmd.paid_by = paidBy;
  rackSent = { version: match.version, at: Date.now() };
  const online = session.ready && !session.queue().length;
  const env = queueCommand(cmd);
  if (online) lock = { id: env.id };
  rackPick = { key: "", winType: "normal", winner: null };
  render();
}

// ---- stroke entry
function strokeVisible() {
  if (!match || match.status !== "live" || !match.rack || racksScored(match)) return false;
  if (queuedStrokes().length) return true; // the turn is not known: the next stroke may still be entered
  return ["break", "play"].includes(match.rack.phase) && !!match.rack.shooter;
}

function renderStroke() {
  const show = strokeVisible() && form;
  strokePanel.classList.toggle("hidden", !show);
  if (!show) return;
  const ctx = formContext();
  const r = match.rack;
  const known = ctx.phaseKnown;
  const due = known ? memberDue(match) : null; // doubles: the member due, by name
  const title = known
    ? `${due ? t("stroke_for_member", { member: due.name, name: playerName(match, r.shooter) })
      : t("stroke_for", { name: playerName(match, r.shooter) })}${ctx.phase === "break" ? ` · ${t("p_break")}` : ""}`
    : t("stroke_unknown_turn");
  const note = known ? "" : t("stroke_unknown_note", { name: playerName(match, r.shooter) || "—" });
  strokePanel.classList.toggle("locked", !!lock);
  fill(strokePanel, strokeFormNodes({
    form, ctx, title: named(title), note: note ? named(note) : "", locked: !!lock, lockLabel: t("sending"),
    onChange: () => renderStroke(),
    onEnter: enterStroke,
    onClear: () => { form = newForm(ctx); renderStroke(); },
  }));
}

function enterStroke() {
  if (!strokeVisible() || lock || !form) return;
  const ctx = formContext();
  // A fresh form always has a question open (a fact whose default would decide): a tap asks it.
  if (openQuestion(form, ctx)) { form.asking = true; renderStroke(); return; }
  // The second tap of a double tap lands on the fresh form the first one left: never sent.
  if (!form.touched && Date.now() - lastEntryAt < DOUBLE_TAP_MS) return;
  const cmd = toCommand(form, ctx);
  cmd.entered_at = Math.round(serverNow());
  if (ctx.phaseKnown && knowsTheTurn()) cmd.player = match.rack.shooter;
  lastEntryAt = Date.now();
  const online = session.ready && !session.queue().length;
  const env = queueCommand(cmd);
  sentForms.set(env.id, { form, key: formKey });
  form.asking = false;
  if (online) lock = { id: env.id }; // the form shows "Sending…" until the hub answers
  else form = newForm(formContext());
  render();
}

// ---- undo: it names what it removes, and a stroke comes back on the form
const NEVER_UNDONE = new Set(["undo", "match_time_expired", "link_lost", "link_restored"]);

function latestUndoable(events) {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (!e.voided && !NEVER_UNDONE.has(e.kind)) return e;
  }
  return null;
}

async function undoClicked() {
  const unsent = session.lastUnsent();
  if (unsent) {
    // Not sent yet: it is taken off the tablet, and never reaches the hub.
    if (!(await confirmDialog(named(t("confirm_remove_unsent", { entry: entryText(unsent.command, match) }))))) return;
    if (session.discard(unsent.id)) {
      logUpdate(unsent.id, { status: "removed", kind: "info" });
      paintQueue();
      const key = situationKey(match);
      if (unsent.command.kind === "shot") {
        formKey = key;
        const ctx = formContext();
        form = formFromShot(unsent.command, ctx);
      }
      render();
    }
    return;
  }
  // On "Match over" the finished match is the one undone (it reopens; the hub takes the next match
  // called to this table back off it), not the next one.
  const subject = over || match;
  if (deskDecided(subject)) { showReject(t("tl_desk_only")); return; } // the desk's to undo, not a stroke's
  let target = null;
  let version = subject ? subject.version : null;
  if (session.ready && subject) {
    try {
      const { events } = await getJSON(`/api/matches/${encodeURIComponent(subject.id)}/events?since=0`);
      target = latestUndoable(events || []);
      version = events && events.length ? events[events.length - 1].version : 0;
    } catch (_) { /* named from the projection below */ }
  }
  let text;
  if (target) text = t("confirm_undo_entry", { n: target.version, entry: entryText({ kind: target.kind, ...target.data }, subject) });
  else if (session.ready) text = t("confirm_undo_nothing");
  else text = t("confirm_undo_offline", { entry: lastText(subject) || "—" });
  undoneHere = subject ? subject.id : null;
  const env = await send({ kind: "undo" }, { confirmText: text, expectedVersion: version, matchId: subject ? subject.id : null });
  if (!env) undoneHere = null;
  if (env && target) undoTargets.set(env.id, target);
}

// ---- actions
function renderActions() {
  const show = !!match;
  actionsPanel.classList.toggle("hidden", !show);
  if (!show) return;
  const r = match.rack || {};
  const d = match.discipline;
  const traits = traitsOf(d);
  const turn = r.shooter || (r.pending && r.pending.player) || null;
  const live = match.status === "live";
  const shooterP = match.players.find((p) => p.id === r.shooter);
  const paused = isPaused();
  const known = knowsTheTurn();
  const judged = !racksScored(match); // strokes, fouls, stalemates and the shot clock: a judged match's

  const playerSel = el("select", { id: "act-player" }, match.players.map((p) =>
    el("option", { value: p.id, text: p.name, selected: p.id === turn })));
  const penaltySel = el("select", { id: "act-penalty" }, traits.penalty_types.map((p) => el("option", { value: p, text: tc("pen", p) })));
  // a called foul with no stroke: never weak_break (judged on the break stroke itself: RULES.md "Also settled")
  const foulSel = el("select", { id: "act-foul" }, calledFouls(d, false, !!match.doubles).map((c) => el("option", { value: c, text: tc("f", c) })));
  const sel = () => playerSel.value;
  const btn = (id, label, onclick, opts = {}) => el("button", { type: "button", class: `btn ${opts.cls || ""}`, id, text: label, disabled: !!opts.disabled, onclick });
  const turnPlayer = () => (known ? r.shooter : undefined);

  fill(actionsPanel,
    el("h3", { class: "section-title", text: t("actions") }),
    el("div", { class: "btnrow" },
      !judged ? null : btn("act-extension", `${t("extension")}${shooterP && shooterP.extensions_left !== undefined ? inParens(shooterP.extensions_left) : ""}`,
        () => send({ kind: "extension", player: turnPlayer(), entered_at: Math.round(serverNow()) }),
        { disabled: !live || (known && (!r.shooter || r.phase !== "play" || (shooterP && shooterP.extensions_left === 0))) || !(match.clock && match.clock.shot) }),
      paused
        ? btn("act-resume", t("resume"), () => send({ kind: "resume" }), { cls: "primary", disabled: !live })
        : btn("act-pause", t("pause"), () => send({ kind: "pause" }), { disabled: !live }),
      judged && traits.timeout_race_to !== null ? btn("act-timeout", t("timeout"), () => send({ kind: "timeout", player: sel() }), { disabled: !live }) : null,
      !judged ? null : btn("act-stalemate", t("stalemate"), () => send({ kind: "stalemate" }, { confirmText: t("confirm_stalemate") }), { disabled: !live }),
      btn("act-undo", t("undo"), undoClicked, { cls: "danger", disabled: !match.version && !(session && session.lastUnsent()) })),
    el("div", { class: "btnrow" },
      el("label", { class: "label", text: t("player") }), playerSel),
    !judged ? null : el("div", { class: "btnrow" },
      foulSel,
      btn("act-foul-btn", t("call_foul"), () => send({ kind: "foul", player: sel(), reason: foulSel.value, entered_at: Math.round(serverNow()) }), { disabled: !live })),
    el("div", { class: "btnrow" },
      penaltySel,
      btn("act-penalty-btn", t("penalty"), () => send({ kind: "penalty", player: sel(), type: penaltySel.value },
        { confirmText: t("confirm_penalty", { name: playerName(match, sel()), type: tc("pen", penaltySel.value) }) }), { cls: "danger", disabled: !live })),
    el("div", { class: "btnrow" },
      btn("act-concede-rack", t("concede_rack"), () => send({ kind: "concede", player: sel(), scope: "rack" },
        { confirmText: t("confirm_concede", { name: playerName(match, sel()), scope: t("scope_rack") }) }), { disabled: !live }),
      !traits.concede_scopes.includes("match") ? null : btn("act-concede-match", t("concede_match"), () => send({ kind: "concede", player: sel(), scope: "match" },
        { confirmText: t("confirm_concede", { name: playerName(match, sel()), scope: t("scope_match") }) }), { cls: "danger", disabled: !live })));
}

// ------------------------------------------------------------------ clock
function tick() {
  const c = (match && match.clock) || {};
  const node = document.getElementById("shot-clock");
  const note = document.getElementById("clock-note");
  let shot = c.shot;
  let noteText = "";
  if (shot && shot.running === false) noteText = shot.reason === "link" ? t("clock_paused_link") : t("paused");
  // Without a link for longer than the hub's grace, the hub has paused the clock as of then.
  if (shot && shot.running && offlineSince !== null && Date.now() - offlineSince > LINK_GRACE_MS) {
    const lostAt = serverNow() - (Date.now() - offlineSince);
    shot = { ...shot, running: false, remaining_ms: Math.max(0, shot.deadline - lostAt) };
    noteText = t("clock_paused_link");
  }
  paintShotClock(node, shot);
  note.textContent = noteText;
  const mc = document.getElementById("match-clock");
  const ms = remainingMs(c.match);
  clockBox.classList.toggle("hidden", !c.shot && ms === null);
  mc.textContent = ms === null ? "" : `${t("match_clock")} ${clockText(ms, { minutes: true })}`;
}
setInterval(tick, 200);
setInterval(() => { if (conn !== "live") renderLink(); }, 1000);

onLangChange(() => { render(); paintQueue(); paintLog(); paintTableName(); });

// ------------------------------------------------------------------ go
// The app shell is cached by a service worker, so a reload without a link still shows the tablet.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/tablet/" }).catch(() => { /* served without it */ });
}

paintTableName();
loadTable().then((found) => {
  if (!found) { showNotFound(); return; }
  const token = takeTokenFromUrl();
  if (token) connect(token); else askToken(false);
});

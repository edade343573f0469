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
import { t, tc, onLangChange, applyI18n } from "./i18n.js";
import { TableSession, getJSON, HttpError } from "./live.js";
import { el, fill, pathId, header, setConn, playerName, confirmDialog, isolated, playerNames } from "./ui.js";
import { newForm, formFromShot } from "./stroke_form.js";
import { entryText, verdictOf, verdictLine, rejectText } from "./entries.js";
import { matchTraits } from "./disciplines.js";
import { startPanel, pendingPanel, heldPanel, renderStart, renderPending, renderHeld } from "./tablet-start.js";
import { racksPanel, renderRacks } from "./tablet-racks.js";
import { strokePanel, renderStroke, undoClicked } from "./tablet-stroke.js";
import { actionsPanel, renderActions } from "./tablet-actions.js";
import { logPanel, tabletLog } from "./tablet-log.js";
import { clockBox, tick } from "./tablet-clock.js";
import { tokenPanel, takeTokenFromUrl, askToken } from "./tablet-token.js";
import { leftBanner, leftNow, leftNames, leftSaidUntil, wasShown, markShown, wentAway, onLeft, reopenedAt, renderLeft } from "./tablet-left.js";
import { overPanel, renderOver, deskDecided } from "./tablet-over.js";
import { statePanel, linkBanner, verdictBanner, renderLink, renderVerdict, renderState } from "./tablet-status.js";

const tableId = pathId();
const TOKEN_KEY = `cuehub.token.${tableId}`;
const TABLE_KEY = `cuehub.table.${tableId}`;
const LOG_KEY = `cuehub.log.${tableId}`;
const OVER_KEY = `cuehub.over.${tableId}`;
const DISMISSED_KEY = `cuehub.over-seen.${tableId}`;

let session = null;
let match = null;
let conn = "connecting";
let offlineSince = null; // local ms the link was lost
let form = null; // the stroke being entered
let formKey = ""; // the situation the form was made for
let lock = null; // {id}: the entry in flight; the form waits for its answer
let flow = { held: 0, waiting: null };
let restoreForm = null; // {version, data}: an undone stroke comes back on the form
const sentForms = new Map(); // command id -> {form, key}: a refused stroke comes back for correction
const undoTargets = new Map(); // undo command id -> the event it names
let lastLinkLost = null;
let lastSeenVersion = null;
let over = null; // the finished match kept on screen until "Next match" is tapped
let dismissed = null; // the id of the finished match the referee has moved on from
let undoneHere = null; // the match this tablet's own Undo reopens (not said as reopened at the desk)
let tableInfo = null; // {name, tournament_name} of this table, kept from the last visit
try { tableInfo = JSON.parse(localStorage.getItem(TABLE_KEY) || "null"); } catch (_) { tableInfo = null; }
try { over = JSON.parse(localStorage.getItem(OVER_KEY) || "null"); } catch (_) { over = null; }
try { dismissed = localStorage.getItem(DISMISSED_KEY); } catch (_) { dismissed = null; }

// What the parts in modules of their own read and do (tablet-racks.js, tablet-actions.js,
// tablet-stroke.js, tablet-start.js, tablet-over.js, tablet-status.js, tablet-left.js,
// tablet-log.js, tablet-clock.js): this page's state through getters (and setters where a part
// changes it), its actions as functions.
const tab = {
  get match() { return match; },
  set match(v) { match = v; },
  get over() { return over; },
  get session() { return session; },
  get lock() { return lock; },
  set lock(v) { lock = v; },
  get offlineSince() { return offlineSince; },
  get flow() { return flow; },
  get conn() { return conn; },
  get dismissed() { return dismissed; },
  get form() { return form; },
  set form(v) { form = v; },
  get formKey() { return formKey; },
  set formKey(v) { formKey = v; },
  set undoneHere(v) { undoneHere = v; },
  sentForms, undoTargets,
  get tableName() { return tableInfo && tableInfo.name; },
  named, render, queueCommand, send, isPaused, knowsTheTurn, queuedStrokes, paintQueue, formContext, situationKey,
  deskDecided, showReject, nextMatch, keepOver, tableId,
  logEntry: (entry) => logEntry(entry), undoClicked: () => undoClicked(tab),
  logUpdate: (id, changes) => logUpdate(id, changes), // made below, from this object
};

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
    leftNames(leftNow()));
}

const { logEntry, logUpdate, logVerdict, paintLog } = tabletLog(LOG_KEY, tab);

// ------------------------------------------------------------------ layout
header("tablet_title", [el("span", { class: "badge queue hidden", id: "queue-count" }),
  el("span", { class: "tablename", id: "table-name" })]);
const app = document.getElementById("app");

const notFoundPanel = el("section", { class: "card notfound hidden", id: "not-found" });
const rejectBanner = el("div", { class: "reject hidden", id: "reject", role: "alert" });

// Two columns on a landscape tablet (tablet.css): the entry (reject, start, decision, stroke)
// on one side, verdict/projection/clock/actions/log on the other, so the stroke fits one screen.
// On narrow or portrait screens the wrappers dissolve (display: contents) into one column.
const cols = el("div", { class: "cols" },
  el("div", { class: "entry" }, leftBanner, rejectBanner, heldPanel, overPanel, startPanel, pendingPanel, racksPanel, strokePanel),
  el("div", { class: "side" }, linkBanner, verdictBanner, el("div", { class: "top" }, statePanel, clockBox), actionsPanel, logPanel));
app.append(notFoundPanel, tokenPanel, cols);
applyI18n(document);
paintLog();

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
    onLeft: (msg, dropped) => onLeft(tab, msg, dropped),
    onSent: (env) => { if (logUpdate(env.id, { status: "sending" })) paintQueue(); },
    onAck: onAck,
    onReject: onReject,
    onAuthFailed: () => { localStorage.removeItem(TOKEN_KEY); askToken(true, TOKEN_KEY, connect); },
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
  if (match && match.last && match.last.version === msg.version) logVerdict(msg.version);
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
      if (undoneHere !== m.id) reopenedAt(tab, m);
      undoneHere = null;
      keepOver(null);
    } else if (over && m.status === "live") keepOver(null); // the next match began (another tablet): move on
    if (m.status === "live") leftSaidUntil(m);
  } // m null: nothing on the table now; a finished match on screen stays there until "Next match"
  if (ready && prev && m && prev.id !== m.id && prev.status === "live" && !over) checkEnded(prev.id);
  // A match not started that gives way to another (or to none) left the table; `match_left` says
  // where it went, and a hub that sends none is asked (the tablet says it either way).
  if (prev && prev.status === "scheduled" && (!m || m.id !== prev.id) && wasShown(prev.id) && !over) wentAway(tab, prev);
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
  if (match && match.last) logVerdict(match.last.version);
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
  if (!over && match && match.status !== "finished") markShown(match.id);
  const key = situationKey(match);
  if (key !== formKey && !lock) { const ctx = formContext(); form = ctx ? newForm(ctx) : null; formKey = key; }
  renderLink(tab);
  renderLeft(tab);
  renderOver(tab);
  renderVerdict(tab);
  renderState(tab);
  if (over) {
    // Nothing of the next match before "Next match": its start, choices and strokes wait.
    for (const p of [startPanel, pendingPanel, racksPanel, strokePanel, actionsPanel]) p.classList.add("hidden");
  } else {
    renderStart(tab);
    renderPending(tab);
    renderRacks(tab);
    renderStroke(tab);
    renderActions(tab);
  }
  renderHeld(tab);
  tick(tab);
}

function isPaused() {
  if (!match) return false;
  if (typeof match.paused === "boolean") return match.paused;
  const c = match.clock || {};
  const phase = match.rack && match.rack.phase;
  return !!(c.shot && c.shot.running === false && (phase === "break" || phase === "play"));
}

setInterval(() => tick(tab), 200);
setInterval(() => { if (conn !== "live") renderLink(tab); }, 1000);

onLangChange(() => { render(); paintQueue(); paintLog(); paintTableName(); });

// ------------------------------------------------------------------ go
// The app shell is cached by a service worker, so a reload without a link still shows the tablet.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/tablet/" }).catch(() => { /* served without it */ });
}

paintTableName();
loadTable().then((found) => {
  if (!found) { showNotFound(); return; }
  const token = takeTokenFromUrl(TOKEN_KEY);
  if (token) connect(token); else askToken(false, TOKEN_KEY, connect);
});

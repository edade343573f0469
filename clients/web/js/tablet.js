// The referee's console: /tablet/{table_id}
import { t, tc, onLangChange, applyI18n } from "./i18n.js";
import { TableSession, remainingMs } from "./live.js";
import {
  el, fill, pathId, header, setConn, playerName, scoreline, ball, bihText, paintShotClock,
  confirmDialog, lastText, statusText, resultText,
} from "./ui.js";

const tableId = pathId();
const TOKEN_KEY = `cuehub.token.${tableId}`;
const CALLED_COMMON = ["double_hit", "push_shot", "touched_ball", "feet_off_floor", "balls_moving", "illegal_jump", "other"];
const PENALTIES = ["intentional_foul", "unsportsmanlike", "device", "forfeit_rack", "forfeit_match"];
const NINE_BALL = new Set(["golden_nine", "wpa_nine", "chase_nine"]);

let session = null;
let match = null;
let form = null; // the stroke being entered
let formKey = ""; // the stroke situation the form was made for
const log = []; // {text, kind: ok|err|info}
const sentForms = new Map(); // command id -> {form, key}: a rejected stroke comes back for correction

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
  el("span", { class: "muted tableid", text: tableId })]);
const app = document.getElementById("app");

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
  el("div", { class: "muted small", id: "match-clock" }));
const rejectBanner = el("div", { class: "reject hidden", id: "reject", role: "alert" });
const startPanel = el("section", { class: "card hidden", id: "start" });
const pendingPanel = el("section", { class: "card pending hidden", id: "pending" });
const strokePanel = el("section", { class: "card stroke hidden", id: "stroke" });
const actionsPanel = el("section", { class: "card actions hidden", id: "actions" });
const logPanel = el("section", { class: "card log", id: "log-panel" },
  el("h3", { class: "section-title", "data-i18n": "log" }), el("ul", { id: "log" }));

// Two columns on a landscape tablet (tablet.css): the entry (reject, start, decision, stroke)
// on one side, projection/clock/actions/log on the other, so the stroke fits one screen. On
// narrow or portrait screens the wrappers dissolve (display: contents) into one column.
app.append(tokenPanel, el("div", { class: "cols" },
  el("div", { class: "entry" }, rejectBanner, startPanel, pendingPanel, strokePanel),
  el("div", { class: "side" }, el("div", { class: "top" }, statePanel, clockBox), actionsPanel, logPanel)));
applyI18n(document);

function saveToken() {
  const v = document.getElementById("token-input").value.trim();
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

// ------------------------------------------------------------------ session
function connect(token) {
  if (session) session.close();
  session = new TableSession(tableId, token, {
    onStatus: (s) => { setConn(s); document.body.dataset.conn = s; },
    onReady: (m) => { setMatch(m); },
    onState: (m) => { setMatch(m); },
    onAck: (env, msg) => {
      sentForms.delete(env.id);
      addLog(`${describe(env)} — ${t("accepted")} (v${msg.version})`, "ok");
    },
    onReject: (env, msg) => {
      const err = msg.error || {};
      const plain = t(`rej_${err.code}`, {}, t("rej_generic"));
      const text = `${describe(env)} — ${t("rejected")}: ${plain}${err.message ? ` (${err.message})` : ""}`;
      showReject(text);
      addLog(text, "err");
      const saved = sentForms.get(env.id);
      sentForms.delete(env.id);
      if (saved && saved.key === formKey) { form = saved.form; renderStroke(); }
    },
    onAuthFailed: () => { localStorage.removeItem(TOKEN_KEY); askToken(true); },
    onQueue: paintQueue,
  });
  paintQueue(session.queue().length);
}

function paintQueue(n) {
  const q = document.getElementById("queue-count");
  q.textContent = t("queued_n", { n });
  q.classList.toggle("hidden", !n);
}

function describe(env) {
  const c = (env && env.command) || {};
  let s = tc("k", c.kind || "?");
  if (c.player && match) s += ` · ${playerName(match, c.player)}`;
  if (c.kind === "decision") s += ` · ${tc("o", c.choice)}`;
  if (c.kind === "penalty") s += ` · ${tc("pen", c.type)}`;
  return s;
}

function addLog(text, kind) {
  log.unshift({ text, kind, at: new Date() });
  log.length = Math.min(log.length, 30);
  const ul = document.getElementById("log");
  fill(ul, log.map((e) => el("li", { class: e.kind },
    el("span", { class: "time muted", text: e.at.toLocaleTimeString() }), " ", e.text)));
}

function showReject(text) {
  rejectBanner.textContent = text;
  rejectBanner.classList.remove("hidden");
}
function clearReject() { rejectBanner.classList.add("hidden"); }

function send(command, confirmText) {
  const go = () => {
    clearReject();
    const env = session.send(command);
    if (!session.ready) addLog(`${describe(env)} — ${t("queued")}`, "info");
    return env;
  };
  if (!confirmText) return go();
  return confirmDialog(confirmText).then((ok) => (ok ? go() : null));
}

// ------------------------------------------------------------------ match
function setMatch(m) {
  match = m;
  document.body.dataset.version = m ? String(m.version) : "";
  // The form survives what does not change the stroke to enter (pause, extension, a reject).
  const r = (m && m.rack) || {};
  const key = m ? JSON.stringify([m.id, m.status, r.number, r.phase, r.shooter, r.on_table, r.pending, r.ball_in_hand]) : "";
  if (key !== formKey) { form = newForm(m); formKey = key; }
  render();
}

function ballOn(m) {
  const on = (m.rack && m.rack.on_table) || [];
  if (!NINE_BALL.has(m.discipline) || !on.length) return undefined;
  return Math.min(...on);
}

function newForm(m) {
  return {
    first_contact: m && m.rack ? ballOn(m) : undefined, // undefined = not chosen yet
    pocketed: new Set(),
    off_table: new Set(),
    cue_ball: "table",
    rail: false,
    breakCount: 0,
    called: new Set(),
    break_position: false,
    push_out: false,
    snooker: false,
    rail_safety: false,
  };
}

function render() {
  renderState();
  renderStart();
  renderPending();
  renderStroke();
  renderActions();
  tick();
}

function renderState() {
  if (!match) {
    fill(statePanel, el("p", { class: "muted", id: "no-match", text: t("no_match") }));
    return;
  }
  const r = match.rack || {};
  const info = [];
  info.push(el("span", { class: "badge", id: "phase", text: statusText(match) }));
  if (r.number) info.push(el("span", { class: "badge", text: t("rack_n", { n: r.number }) }));
  if (r.ball_in_hand) info.push(el("span", { class: "badge bih", id: "bih", text: bihText(r) }));
  if (match.discipline === "chinese_eight" && r.table_open && match.status === "live") info.push(el("span", { class: "badge", text: t("table_open") }));
  if (isPaused()) info.push(el("span", { class: "badge foul", id: "paused", text: t("paused") }));
  const res = resultText(match);
  fill(statePanel,
    el("div", { class: "disc muted", text: `${tc("d", match.discipline)}` }),
    scoreline(match),
    el("div", { class: "info" }, info),
    r.on_table ? el("div", { class: "ontable" }, el("span", { class: "muted", text: t("balls_on_table") + " " }),
      el("span", { class: "balls" }, r.on_table.map((n) => ball(n)))) : null,
    res ? el("div", { class: "result", text: res }) : null,
    el("div", { class: "last muted", id: "last", text: lastText(match) }));
}

function isPaused() {
  if (!match) return false;
  if (typeof match.paused === "boolean") return match.paused;
  const c = match.clock || {};
  const phase = match.rack && match.rack.phase;
  return !!(c.shot && c.shot.running === false && (phase === "break" || phase === "play"));
}

function renderStart() {
  const show = match && match.rack && match.rack.phase === "lag";
  startPanel.classList.toggle("hidden", !show);
  if (!show) return;
  const ps = match.players;
  const kids = [el("h3", { class: "section-title", text: t("start_match") })];
  if (match.status === "scheduled") {
    if (ps.length === 3) {
      const perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
      kids.push(el("div", { class: "btnrow" }, perms.map((pm) => {
        const order = pm.map((i) => ps[i].id);
        return el("button", { class: "btn", type: "button", dataset: { order: order.join(",") },
          text: t("order_label", { order: pm.map((i) => ps[i].name).join(" → ") }),
          onclick: () => send({ kind: "start", order }) });
      })));
    } else {
      kids.push(el("div", { class: "btnrow" }, ps.map((p) => el("button", {
        class: "btn primary", type: "button", dataset: { breaker: p.id },
        text: t("breaks_first", { name: p.name }), onclick: () => send({ kind: "start", breaker: p.id }) }))));
    }
  }
  if (ps.length === 2) {
    kids.push(el("div", { class: "btnrow" }, ps.map((p) => el("button", {
      class: "btn", type: "button", dataset: { lag: p.id },
      text: t("lag_won", { name: p.name }), onclick: () => send({ kind: "lag", winner: p.id }) }))));
  }
  fill(startPanel, kids);
}

function renderPending() {
  const pend = match && match.rack && match.rack.pending;
  pendingPanel.classList.toggle("hidden", !pend);
  if (!pend) return;
  fill(pendingPanel,
    el("h3", { class: "section-title plain", id: "pending-title", text: t("decision_for", { name: playerName(match, pend.player) }) }),
    el("div", { class: "btnrow" }, (pend.options || []).map((o) => el("button", {
      class: "btn primary big", type: "button", dataset: { choice: o }, text: choiceText(o, pend),
      onclick: () => send({ kind: "decision", player: pend.player, choice: o }) }))));
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

// ---- stroke entry
function strokeVisible() {
  return match && match.status === "live" && match.rack && ["break", "play"].includes(match.rack.phase) && match.rack.shooter;
}

function toggleBtn(label, on, onclick, attrs = {}) {
  return el("button", { type: "button", class: `btn toggle ${on ? "on" : ""}`, "aria-pressed": on ? "true" : "false", onclick, text: label, ...attrs });
}

function ballBtn(n, on, onclick, extra = "") {
  const b = el("button", { type: "button", class: `ballbtn ${on ? "on" : ""} ${extra}`, "aria-pressed": on ? "true" : "false", dataset: { ball: n }, onclick });
  b.append(ball(n));
  return b;
}

function renderStroke() {
  const show = strokeVisible();
  strokePanel.classList.toggle("hidden", !show);
  if (!show) return;
  const r = match.rack;
  const d = match.discipline;
  const isBreak = r.phase === "break";
  const on = r.on_table || [];
  const f = form;
  const rerender = () => renderStroke();

  const fcRow = el("div", { class: "ballgrid", id: "fc-grid" },
    ballBtn(0, f.first_contact === null, () => { f.first_contact = null; rerender(); }, "none-btn"),
    on.map((n) => ballBtn(n, f.first_contact === n, () => { f.first_contact = n; rerender(); })));
  fcRow.firstChild.querySelector(".num").textContent = t("none");
  fcRow.firstChild.dataset.ball = "none";

  const setToggle = (set, n, other) => () => {
    if (set.has(n)) set.delete(n); else { set.add(n); other.delete(n); }
    rerender();
  };
  const pkRow = el("div", { class: "ballgrid", id: "pk-grid" },
    on.map((n) => ballBtn(n, f.pocketed.has(n), setToggle(f.pocketed, n, f.off_table))));
  const offRow = el("div", { class: "ballgrid", id: "off-grid" },
    on.map((n) => ballBtn(n, f.off_table.has(n), setToggle(f.off_table, n, f.pocketed))));

  const cueRow = el("div", { class: "btnrow", id: "cue-ball" }, ["table", "pocketed", "off_table"].map((v) =>
    toggleBtn(t(`cue_${v}`), f.cue_ball === v, () => { f.cue_ball = v; rerender(); }, { dataset: { cue: v } })));

  const extras = [];
  if (isBreak) {
    const key = d === "golden_nine" ? "break_crossings" : "break_rails";
    extras.push(el("div", { class: "field" },
      el("span", { class: "label", text: t(key) }),
      el("div", { class: "stepper", id: "break-count" },
        el("button", { type: "button", class: "btn", id: "break-minus", text: "−", onclick: () => { f.breakCount = Math.max(0, f.breakCount - 1); rerender(); } }),
        el("span", { class: "value", id: "break-value", text: String(f.breakCount) }),
        el("button", { type: "button", class: "btn", id: "break-plus", text: "+", onclick: () => { f.breakCount = Math.min(30, f.breakCount + 1); rerender(); } }))));
    if (d === "golden_nine") {
      extras.push(toggleBtn(t("break_position"), f.break_position, () => { f.break_position = !f.break_position; rerender(); }, { id: "flag-break-position" }));
    }
  } else {
    extras.push(toggleBtn(t("rail"), f.rail, () => { f.rail = !f.rail; rerender(); }, { id: "flag-rail" }));
  }
  if (d === "wpa_nine" && !isBreak && r.push_out_allowed) {
    extras.push(toggleBtn(t("push_out"), f.push_out, () => { f.push_out = !f.push_out; rerender(); }, { id: "flag-push-out" }));
  }
  if (d === "chase_nine" && !isBreak) {
    extras.push(toggleBtn(t("snooker"), f.snooker, () => { f.snooker = !f.snooker; rerender(); }, { id: "flag-snooker" }));
    extras.push(toggleBtn(t("rail_safety"), f.rail_safety, () => { f.rail_safety = !f.rail_safety; rerender(); }, { id: "flag-rail-safety" }));
  }

  const called = calledFouls(d, isBreak);
  const calledRow = el("div", { class: "btnrow chips", id: "called-fouls" }, called.map((c) =>
    toggleBtn(tc("f", c), f.called.has(c), () => { if (f.called.has(c)) f.called.delete(c); else f.called.add(c); rerender(); }, { dataset: { foul: c } })));

  const ready = f.first_contact !== undefined;
  fill(strokePanel,
    el("h3", { class: "section-title plain", id: "stroke-title", text: `${t("stroke_for", { name: playerName(match, r.shooter) })}${isBreak ? ` · ${t("p_break")}` : ""}` }),
    el("div", { class: "field" }, el("span", { class: "label", text: t("first_contact") }), fcRow),
    el("div", { class: "field" }, el("span", { class: "label", text: t("pocketed") }), pkRow),
    el("div", { class: "field" }, el("span", { class: "label", text: t("off_table") }), offRow),
    el("div", { class: "field" }, el("span", { class: "label", text: t("cue_ball") }), cueRow),
    el("div", { class: "field flags" }, extras),
    el("div", { class: "field" }, el("span", { class: "label", text: t("called_fouls") }), calledRow),
    el("div", { class: "btnrow submit" },
      el("button", { type: "button", class: "btn", id: "clear-stroke", text: t("clear_stroke"), onclick: () => { form = newForm(match); rerender(); } }),
      el("button", { type: "button", class: "btn primary big", id: "enter-stroke", disabled: !ready, text: t("enter_stroke"), onclick: submitStroke })));
}

function calledFouls(d, isBreak) {
  const list = [...CALLED_COMMON];
  if (d === "golden_nine" && isBreak) list.splice(list.length - 1, 0, "weak_break");
  if (d === "chinese_eight") list.splice(list.length - 1, 0, "not_trying");
  return list;
}

function submitStroke() {
  if (!strokeVisible() || form.first_contact === undefined) return;
  const r = match.rack;
  const d = match.discipline;
  const f = form;
  const cmd = {
    kind: "shot",
    player: r.shooter,
    first_contact: f.first_contact,
    pocketed: [...f.pocketed].sort((a, b) => a - b),
    off_table: [...f.off_table].sort((a, b) => a - b),
    cue_ball: f.cue_ball,
    rail: f.rail,
    called_fouls: [...f.called],
  };
  if (r.phase === "break") {
    if (d === "golden_nine") { cmd.break_crossings = f.breakCount; cmd.break_position = f.break_position; }
    else cmd.break_rails = f.breakCount;
  }
  if (d === "wpa_nine" && f.push_out) cmd.push_out = true;
  if (d === "chase_nine") { cmd.snooker = f.snooker; cmd.rail_safety = f.rail_safety; }
  const env = send(cmd);
  if (env) sentForms.set(env.id, { form, key: formKey });
  form = newForm(null);
  form.first_contact = undefined;
  renderStroke();
}

// ---- actions
function renderActions() {
  const show = !!match;
  actionsPanel.classList.toggle("hidden", !show);
  if (!show) return;
  const r = match.rack || {};
  const d = match.discipline;
  const turn = r.shooter || (r.pending && r.pending.player) || null;
  const live = match.status === "live";
  const shooterP = match.players.find((p) => p.id === r.shooter);
  const paused = isPaused();

  const playerSel = el("select", { id: "act-player" }, match.players.map((p) =>
    el("option", { value: p.id, text: p.name, selected: p.id === turn })));
  const penaltySel = el("select", { id: "act-penalty" }, PENALTIES.map((p) => el("option", { value: p, text: tc("pen", p) })));
  const foulSel = el("select", { id: "act-foul" }, calledFouls(d, r.phase === "break").map((c) => el("option", { value: c, text: tc("f", c) })));
  const sel = () => playerSel.value;

  const btn = (id, label, onclick, opts = {}) => el("button", { type: "button", class: `btn ${opts.cls || ""}`, id, text: label, disabled: !!opts.disabled, onclick });
  const confirmPlayer = (key, vars) => t(key, vars);

  fill(actionsPanel,
    el("h3", { class: "section-title", text: t("actions") }),
    el("div", { class: "btnrow" },
      btn("act-extension", `${t("extension")}${shooterP && shooterP.extensions_left !== undefined ? ` (${shooterP.extensions_left})` : ""}`,
        () => send({ kind: "extension", player: r.shooter }),
        { disabled: !live || !r.shooter || r.phase !== "play" || !(match.clock && match.clock.shot) || (shooterP && shooterP.extensions_left === 0) }),
      paused
        ? btn("act-resume", t("resume"), () => send({ kind: "resume" }), { cls: "primary", disabled: !live })
        : btn("act-pause", t("pause"), () => send({ kind: "pause" }), { disabled: !live }),
      d === "chinese_eight" ? btn("act-timeout", t("timeout"), () => send({ kind: "timeout", player: sel() }), { disabled: !live }) : null,
      btn("act-stalemate", t("stalemate"), () => send({ kind: "stalemate" }, t("confirm_stalemate")), { disabled: !live }),
      btn("act-undo", t("undo"), () => send({ kind: "undo" }, t("confirm_undo")), { cls: "danger", disabled: !match.version })),
    el("div", { class: "btnrow" },
      el("label", { class: "label", text: t("player") }), playerSel),
    el("div", { class: "btnrow" },
      foulSel,
      btn("act-foul-btn", t("call_foul"), () => send({ kind: "foul", player: sel(), reason: foulSel.value }), { disabled: !live })),
    el("div", { class: "btnrow" },
      penaltySel,
      btn("act-penalty-btn", t("penalty"), () => send({ kind: "penalty", player: sel(), type: penaltySel.value },
        confirmPlayer("confirm_penalty", { name: playerName(match, sel()), type: tc("pen", penaltySel.value) })), { cls: "danger", disabled: !live })),
    el("div", { class: "btnrow" },
      btn("act-concede-rack", t("concede_rack"), () => send({ kind: "concede", player: sel(), scope: "rack" },
        confirmPlayer("confirm_concede", { name: playerName(match, sel()), scope: t("scope_rack") })), { disabled: !live }),
      d === "chase_nine" ? null : btn("act-concede-match", t("concede_match"), () => send({ kind: "concede", player: sel(), scope: "match" },
        confirmPlayer("confirm_concede", { name: playerName(match, sel()), scope: t("scope_match") })), { cls: "danger", disabled: !live })));
}

// ------------------------------------------------------------------ clock
function tick() {
  const c = (match && match.clock) || {};
  paintShotClock(document.getElementById("shot-clock"), c.shot);
  const mc = document.getElementById("match-clock");
  const ms = remainingMs(c.match);
  clockBox.classList.toggle("hidden", !c.shot && ms === null);
  if (ms === null) mc.textContent = "";
  else {
    const s = Math.ceil(ms / 1000);
    mc.textContent = `${t("match_clock")} ${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }
}
setInterval(tick, 200);

onLangChange(() => { render(); paintQueue(session ? session.queue().length : 0); });

// ------------------------------------------------------------------ go
const token = takeTokenFromUrl();
if (token) connect(token); else askToken(false);

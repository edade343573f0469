// DOM helpers shared by the screens. Every piece of data reaches the page through
// textContent or a property: nothing here parses a string as HTML.

import { t, tc, langSwitch, applyI18n, onLangChange, noteText as translateNote } from "./i18n.js";
import { remainingMs } from "./live.js";
import { drawEntry, matchRoundName, raceList } from "./draw-view.js";
import { primeRubbers, rubberTexts } from "./rubber-view.js";
import { inPoints, matchTraits, racksScored } from "./disciplines.js";

/** el("div", {class: "x", dataset: {id: 1}, onclick: fn}, child, "text", ...) */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else if (k === "text") e.textContent = String(v);
    else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else if (k in e && typeof v !== "string") e[k] = v;
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  append(e, children);
  return e;
}

function append(parent, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    parent.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** A name as every search and comparison of names on the pages sees it (the bracket's "Find a
 * player", the desk's "same name as another"): compatibility forms folded (full-width ＹＡＮＧ and
 * half-width katakana to their ordinary forms, the ideographic space U+3000 to a space), lower case,
 * and no whitespace at all, so "李明" finds "李　明" and "yang fan" finds "YangFan". */
export function foldName(s) { return String(s ?? "").normalize("NFKC").toLowerCase().replace(/\s+/g, ""); }

/** `text` as nodes for el(), every place one of `names` is found in it (a player's, a table's or a
 * tournament's name put into a translated sentence) in a <bdi>: a right-to-left name never reorders
 * the words around it. Longer names are found first (a name inside another stays in the longer
 * one's isolation), and a Latin name is found only as whole words ("Al" is not isolated in "Also"). */
export function isolated(text, ...names) {
  let parts = [String(text ?? "")];
  const wanted = [...new Set(names.flat(Infinity).filter((n) => n !== null && n !== undefined).map(String))]
    .filter((n) => n.trim()).sort((a, b) => b.length - a.length);
  for (const name of wanted) {
    parts = parts.flatMap((p) => (typeof p === "string" ? splitOn(p, name) : [p]));
  }
  return parts.filter((p) => p !== "");
}

const LATIN_WORD = /[A-Za-z0-9\u00c0-\u024f]/;

function splitOn(text, name) {
  const out = [];
  let from = 0;
  for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) {
    const before = text[i - 1] || "", after = text[i + name.length] || "";
    const cut = (LATIN_WORD.test(name[0]) && LATIN_WORD.test(before))
      || (LATIN_WORD.test(name[name.length - 1]) && LATIN_WORD.test(after));
    if (cut || i < from) continue;
    out.push(text.slice(from, i), el("bdi", { text: name }));
    from = i + name.length;
  }
  out.push(text.slice(from));
  return out;
}

/** Replace a node's children. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** The last path segment, decoded: /tablet/{id} -> id */
export function pathId() {
  const parts = location.pathname.split("/").filter(Boolean);
  return parts.length ? decodeURIComponent(parts[parts.length - 1]) : "";
}

/** The standard header: title, connection light, language switch. */
export function header(titleKey, extra = []) {
  const conn = el("span", { class: "conn conn-connecting", id: "conn", "data-i18n": "conn_connecting" });
  const h = el("header", { class: "topbar" },
    el("a", { class: "brand", href: "/" }, "cuehub"),
    el("span", { class: "title", "data-i18n": titleKey }),
    el("span", { class: "spacer" }),
    extra, conn, langSwitch());
  document.body.prepend(h);
  applyI18n(h);
  return h;
}

export function setConn(state) {
  const c = document.getElementById("conn");
  if (!c) return;
  c.className = `conn conn-${state}`;
  const key = { live: "conn_live", offline: "conn_offline", auth: "conn_auth", stale: "conn_stale",
    "not-found": "conn_not_found" }[state] || "conn_connecting";
  c.dataset.i18n = key;
  c.textContent = t(key);
}

/** The names of a match's players (for isolated()). */
export function playerNames(match) {
  return ((match && match.players) || []).flatMap((p) => [p.name, ...(p.members || []).map((m) => m.name)]);
}

/** The member of a doubles match due at the table (`rack.member`: a person id), as {person, name}; null in singles. */
export function memberDue(match) {
  const due = match && match.rack && match.rack.member;
  if (!due) return null;
  for (const p of match.players || []) {
    const m = (p.members || []).find((x) => x.person === due);
    if (m) return { ...m, side: p.id };
  }
  return null;
}

/** A doubles side's members (`players[].members`, PROTOCOL.md section 15) in their order, the one
 * due (a person id) marked; null for a side without members (singles). */
export function membersLine(p, due = null) {
  const ms = p && Array.isArray(p.members) ? p.members : [];
  if (!ms.length) return null;
  return el("span", { class: "members", dataset: { side: p.id || "" } }, ms.map((m, i) => [
    i ? el("span", { class: "sep", text: " · " }) : null,
    el("bdi", { class: `member${due && m.person === due ? " due" : ""}`, dataset: { person: m.person || "" }, text: m.name })]));
}

export function playerName(match, id) {
  if (!match || id === null || id === undefined) return "";
  const p = (match.players || []).find((x) => x.id === id);
  return p ? p.name : String(id);
}

/** "Race to 7", "Race 7 – 5" (a race per player), "9 racks", "40 minutes"; a game the hub does not judge first: "snooker · Race to 4". */
export function formatLabel(match) {
  const f = (match && match.format) || {};
  let length = "";
  const races = raceList(match);
  if (races) length = t("race_each", { races: races.join(" – ") });
  else if (f.race_to) length = t("race_to", { n: typeof f.race_to === "object" ? Object.values(f.race_to)[0] : f.race_to });
  else if (f.racks) length = t(f.racks === 1 ? "n_racks_one" : "n_racks", { n: f.racks });
  else if (f.minutes) length = t("n_minutes", { n: f.minutes });
  return [f.game, length].filter(Boolean).join(" · ");
}

/** "0:45" / "12" style text for a number of milliseconds. */
export function clockText(ms, { minutes = false } = {}) {
  if (ms === null || ms === undefined) return "";
  const s = Math.ceil(ms / 1000);
  if (!minutes && s < 100) return String(s);
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

/** A billiard ball: a numbered circle, striped for 9-15. */
export function ball(n, extraClass = "") {
  const b = el("span", { class: `ball ball-${n} ${n >= 9 && n <= 15 ? "stripe" : ""} ${extraClass}`.trim(), dataset: { ball: n } });
  b.append(el("span", { class: "num", text: n === 0 ? "" : String(n) }));
  return b;
}

export function ballsRow(numbers) {
  return el("span", { class: "balls" }, (numbers || []).map((n) => ball(n)));
}

/** Ball in hand text for a rack, or "". */
export function bihText(rack) {
  if (!rack || !rack.ball_in_hand) return "";
  return rack.ball_in_hand === "behind_line" ? t("bih_behind_line") : t("bih_anywhere");
}

/**
 * Keep every [data-clock] countdown in `root` ticking. `getClock(node)` returns the
 * clock object for that node. Adds class "warn" at 10 s or less, "expired" at 0.
 */
export function startTicker(update, ms = 200) {
  update();
  return setInterval(update, ms);
}

export function paintShotClock(node, clock) {
  if (!node) return;
  const ms = remainingMs(clock);
  if (ms === null) {
    node.textContent = "";
    node.classList.add("hidden");
    node.classList.remove("warn", "expired", "paused");
    return;
  }
  node.classList.remove("hidden");
  node.textContent = clockText(ms);
  node.classList.toggle("warn", ms <= 10000 && ms > 0);
  node.classList.toggle("expired", ms <= 0);
  node.classList.toggle("paused", clock.running === false);
}

export function onLang(fn) { onLangChange(fn); }

export function winTypeText(r) {
  return tc("w", r.win_type);
}

export function statusText(match) {
  if (!match) return "";
  // a match scored rack by rack has no break or stroke to show: it is live (or its lag, or a choice)
  if (match.status === "live" && match.rack && !(racksScored(match) && ["break", "play"].includes(match.rack.phase))) {
    return tc("p", match.rack.phase);
  }
  return tc("s", match.status);
}

export function resultText(match) {
  if (!match || match.status !== "finished") return "";
  const who = match.winner ? t("wins_match", { name: playerName(match, match.winner) }) : t("draw");
  const res = match.result || {};
  // A score entered at the desk says so on every screen, with the organiser's reason when given.
  if (res.entered) return `${who} · ${res.reason ? t("result_entered_why", { reason: res.reason }) : t("result_entered")}`;
  // A player withdrawn from the event while the match was played: said as such, not as a penalty.
  const gone = res.withdrawn || [];
  if (gone.length) return `${who} · ${gone.map((pid) => t("withdrew", { name: playerName(match, pid) })).join(" · ")}`;
  const why = res.reason ? ` · ${tc("r", res.reason)}` : "";
  return who + why;
}

/** The hub's notes of an event's `last` (the match's latest by default) in the page's language:
 * `last.note_codes` said by the page's templates, player ids shown as the match's players' names;
 * a note the page cannot say is the hub's English (`last.notes`), as sent. */
export function noteTexts(match, last = match && match.last) {
  const english = (last && last.notes) || [];
  const codes = last && last.note_codes;
  if (!Array.isArray(codes)) return english.map(String); // a hub that sends no codes
  const ids = new Set(((match && match.players) || []).map((p) => p.id));
  const nameOf = (id) => (ids.has(id) ? playerName(match, id) : null);
  return codes.map((note, i) => translateNote(note, english[i], nameOf));
}

/** A short human description of what the latest event did (projection.last). */
export function lastText(match) {
  const last = match && match.last;
  if (!last) return "";
  const parts = [];
  const who = last.player ? playerName(match, last.player) : "";
  // a withdrawal (not a referee's penalty) is said by its note alone
  if (!withdrewLast(match)) parts.push(`${tc("k", last.kind)}${who ? " · " + who : ""}`);
  if (last.foul || (last.fouls && last.fouls.length)) {
    parts.push(`${t("foul")}: ${(last.fouls || []).map((f) => tc("f", f)).join(", ")}`);
  }
  parts.push(...noteTexts(match, last));
  return parts.join(" — ");
}

/** The latest event is the forfeit of a player withdrawn from the event (the hub's, not a referee's). */
export function withdrewLast(match) {
  const last = match && match.last;
  return !!(last && last.kind === "penalty" && ((match.result || {}).withdrawn || []).includes(last.player));
}

/** In-page confirmation (never window.confirm: it would block the socket's page). `text`: a string,
 * or nodes (names isolated by isolated()). */
export function confirmDialog(text) {
  return new Promise((resolve) => {
    const done = (v) => { back.remove(); document.removeEventListener("keydown", onKey); resolve(v); };
    const onKey = (e) => { if (e.key === "Escape") done(false); };
    const back = el("div", { class: "modal-back", id: "modal" },
      el("div", { class: "modal", role: "dialog", "aria-modal": "true" },
        el("p", { id: "modal-text" }, text),
        el("div", { class: "row" },
          el("button", { class: "btn", id: "modal-cancel", type: "button", text: t("cancel"), onclick: () => done(false) }),
          el("button", { class: "btn primary", id: "modal-confirm", type: "button", text: t("confirm"), onclick: () => done(true) }))));
    back.addEventListener("click", (e) => { if (e.target === back) done(false); });
    document.addEventListener("keydown", onKey);
    document.body.append(back);
    back.querySelector("#modal-confirm").focus();
  });
}

/** The players strip: name, score, racks, who is at the table. */
export function scoreline(match, { compact = false } = {}) {
  const players = (match && match.players) || [];
  const rack = (match && match.rack) || {};
  // scored rack by rack: nobody is "at the table" (only a pending choice names a player)
  const active = (racksScored(match) ? null : rack.shooter) || (rack.pending && rack.pending.player) || null;
  const three = players.length === 3;
  const box = el("div", { class: `scoreline ${three ? "three" : ""}` });
  players.forEach((p, i) => {
    const right = !three && i === 1;
    const sub = [];
    if (inPoints(match)) sub.push(`${t("racks")} ${p.racks_won ?? 0}`);
    if (p.group) sub.push(t(p.group));
    if (!compact && p.fouls_in_rack) sub.push(`${t("fouls_in_rack")} ${p.fouls_in_rack}`);
    if (!compact && p.consecutive_fouls) sub.push(`${t("consecutive_fouls")} ${p.consecutive_fouls}`);
    // a player's own win ball (a handicap), when it is not the discipline's
    const own = p.win_ball !== undefined && p.win_ball !== null && p.win_ball !== matchTraits(match).win_ball;
    if (!compact && own) sub.push(`${t("win_ball")} ${p.win_ball}`);
    const pl = el("div", { class: `pl ${right ? "right" : ""} ${p.id === active ? "at-table" : ""}`, dataset: { player: p.id } },
      el("span", { class: "name", text: p.name }),
      el("span", { class: "score", text: String(p.score ?? 0) }),
      membersLine(p, match.status === "live" ? rack.member : null),
      el("span", { class: "sub", text: sub.join(" · ") }),
      p.id === active && match.status === "live"
        ? el("span", { class: "badge at", text: rack.shooter ? t("at_table") : t("p_decision") }) : null);
    box.append(pl);
    if (!three && i === 0) {
      box.append(el("div", { class: "mid" },
        el("div", { class: "fmt", text: formatLabel(match) }),
        rack.number ? el("div", { class: "racknum", text: t("rack_n", { n: rack.number }) }) : null));
    }
  });
  return box;
}

/** Completed racks as a table: #, breaker, winner, how, points. */
export function rackHistory(match) {
  const racks = (match && match.racks) || [];
  if (!racks.length) return el("p", { class: "muted", text: t("nothing_yet") });
  const players = match.players || [];
  return el("table", { class: "grid racks-table" },
    el("thead", {}, el("tr", {},
      el("th", { text: "#" }),
      el("th", { text: t("winner") }),
      el("th", { text: "" }),
      players.map((p) => el("th", { class: "num" }, el("bdi", { text: p.name }))))),
    el("tbody", {}, racks.slice().reverse().map((r) => el("tr", { class: r.win_type === "big_gold" || r.win_type === "small_gold" ? "gold" : "" },
      el("td", { text: String(r.number) }),
      el("td", {}, el("bdi", { text: playerName(match, r.winner) })),
      el("td", {}, el("span", { class: `badge ${r.win_type && r.win_type !== "normal" ? "gold" : ""}`, text: winTypeText(r) }),
        r.reason && r.reason !== "win_ball" ? el("span", { class: "muted", text: ` ${tc("r", r.reason)}` }) : null),
      players.map((p) => {
        const v = (r.points || {})[p.id] ?? 0;
        return el("td", { class: "num", text: v > 0 ? `+${v}` : String(v) });
      })))));
}

/** The "not found" card of a page whose id the hub does not know (never a page loading forever). */
export function notFoundCard(messageKey, id) {
  setConn("not-found");
  document.body.dataset.conn = "not-found";
  document.body.dataset.state = "not-found";
  return el("section", { class: "card notfound", id: "not-found" },
    el("h2", { text: t("not_found") }), el("p", { text: t(messageKey, { id }) }));
}

const namesCache = new Map(); // tournament id -> Promise of the tournament projection

/** Table and tournament names for a match (GET /api/tournaments/{tid}): {table, tournament, draw}.
 * `draw`: the tournament's draw without its matches (its type and its stages' rounds), what names a
 * round (`drawText`). */
export async function matchNames(match, retried = false) {
  if (!match || !match.tournament_id) return { table: "", tournament: "", draw: null };
  if (!namesCache.has(match.tournament_id)) {
    // one match of the draw is enough: the stages' rounds name every round (a big draw stays small)
    namesCache.set(match.tournament_id, fetch(`/api/tournaments/${encodeURIComponent(match.tournament_id)}?matches_limit=1`)
      .then((r) => (r.ok ? r.json() : null)).catch(() => null));
  }
  let tr = await namesCache.get(match.tournament_id);
  let table = tr && (tr.tables || []).find((x) => x.id === match.table_id);
  if (tr && !table && !retried) { // a table added since: ask again once
    namesCache.delete(match.tournament_id);
    return matchNames(match, true);
  }
  const draw = (tr && tr.draw) || null;
  await primeRubbers(match, draw); // a team match's rubber: its number and the score in rubbers (rubber-view.js)
  return { table: table ? table.name : "", tournament: tr ? tr.name || "" : "", draw };
}

/** "Winners round 2 · W2-1", "Final · W3-1" when the match plays a draw (projection `draw`), named as
 * the bracket and the board name it once the tournament's draw is known (`names` of `matchNames`);
 * the key alone until then; else "". */
export function drawText(match, names) {
  const d = match && match.draw;
  if (!d || !d.key) return "";
  const draw = names && names.draw;
  const round = draw ? matchRoundName(draw, drawEntry(draw, d)) : "";
  const rubber = rubberTexts(match, draw); // "Rubber 3 of 5 · Doubles", the team match's score in rubbers
  return [round ? t("draw_round", { round, key: d.key }) : d.key, ...rubber].join(" · ");
}

/** The meta line every match screen shows: discipline, format, table, tournament, draw round. */
export function metaText(match, names) {
  return [tc("d", match.discipline), formatLabel(match), names && names.table, names && names.tournament,
    drawText(match, names)].filter(Boolean).join(" · ");
}

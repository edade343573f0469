// Commentator: /commentator/{match_id} — live stroke log with verdicts, balls, stats, racks;
// /commentator/table/{table_id} follows whatever match is on that table (the log starts afresh
// with each new match).
import { t, tc, onLangChange } from "./i18n.js";
import { Watch, getJSON } from "./live.js";
import {
  el, fill, pathId, header, setConn, scoreline, ball, bihText, paintShotClock,
  statusText, resultText, rackHistory, playerName, noteTexts, notFoundCard, matchNames, metaText, isolated, playerNames,
} from "./ui.js";
import { shotFacts } from "./entries.js";
import { matchTraits, racksScored } from "./disciplines.js";
import { oddsLine } from "./match-odds.js";
import { PeopleStats } from "./commentator-people.js";
import { toProfile } from "./people-view.js";

const id = pathId();
const followTable = location.pathname.split("/").filter(Boolean)[1] === "table";
header("commentator_title");
const app = document.getElementById("app");
const left = el("div", { class: "col" });
const right = el("div", { class: "col" });
const top = el("section", { class: "card", id: "match" }, el("p", { class: "muted", text: t("loading") }));
const statsBox = el("section", { class: "card", id: "stats" });
const historyBox = el("section", { class: "card", id: "history" });
const logBox = el("section", { class: "card", id: "log-box" });
const people = new PeopleStats(() => render()); // head-to-head, the players' statistics, their names' links
left.append(top, statsBox, people.box, historyBox);
right.append(logBox);
app.append(left, right);

let mid = followTable ? null : id;
let match = null;
let names = null;
let clockNode = null;
let found = true;
let entries = []; // oldest first: {version, kind, at, player, data, last, rack, scores, voided}
let backfilled = false;
let racksSeen = null; // completed racks in the projection before the latest event (rack numbers)
let dueSeen = null; // doubles: the member due (`rack.member`) in the projection before the latest event

const watch = new Watch({ onStatus: (s) => { if (!found) return; setConn(s); document.body.dataset.conn = s; } });

function notFound() {
  found = false;
  watch.close();
  fill(app, notFoundCard(followTable ? "no_such_table" : "no_such_match", id));
}

function follow(matchId) {
  if (mid && mid !== matchId) watch.unsubscribe(`match:${mid}`);
  mid = matchId;
  match = null;
  names = null;
  entries = [];
  backfilled = false;
  racksSeen = null;
  dueSeen = null;
  watch.subscribe(`match:${mid}`, (data, msg) => onMatch(matchId, data, msg),
    { replay: true, onError: (code) => { if (code === "unknown_channel" && !followTable) notFound(); } });
  // With `since: 0` the hub replays the stored events, and sends nothing at all for a match with
  // none yet (version 0: nothing to catch up on). Draw the projection from REST meanwhile.
  getJSON(`/api/matches/${encodeURIComponent(mid)}`).then((data) => {
    if (mid === matchId && !match && data) { match = data; loadNames(data); render(); }
  }).catch((e) => { if (e && e.status === 404 && !followTable) notFound(); });
}

function onMatch(matchId, data, msg) {
  if (matchId !== mid) return;
  if (msg.type === "update" && msg.event) addEntry(msg.event, data);
  else if (msg.type === "snapshot" && !entries.length && !backfilled && data && data.version > 0) backfill(data);
  if (data && (!names || !match)) loadNames(data);
  if (!match || (data && data.version >= match.version)) match = data;
  render();
}

function loadNames(m) {
  matchNames(m).then((n) => { if (match && match.id === m.id) { names = n; render(); } });
}

if (followTable) {
  watch.subscribe(`table:${id}`, (data) => {
    if (data && data.id !== mid) follow(data.id);
    if (!data && !mid) render();
  }, { onError: (code) => { if (code === "unknown_channel") notFound(); } });
} else {
  follow(id);
}

/** The rack an event happened in: the one it ended, when it ended one (the projection after a
 * rack-winning stroke already shows the next rack's number). */
function rackOf(proj) {
  const racks = (proj && proj.racks) || [];
  const ended = racksSeen !== null && racks.length > racksSeen;
  racksSeen = racks.length;
  return ended ? racks[racks.length - 1].number : (proj && proj.rack ? proj.rack.number : null);
}

function addEntry(ev, proj) {
  if (entries.some((e) => e.version === ev.version)) return;
  // The event an undo voids is its `data.target`; a stroke entered before the shot clock ran out
  // voids the expiry it names (`data.voids`). A replay after an undo brings the target already
  // marked voided: nothing else may be struck out then.
  const data = ev.data || {};
  const target = ev.kind === "undo" ? data.target : data.voids;
  const hit = target !== undefined && target !== null ? entries.find((e) => e.version === target) : null;
  if (hit) hit.voided = true;
  const last = proj && proj.last && proj.last.version === ev.version ? proj.last : null;
  entries.push({
    version: ev.version, kind: ev.kind, at: ev.at, data: ev.data || {}, voided: !!ev.voided, last,
    player: (ev.data && ev.data.player) || (last && last.player) || null,
    rack: rackOf(proj),
    scores: proj ? (proj.players || []).map((p) => p.score) : null,
    member: turnMember(ev, proj),
  });
  entries.sort((a, b) => a.version - b.version);
}

// A doubles side's turn (a stroke, or the foul in its place) is its member's who was due before it,
// or the partner's for a stroke called out of turn (PROTOCOL.md section 15).
const TURN_KINDS = new Set(["shot", "foul", "clock_expired"]);

function turnMember(ev, proj) {
  const due = dueSeen;
  dueSeen = proj && proj.rack ? proj.rack.member || null : null;
  if (!due || !TURN_KINDS.has(ev.kind) || !proj) return null;
  const side = (proj.players || []).find((p) => (p.members || []).some((m) => m.person === due));
  if (!side) return null;
  const data = ev.data || {};
  const outOfTurn = (data.called_fouls || []).includes("out_of_turn") || data.reason === "out_of_turn";
  const m = side.members.find((x) => (outOfTurn ? x.person !== due : x.person === due));
  return m ? m.name : null;
}

async function backfill(proj) {
  // The hub no longer keeps the replay: list the stored events without their verdicts.
  backfilled = true;
  const forMatch = mid;
  try {
    const { events } = await getJSON(`/api/matches/${encodeURIComponent(forMatch)}/events?since=0`);
    if (forMatch !== mid) return;
    for (const ev of events || []) {
      if (!entries.some((e) => e.version === ev.version)) {
        entries.push({ version: ev.version, kind: ev.kind, at: ev.at, data: ev.data || {}, voided: !!ev.voided,
          last: proj.last && proj.last.version === ev.version ? proj.last : null,
          player: (ev.data && ev.data.player) || null, rack: null, scores: null });
      }
    }
    entries.sort((a, b) => a.version - b.version);
    render();
  } catch (_) { /* the live log still works */ }
}

function strokeSummary(e) {
  const d = e.data || {};
  if (e.kind === "shot") return shotFacts(d, match && match.discipline);
  if (e.kind === "decision") return tc("o", d.choice);
  if (e.kind === "penalty") return tc("pen", d.type);
  if (e.kind === "foul") return tc("f", d.reason);
  if (e.kind === "concede") return t(`scope_${d.scope}`, {}, d.scope || "");
  if (e.kind === "start" && d.breaker) return t("breaks_first", { name: playerName(match, d.breaker) });
  return "";
}

/** `text` as nodes, the match's players and its table and tournament names each in a <bdi>. */
function named(text) {
  return isolated(text, playerNames(match), names && names.table, names && names.tournament);
}

function verdict(e) {
  const l = e.last;
  if (!l) return null;
  const box = el("div", { class: "verdict" });
  if (l.foul || (l.fouls && l.fouls.length)) {
    box.append(el("span", { class: "badge foul", text: t("foul") }), " ",
      el("span", { class: "fouls", text: (l.fouls || []).map((f) => tc("f", f)).join(", ") }));
  } else if (e.kind === "shot") {
    box.append(el("span", { class: "badge ok", text: t("legal") }));
  }
  for (const n of noteTexts(match, l)) box.append(el("div", { class: "note" }, named(n)));
  return box;
}

function render() {
  if (!found) return;
  if (!match) {
    fill(top, el("p", { class: "muted", id: "waiting", text: followTable && !mid ? t("next_match_soon") : t("loading") }));
    return;
  }
  document.body.dataset.version = String(match.version);
  document.body.dataset.match = match.id;
  const r = match.rack || {};
  const live = match.status === "live";
  clockNode = el("span", { class: "shotclock", id: "shot-clock" });
  const res = resultText(match);
  fill(top,
    el("div", { class: "meta muted", id: "meta" }, named(metaText(match, names))),
    scoreline(match),
    oddsLine(match, render),  // both players' ratings and chances, rack by rack
    el("div", { class: "badges" },
      el("span", { class: `badge status-${match.status}`, id: "phase", text: statusText(match) }),
      r.ball_in_hand && live ? el("span", { class: "badge bih", id: "bih", text: bihText(r) }) : null,
      r.pending ? el("span", { class: "badge", id: "pending" }, named(`${t("decision_for", { name: playerName(match, r.pending.player) })}: ${(r.pending.options || []).map((o) => tc("o", o)).join(" / ")}`)) : null,
      live && match.link && match.link.lost ? el("span", { class: "badge", id: "link-lost", text: t("link_lost_badge") }) : null,
      // a call-shot game: the ball the last stroke called; a game of groups: the table still open
      live && match.last && match.last.called !== undefined && match.last.called !== null
        ? el("span", { class: "badge called", id: "called", text: t("called_n", { n: match.last.called }) }) : null,
      live && matchTraits(match).groups && r.table_open && r.phase === "play" ? el("span", { class: "badge", id: "table-open", text: t("table_open") }) : null,
      el("span", { class: "spacer" }), clockNode),
    res ? el("div", { class: "result", id: "result" }, named(res)) : null,
    r.on_table && !racksScored(match) ? el("div", { class: "ontable", id: "on-table" }, el("div", { class: "section-title", text: t("balls_on_table") }),
      el("span", { class: "balls" }, r.on_table.map((n) => ball(n)))) : null);
  paintShotClock(clockNode, (match.clock || {}).shot);
  people.show(match);
  people.linkNames(top);

  const statKeys = matchTraits(match).stats;
  fill(statsBox, el("h3", { class: "section-title", text: t("stats") }),
    el("table", { class: "grid" },
      el("thead", {}, el("tr", {}, el("th", { text: "" }), (match.players || []).map((p) => el("th", { class: "num" }, toProfile(people.personOf(p.id), el("bdi", { text: p.name })))))),
      el("tbody", {},
        statKeys.map((k) => el("tr", {}, el("th", { text: t(`st_${k}`) }),
          (match.players || []).map((p) => el("td", { class: "num", text: String(((p.stats || {})[k]) ?? 0) })))),
        el("tr", {}, el("th", { text: t("fouls_in_rack") }), (match.players || []).map((p) => el("td", { class: "num", text: String(p.fouls_in_rack ?? 0) }))),
        el("tr", {}, el("th", { text: t("warnings") }), (match.players || []).map((p) => el("td", { class: "num", text: String(p.warnings ?? 0) }))))));

  fill(historyBox, el("h3", { class: "section-title", text: t("rack_history") }), rackHistory(match));

  fill(logBox, el("h3", { class: "section-title", text: t("stroke_log") }),
    entries.length ? el("ol", { class: "strokes", id: "strokes" }, entries.slice().reverse().map((e) =>
      el("li", { class: `${e.voided ? "voided" : ""} ${e.last && e.last.foul ? "is-foul" : ""}`, dataset: { version: e.version, rack: e.rack ?? "" } },
        el("div", { class: "line1" },
          el("span", { class: "v muted", text: `#${e.version}` }),
          e.rack ? el("span", { class: "muted rackno", text: t("rack_n", { n: e.rack }) }) : null,
          el("span", { class: "kind", text: tc("k", e.kind) }),
          e.player ? toProfile(people.personOf(e.player), el("bdi", { class: "who", text: playerName(match, e.player) })) : null,
          e.member ? el("bdi", { class: "member muted", text: e.member }) : null,
          e.voided ? el("span", { class: "badge", text: t("voided") }) : null,
          el("span", { class: "spacer" }),
          e.scores ? el("span", { class: "sc", text: e.scores.join(" : ") }) : null),
        el("div", { class: "line2" }, named(strokeSummary(e))),
        verdict(e))))
      : el("p", { class: "muted", text: t("nothing_yet") }));
}

setInterval(() => { if (match && clockNode) paintShotClock(clockNode, (match.clock || {}).shot); }, 200);
onLangChange(render);

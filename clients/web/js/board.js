// Venue scoreboard: /board/{tournament_id} — every table of the tournament on one screen (a TV's
// grid; a phone's list). Every newly called draw match is announced for a few seconds, both players
// and the table, large, in a live region (board-call.js). Every big number has its label.
import { t, tc, onLangChange } from "./i18n.js";
import { Watch } from "./live.js";
import { followTournament } from "./tournament_feed.js";
import { el, fill, pathId, header, setConn, bihText, paintShotClock, formatLabel, resultText, notFoundCard, isolated, playerName, membersLine } from "./ui.js";
import { CallAnnouncer, roundLabel, calledAgo } from "./board-call.js";
import { inPoints, matchTraits, racksScored } from "./disciplines.js";
import { checkInCountdown } from "./board-check-in.js";
import { toProfile } from "./people-view.js";
import { teamScoreText } from "./team-view.js";

const tid = pathId();
header("board_title", [el("span", { class: "tname", id: "tournament-name" })]);
const app = document.getElementById("app");
const grid = el("div", { class: "board", id: "board" });
// What the queue of the tournament's draw calls next, to the first table that is free.
const upNext = el("div", { class: "upnext hidden", id: "up-next" });
const calls = new CallAnnouncer();
app.append(grid, upNext, calls.node);
app.prepend(checkInCountdown(tid)); // sign-up and check-in (section 14): how long the check-in stays open

let tournament = null;
const full = new Map(); // table id -> full match projection from the table: channel
const cells = new Map(); // table id -> {node, clock}

let found = true;
const watch = new Watch({ onStatus: (s) => { if (!found) return; setConn(s); document.body.dataset.conn = s; } });

function notFound() {
  found = false;
  watch.close();
  upNext.classList.add("hidden");
  fill(grid, notFoundCard("no_such_tournament", tid));
}

followTournament(watch, tid, (data) => {
  tournament = data;
  document.getElementById("tournament-name").textContent = data.name || "";
  document.title = `${data.name || ""} · cuehub`;
  const ids = new Set((data.tables || []).map((tb) => tb.id));
  for (const tb of data.tables || []) {
    if (!full.has(tb.id)) {
      full.set(tb.id, null);
      watch.subscribe(`table:${tb.id}`, (m) => { full.set(tb.id, m); renderCell(tb.id); });
    }
  }
  for (const id of [...full.keys()]) {
    if (!ids.has(id)) { full.delete(id); watch.unsubscribe(`table:${id}`); }
  }
  calls.consider(data);
  render();
}, { onError: (code) => { if (code === "unknown_channel") notFound(); } });

function layout(n) {
  const cols = n <= 1 ? 1 : n <= 2 ? 2 : n <= 3 ? 3 : n <= 4 ? 2 : n <= 6 ? 3 : n <= 8 ? 4 : n <= 9 ? 3 : 4;
  return { cols, rows: Math.max(1, Math.ceil(n / cols)) };
}

/** A player's name node leading to their profile (/people/{id}) where the entry has a person. */
function linked(pid, node) {
  const p = ((tournament && tournament.players) || []).find((x) => x.id === pid);
  return toProfile(p && p.person, node);
}

function nameOf(pid) {
  const p = ((tournament && tournament.players) || []).find((x) => x.id === pid);
  return p ? p.name : t("br_tbd");
}

/** The strip under the tables: the first of the draw's queue, in the order they will be called. */
function renderUpNext() {
  const draw = tournament && tournament.draw;
  const keys = (tournament && tournament.queue) || [];
  if (draw && draw.status === "finished") {
    // The venue's screen ends the night with the winner (or each group's).
    const firsts = draw.champion ? [draw.champion]
      : ((tournament.standings || []).filter((s) => s.rank === 1).map((s) => s.player));
    upNext.classList.toggle("hidden", !firsts.length);
    fill(upNext, firsts.length ? [el("span", { class: "un-label", text: draw.champion ? t("br_champion") : t("br_group_winners") }),
      firsts.map((pid) => el("span", { class: "un-item un-champion", dataset: { player: pid } },
        el("span", { class: "un-names" }, "★ ", linked(pid, el("bdi", { text: nameOf(pid) })))))] : []);
    return;
  }
  // Team matches in play: their score in rubbers, each rubber being on its own table above.
  const teams = draw ? (draw.matches || []).filter((m) => m.team && m.status === "called") : [];
  if (!draw || (!keys.length && !teams.length)) { upNext.classList.add("hidden"); fill(upNext); return; }
  const byKey = new Map((draw.matches || []).map((m) => [m.key, m]));
  const shown = keys.slice(0, Math.max(2, Math.min(6, ((tournament.tables || []).length || 2))));
  upNext.classList.remove("hidden");
  fill(upNext,
    teams.length ? el("span", { class: "un-label", text: t("tm_team_matches") }) : null,
    teams.map((m) => el("span", { class: "un-item un-team", dataset: { key: m.key } },
      el("span", { class: "un-names" }, (m.players || []).map((pid, j) => [j ? " – " : "", el("bdi", { text: nameOf(pid) })])),
      el("span", { class: "un-score", text: teamScoreText(m) }))),
    keys.length ? el("span", { class: "un-label", text: t("bd_up_next") }) : null,
    shown.map((key, i) => {
      const m = byKey.get(key);
      return el("span", { class: "un-item", dataset: { key } },
        el("span", { class: "un-n", text: `${i + 1}.` }),
        el("span", { class: "un-names" }, ((m && m.players) || []).map((pid, j) => [j ? " – " : "", el("bdi", { text: nameOf(pid) })])),
        el("span", { class: "un-key" }, roundLabel(draw, m, key)));
    }),
    keys.length > shown.length ? el("span", { class: "un-more", text: `+${keys.length - shown.length}` }) : null);
}

/** What the numbers of a cell mean: the racks won and the points (a discipline scored in points), or the racks. */
function numberLabels(m) {
  const racksToo = inPoints(m);
  return el("div", { class: "pl-labels" },
    racksToo ? el("span", { class: "racks-label", text: `(${t("bd_racks_won")})` }) : null,
    el("span", { class: "score-label", text: racksToo ? t("bd_points") : t("bd_racks_won") }));
}

function render() {
  if (!found) return;
  renderUpNext();
  const tables = (tournament && tournament.tables) || [];
  const { cols, rows } = layout(tables.length);
  grid.style.setProperty("--cols", cols);
  grid.style.setProperty("--rows", rows);
  if (!tables.length) {
    fill(grid, el("div", { class: "empty", text: t("no_live") }));
    cells.clear();
    return;
  }
  const keep = new Set();
  const nodes = tables.map((tb) => {
    keep.add(tb.id);
    let c = cells.get(tb.id);
    if (!c) { c = { node: el("article", { class: "cell", dataset: { table: tb.id } }), clock: null }; cells.set(tb.id, c); }
    return c.node;
  });
  for (const id of [...cells.keys()]) if (!keep.has(id)) cells.delete(id);
  fill(grid, nodes);
  for (const tb of tables) renderCell(tb.id);
}

/** Has the table channel's match left this table? Moved (its projection names another table, or
 * the tournament shows it on another), or no longer called here (back in the queue, cancelled). */
function leftTable(f, tb) {
  if (f.table_id && f.table_id !== tb.id) return true;
  if (((tournament && tournament.tables) || []).some((x) => x.id !== tb.id && x.match && x.match.id === f.id)) return true;
  const e = f.draw && tournament && tournament.draw ? (tournament.draw.matches || []).find((x) => x.key === f.draw.key) : null;
  return Boolean(e && (e.match_id !== f.id || (e.status === "called" && e.table_id !== tb.id)));
}

/** The match to draw for a table: the full projection when it is the same match. */
function matchFor(tb) {
  const short = tb.match;
  const f = full.get(tb.id);
  if (f && !short && leftTable(f, tb)) return null;
  if (f && (!short || f.id === short.id)) {
    if (short && typeof short.version === "number" && typeof f.version === "number" && short.version > f.version) {
      return { ...f, ...short, rack: { ...f.rack, ...short.rack } };
    }
    return f;
  }
  return short;
}

/** The cell's line under the table's name: the draw round by name ("Final", its key small beside
 * it), the discipline, the format, the rack. */
function fmtLine(m) {
  const key = m.draw && m.draw.key;
  const draw = tournament && tournament.draw;
  // A rubber of a team match plays "{key}/{n}": its round is the team match's (PROTOCOL.md section 15).
  const entry = key && draw ? (draw.matches || []).find((x) => x.key === key || x.key === key.replace(/\/\d+$/, "")) : null;
  const rest = [tc("d", m.discipline), formatLabel(m), m.rack && m.rack.number && m.status === "live" ? t("rack_n", { n: m.rack.number }) : ""]
    .filter(Boolean).join(" · ");
  return el("span", { class: "fmt" }, key ? roundLabel(draw, entry, key) : null, key && rest ? " · " : "", rest);
}

function renderCell(tableId) {
  const c = cells.get(tableId);
  if (!c || !tournament) return;
  const tb = (tournament.tables || []).find((x) => x.id === tableId);
  if (!tb) return;
  const m = matchFor(tb);
  const node = c.node;
  const head = el("div", { class: "cell-head" },
    el("bdi", { class: "tbl", text: tb.name }),
    m ? fmtLine(m) : null);
  const paused = tb.status === "paused";
  if (!m || (paused && m.status !== "live")) {
    c.clock = null;
    fill(node, head, el("div", { class: "cell-empty", text: paused ? t("bd_paused") : t("no_match") }));
    node.className = `cell idle${paused ? " paused" : ""}`;
    return;
  }
  if (m.status === "scheduled") head.append(el("span", { class: "next-tag", text: t("bd_next_here") }));
  const r = m.rack || {};
  const active = (racksScored(m) ? null : r.shooter) || (r.pending && r.pending.player) || null; // by racks: nobody at the table
  const showRacks = inPoints(m);
  const players = el("div", { class: `players n${(m.players || []).length}` }, numberLabels(m), (m.players || []).map((p) => {
    const at = m.status === "live" && p.id === active;
    return el("div", { class: `pl-row ${at ? "at-table" : ""} ${m.winner === p.id ? "winner" : ""}`, dataset: { player: p.id } },
      el("span", { class: "marker", text: at ? "▶" : "" }),
      // the winner's star after the name, outside its isolation (a right-to-left name keeps it on its right)
      el("span", { class: "nm" }, linked(p.id, el("bdi", { class: "name", text: p.name })),
        m.winner === p.id ? el("span", { class: "nm-star", text: "★" }) : null,
        membersLine(p, m.status === "live" ? r.member : null)),
      showRacks ? el("span", { class: "racks", text: String(p.racks_won ?? 0) })
        : p.group ? el("span", { class: `grp ${p.group}`, text: t(p.group) }) : null,
      el("span", { class: "score", text: String(p.score ?? 0) }));
  }));
  const foot = el("div", { class: "cell-foot" });
  if (m.status === "finished") foot.append(el("span", { class: "status done" }, isolated(resultText(m), m.winner && playerName(m, m.winner))));
  else if (m.status === "scheduled") {
    // Called here and not started yet: the next match on this table.
    foot.append(el("span", { class: "status next-here", text: m.draw ? t("bd_called") : tc("s", "scheduled") }));
    const ago = calledAgo(tournament && tournament.draw, m); // a no-show: how long the players have been called
    if (ago) foot.append(el("span", { class: "badge called-ago", dataset: { noshow: m.draw.key }, text: ago }));
  }
  else {
    if (r.ball_in_hand) foot.append(el("span", { class: "badge bih", text: bihText(r) }));
    if (r.phase === "break") foot.append(el("span", { class: "status", text: t("p_break") }));
    if (r.pending) foot.append(el("span", { class: "status", text: tc("p", "decision") }));
    if (m.last && m.last.foul) foot.append(el("span", { class: "badge foul", text: t("foul") }));
    // a call-shot game: the ball the last stroke called; a game of groups: the table still open
    if (m.last && m.last.called !== undefined && m.last.called !== null) {
      foot.append(el("span", { class: "badge called", text: t("called_n", { n: m.last.called }) }));
    }
    if (matchTraits(m).groups && r.table_open && r.phase === "play") foot.append(el("span", { class: "badge open", text: t("table_open") }));
    if (m.link && m.link.lost) foot.append(el("span", { class: "badge linklost", text: t("link_lost_badge") }));
  }
  foot.append(el("span", { class: "spacer" }));
  const clockNode = el("span", { class: "shotclock", role: "timer" });
  foot.append(el("span", { class: "clock-box" }, el("span", { class: "clock-label", text: t("bd_shot_clock") }), clockNode));
  c.clock = { node: clockNode, get: () => (m.clock || {}).shot };
  node.className = `cell ${m.status}`;
  fill(node, head, players, foot);
  paintShotClock(clockNode, (m.clock || {}).shot);
}

setInterval(() => {
  for (const c of cells.values()) if (c.clock) paintShotClock(c.clock.node, c.clock.get());
}, 200);

onLangChange(render);
setInterval(render, 15000); // "called N min ago" counts on with no change to bring it

// The live bracket: /bracket/{tournament_id} — for fans on a phone and for the venue's TV.
// Follows `tournament:{tid}` over /ws/watch (PROTOCOL.md sections 7 and 10, tournament_feed.js): the winners and losers
// brackets and the grand final (with its reset) of an elimination, or the group tables and the
// standings of a round robin or a chase night. Every match links to its watch page. Names come
// from the hub and are only ever set as text.
import { t, tc, onLangChange } from "./i18n.js";
import { Watch } from "./live.js";
import { followTournament } from "./tournament_feed.js";
import { el, fill, pathId, header, setConn, formatLabel, notFoundCard } from "./ui.js";

const tid = pathId();
header("bracket_title", [
  el("span", { class: "tname", id: "tournament-name" }),
  el("a", { class: "btn small board-link", id: "board-link", href: `/board/${encodeURIComponent(tid)}`, "data-i18n": "scoreboard" }),
]);
const app = document.getElementById("app");
const top = el("section", { class: "card br-top", id: "summary" }, el("p", { class: "muted", text: t("loading") }));
const body = el("div", { class: "br-body", id: "bracket" });
app.append(top, body);

let proj = null;
let found = true;

const watch = new Watch({ onStatus: (s) => { if (!found) return; setConn(s); document.body.dataset.conn = s; } });
// Every stroke on any table of the tournament is an update; only what the bracket shows redraws it,
// at most once a frame.
let shown = null;
let queued = false;
function signature(p) {
  const d = p.draw || {};
  return JSON.stringify([p.name, p.players, d.status, d.champion, d.matches, p.queue, p.standings,
    (p.tables || []).map((tb) => [tb.id, tb.name, tb.status, tb.match && [tb.match.id, tb.match.status,
      (tb.match.players || []).map((x) => [x.id, x.score])]])]);
}
function schedule() {
  if (queued) return;
  queued = true;
  const run = () => { if (!queued) return; queued = false; render(); };
  requestAnimationFrame(run);
  setTimeout(run, 100); // a page in the background gets no frames
}
followTournament(watch, tid, (data) => {
  proj = data;
  document.body.dataset.version = String(data.version ?? "");
  const sig = signature(data);
  if (sig === shown) return;
  shown = sig;
  schedule();
},
  { onError: (code) => { if (code === "unknown_channel") notFound(); } });

function notFound() {
  found = false;
  watch.close();
  fill(app, notFoundCard("no_such_tournament", tid));
}

// ---------------------------------------------------------------- lookups
function players() { return new Map(((proj && proj.players) || []).map((p) => [p.id, p])); }

/** The match now on each called key's table (its live score), by match id. */
function liveMatches() {
  const out = new Map();
  for (const tb of (proj && proj.tables) || []) if (tb.match) out.set(tb.match.id, { match: tb.match, table: tb });
  return out;
}

function tableName(id) {
  const tb = ((proj && proj.tables) || []).find((x) => x.id === id);
  return tb ? tb.name : "";
}

/** key -> "winner of W1-3" / "loser of W2-1" for the slots of matches not known yet. */
function feeders(matches) {
  const out = new Map();
  for (const m of matches) {
    if (m.winner_to) (out.get(m.winner_to) || out.set(m.winner_to, []).get(m.winner_to)).push(["w", m.key]);
    if (m.loser_to) (out.get(m.loser_to) || out.set(m.loser_to, []).get(m.loser_to)).push(["l", m.key]);
  }
  return out;
}

// ---------------------------------------------------------------- round names
function roundNo(round) { const n = /(\d+)$/.exec(round || ""); return n ? Number(n[1]) : 0; }

function roundTitle(type, bracket, round, lastRound) {
  const n = roundNo(round);
  if (bracket === "final") return round === "GF2" ? t("br_gf_reset") : t("br_grand_final");
  if (bracket === "losers") return n === lastRound ? t("br_losers_final") : t("br_losers_round", { n });
  if (bracket === "winners") {
    if (type === "double_elimination" && n === lastRound) return t("br_winners_final");
    const fromEnd = lastRound - n;
    if (fromEnd === 0) return t("br_final");
    if (fromEnd === 1) return t("br_semis");
    if (fromEnd === 2) return t("br_quarters");
  }
  return t("br_round_n", { n });
}

// ---------------------------------------------------------------- a match card
function statusLine(m, live, queuePos) {
  switch (m.status) {
    case "called": {
      const lm = live.get(m.match_id);
      const where = tableName(m.table_id);
      if (lm && lm.match.status === "live") return { cls: "live", text: [t("br_live"), where].filter(Boolean).join(" · ") };
      if (lm && lm.match.status === "finished") return { cls: "done", text: t("br_finished") };
      return { cls: "called", text: t("br_on_table", { table: where || t("table") }) };
    }
    case "ready": return { cls: "ready", text: queuePos > 0 ? t("br_next_n", { n: queuePos }) : t("br_ready") };
    case "finished": return { cls: "done", text: t("br_finished") };
    case "walkover": return { cls: "wo", text: t("br_walkover") };
    case "bye": return { cls: "bye", text: t("br_bye") };
    default: return { cls: "waiting", text: "" };
  }
}

function scoreOf(m, pid, live) {
  if (m.status === "finished" && m.scores && pid in m.scores) return m.scores[pid];
  if (m.status === "called") {
    const lm = live.get(m.match_id);
    const p = lm && lm.match.status !== "scheduled" ? (lm.match.players || []).find((x) => x.id === pid) : null;
    if (p) return p.score ?? 0;
  }
  return null;
}

function card(m, ctx) {
  const st = statusLine(m, ctx.live, ctx.queue.indexOf(m.key) + 1);
  const from = ctx.feeders.get(m.key) || [];
  const slots = m.players.length ? m.players : [null, null];
  let fed = 0;
  const rows = slots.map((pid) => {
    const p = pid ? ctx.players.get(pid) : null;
    const won = m.winner && pid === m.winner;
    const lost = m.winner && pid && pid !== m.winner && (m.status === "finished" || m.status === "walkover");
    let label;
    let placeholder = false;
    if (p) label = p.name;
    else if (pid) label = String(pid);
    else {
      placeholder = true;
      if (m.status === "bye" || m.status === "walkover") label = t("br_bye_slot");
      else {
        // which feeder has not delivered yet: the n-th empty slot takes the n-th unresolved source
        const pending = from.filter(([, key]) => { const f = ctx.byKey.get(key); return !f || !["finished", "walkover", "bye"].includes(f.status); });
        const src = pending[fed++] || null;
        label = src ? t(src[0] === "w" ? "br_winner_of" : "br_loser_of", { key: src[1] }) : t("br_tbd");
      }
    }
    const sc = pid ? scoreOf(m, pid, ctx.live) : null;
    const gone = p && p.status === "withdrawn";
    return el("div", { class: `bm-p${won ? " winner" : ""}${lost ? " loser" : ""}${placeholder ? " tbd" : ""}${gone ? " withdrawn" : ""}`,
      dataset: pid ? { player: pid } : {}, title: gone ? t("br_withdrawn") : null },
      p && p.seed ? el("span", { class: "seed", text: String(p.seed) }) : el("span", { class: "seed" }),
      el("span", { class: "who" },
        el("span", { class: "name", text: label }),
        p && p.club ? el("span", { class: "club", text: p.club }) : null),
      m.status === "walkover" && lost ? el("span", { class: "sc wo", text: t("br_wo_short") })
        : el("span", { class: "sc", text: sc === null || sc === undefined ? "" : String(sc) }));
  });
  const attrs = {
    class: `bm st-${st.cls}`,
    dataset: { key: m.key, status: m.status, ...(m.winner ? { winner: m.winner } : {}) },
  };
  const head = el("div", { class: "bm-head" },
    el("span", { class: "bm-key", text: m.key }),
    el("span", { class: "bm-state", text: st.text }));
  if (m.match_id) {
    return el("a", { ...attrs, href: `/watch/${encodeURIComponent(m.match_id)}`, title: t("br_watch") }, head, rows);
  }
  return el("div", attrs, head, rows);
}

// ---------------------------------------------------------------- the draw types
function byRound(matches) {
  const rounds = new Map();
  for (const m of matches) (rounds.get(m.round) || rounds.set(m.round, []).get(m.round)).push(m);
  return [...rounds.entries()].sort((a, b) => roundNo(a[0]) - roundNo(b[0]));
}

function bracketSection(id, titleKey, matches, ctx) {
  if (!matches.length) return null;
  const rounds = byRound(matches);
  const last = Math.max(...rounds.map(([r]) => roundNo(r)));
  return el("section", { class: `card br-section br-${id}`, id: `br-${id}` },
    titleKey ? el("h2", { class: "section-title", text: t(titleKey) }) : null,
    el("div", { class: "rounds", dataset: { scroll: id } }, rounds.map(([round, ms]) => el("div", { class: "round", dataset: { round } },
      el("h3", { class: "round-title", text: roundTitle(ctx.type, ms[0].bracket, round, last) }),
      el("div", { class: "round-matches" }, ms.map((m) => card(m, ctx)))))));
}

function elimination(draw, ctx) {
  const ms = draw.matches || [];
  const double = draw.type === "double_elimination";
  const finals = ms.filter((m) => m.bracket === "final");
  return [
    bracketSection("winners", double ? "br_winners" : null, ms.filter((m) => m.bracket === "winners"), ctx),
    double ? bracketSection("losers", "br_losers", ms.filter((m) => m.bracket === "losers"), ctx) : null,
    finals.length ? el("section", { class: "card br-section br-final", id: "br-final" },
      el("div", { class: "finals" }, finals.map((m) => el("div", { class: "round" },
        el("h3", { class: "round-title", text: roundTitle(draw.type, "final", m.round, 0) }), card(m, ctx))))) : null,
  ];
}

function standingsTable(rows, ctx, chase) {
  return el("table", { class: "grid standings", dataset: { group: (rows[0] && rows[0].group) || "" } },
    el("thead", {}, el("tr", {},
      el("th", { class: "num", text: "#" }),
      el("th", { text: t("br_player") }),
      el("th", { class: "num", text: t("br_played"), title: t("br_played_long") }),
      el("th", { class: "num", text: t("br_won"), title: t("br_won_long") }),
      chase ? null : el("th", { class: "num", text: t("br_lost"), title: t("br_lost_long") }),
      chase ? el("th", { class: "num", text: t("br_byes") }) : el("th", { class: "num", text: "+/−", title: t("br_diff_long") }),
      el("th", { class: "num", text: t("br_points"), title: chase ? t("br_points_chase") : t("br_points_rr") }))),
    el("tbody", {}, rows.map((s) => {
      const p = ctx.players.get(s.player);
      const champ = ctx.champion && ctx.champion === s.player;
      const diff = (s.score_for ?? 0) - (s.score_against ?? 0);
      return el("tr", { class: `${champ ? "champion" : ""} ${p && p.status === "withdrawn" ? "withdrawn" : ""}`, dataset: { player: s.player } },
        el("td", { class: "num rank", text: String(s.rank ?? "") }),
        el("td", { class: "who" }, el("span", { class: "name", text: p ? p.name : String(s.player) }),
          p && p.club ? el("span", { class: "club", text: p.club }) : null),
        el("td", { class: "num", text: String(s.played ?? 0) }),
        el("td", { class: "num", text: String(s.won ?? 0) }),
        chase ? null : el("td", { class: "num", text: String(s.lost ?? 0) }),
        chase ? el("td", { class: "num", text: String(s.byes ?? 0) })
          : el("td", { class: "num", text: diff > 0 ? `+${diff}` : String(diff) }),
        el("td", { class: "num pts", text: String(s.points ?? 0) }));
    })));
}

function matchGrid(matches, ctx) {
  return el("div", { class: "rr-rounds" }, byRound(matches).map(([round, ms]) => el("div", { class: "rr-round", dataset: { round } },
    el("h3", { class: "round-title", text: t("br_round_n", { n: roundNo(round) }) }),
    el("div", { class: "rr-matches" }, ms.map((m) => card(m, ctx))))));
}

function groups(draw, ctx) {
  const standings = (proj && proj.standings) || [];
  const names = [...new Set([...(draw.matches || []).map((m) => m.group), ...standings.map((s) => s.group)].filter(Boolean))].sort();
  if (!names.length) names.push(null);
  const many = names.length > 1;
  return names.map((g) => {
    const rows = standings.filter((s) => (s.group || null) === g).sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0));
    return el("section", { class: "card br-section br-group", id: `group-${g || "all"}`, dataset: { group: g || "" } },
      el("h2", { class: "section-title plain", text: many ? t("br_group", { g }) : t("br_standings") }),
      rows.length ? standingsTable(rows, ctx, false) : null,
      matchGrid((draw.matches || []).filter((m) => (m.group || null) === g), ctx));
  });
}

function chase(draw, ctx) {
  const rows = ((proj && proj.standings) || []).slice().sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0));
  return [
    el("section", { class: "card br-section br-group", id: "group-all" },
      el("h2", { class: "section-title plain", text: t("br_standings") }),
      rows.length ? standingsTable(rows, ctx, true) : null),
    el("section", { class: "card br-section br-chase", id: "br-rounds" }, matchGrid(draw.matches || [], ctx)),
  ];
}

// ---------------------------------------------------------------- the top card
function exportLinks() {
  const base = `/api/tournaments/${encodeURIComponent(tid)}`;
  return el("div", { class: "exports", id: "exports" },
    el("span", { class: "muted", text: t("br_export") }),
    el("a", { class: "btn small", id: "export-json", href: `${base}/results.json`, download: "", text: t("br_export_json") }),
    el("a", { class: "btn small", id: "export-csv", href: `${base}/results.csv`, download: "", text: t("br_export_csv") }),
    el("a", { class: "btn small", id: "export-placings", href: `${base}/placings.csv`, download: "", text: t("br_export_placings") }));
}

function summary(draw, ctx) {
  const ms = draw ? (draw.matches || []).filter((m) => m.status !== "bye") : [];
  const done = ms.filter((m) => m.status === "finished" || m.status === "walkover").length;
  const playing = ms.filter((m) => m.status === "called" && (ctx.live.get(m.match_id) || {}).match
    && ctx.live.get(m.match_id).match.status === "live").length;
  const facts = draw ? [tc("br_type", draw.type), draw.match ? tc("d", draw.match.discipline) : "",
    draw.match ? formatLabel(draw.match) : ""].filter(Boolean).join(" · ") : "";
  const finished = draw && draw.status === "finished";
  const champ = finished && draw.champion ? ctx.players.get(draw.champion) : null;
  return [
    el("h1", { class: "br-name", id: "br-name", text: proj.name || "" }),
    draw ? el("div", { class: "muted br-facts", id: "br-facts", text: facts }) : null,
    !draw ? el("p", { class: "muted", id: "no-draw", text: t("br_no_draw", { n: ((proj && proj.players) || []).length }) })
      : el("div", { class: "br-progress", id: "br-progress" },
        el("span", { class: `badge ${finished ? "status-finished" : "status-live"}`, id: "draw-status", text: finished ? t("br_draw_finished") : t("br_draw_running") }),
        el("span", { class: "muted", text: t("br_played_of", { done, total: ms.length }) }),
        !finished && playing ? el("span", { class: "muted", text: t("br_playing_now", { n: playing }) }) : null),
    champ ? el("div", { class: "champion-banner", id: "champion" },
      el("span", { class: "trophy", text: "★" }),
      el("span", { class: "label", text: t("br_champion") }),
      el("span", { class: "name", id: "champion-name", text: champ.name }),
      champ.club ? el("span", { class: "club", text: champ.club }) : null) : null,
    finished && !champ ? el("div", { class: "champion-banner", id: "champion" },
      el("span", { class: "label", text: t("br_group_winners") }),
      ((proj && proj.standings) || []).filter((s) => s.rank === 1).sort((a, b) => String(a.group).localeCompare(String(b.group)))
        .map((s) => el("span", { class: "group-winner", dataset: { group: s.group || "" } },
          s.group ? el("span", { class: "muted", text: `${t("br_group", { g: s.group })} ` }) : null,
          el("span", { class: "name", text: (ctx.players.get(s.player) || {}).name || String(s.player) })))) : null,
    finished ? exportLinks() : null,
  ];
}

/** Before the draw: who has entered, by seed then in order of entry. */
function entrants() {
  const ps = ((proj && proj.players) || []).slice().sort((a, b) => (a.seed ?? 1e9) - (b.seed ?? 1e9));
  if (!ps.length) return null;
  return el("section", { class: "card br-section", id: "entrants" },
    el("h2", { class: "section-title", text: t("br_entrants", { n: ps.length }) }),
    el("ol", { class: "entrants" }, ps.map((p) => el("li", { dataset: { player: p.id } },
      p.seed ? el("span", { class: "seed", text: String(p.seed) }) : el("span", { class: "seed" }),
      el("span", { class: "name", text: p.name }),
      p.club ? el("span", { class: "club", text: p.club }) : null))));
}

// ---------------------------------------------------------------- render
function render() {
  if (!found || !proj) return;
  const draw = proj.draw;
  document.getElementById("tournament-name").textContent = proj.name || "";
  document.title = `${proj.name || ""} · ${t("bracket_title")} · cuehub`;
  document.body.dataset.draw = draw ? draw.status : "none";
  document.body.dataset.type = draw ? draw.type : "";
  const matches = draw ? draw.matches || [] : [];
  const ctx = {
    type: draw ? draw.type : null,
    players: players(),
    live: liveMatches(),
    queue: (proj.queue || []),
    byKey: new Map(matches.map((m) => [m.key, m])),
    feeders: feeders(matches),
    champion: draw ? draw.champion : null,
  };
  // Keep each bracket's horizontal scroll (a phone swiping through the rounds) across updates.
  const scrolls = new Map([...body.querySelectorAll("[data-scroll]")].map((n) => [n.dataset.scroll, n.scrollLeft]));
  fill(top, summary(draw, ctx));
  if (!draw) fill(body, entrants());
  else if (draw.type === "single_elimination" || draw.type === "double_elimination") fill(body, elimination(draw, ctx));
  else if (draw.type === "chase_groups") fill(body, chase(draw, ctx));
  else fill(body, groups(draw, ctx));
  for (const n of body.querySelectorAll("[data-scroll]")) {
    if (scrolls.has(n.dataset.scroll)) n.scrollLeft = scrolls.get(n.dataset.scroll);
    else toCurrentRound(n);
  }
}

/** A bracket seen for the first time on a narrow screen opens at the round being played (the
 * first with a match not decided yet; the last one once all are). */
function toCurrentRound(scroller) {
  if (scroller.scrollWidth <= scroller.clientWidth) return;
  const rounds = [...scroller.querySelectorAll(".round")];
  const open = rounds.find((r) => [...r.querySelectorAll(".bm")].some((c) => !["finished", "walkover", "bye"].includes(c.dataset.status)));
  const target = open || rounds[rounds.length - 1];
  if (target && target !== rounds[0]) scroller.scrollLeft = target.offsetLeft - rounds[0].offsetLeft;
}

onLangChange(render);

// The live bracket: /bracket/{tournament_id} — for fans on a phone and for the venue's TV.
// Follows `tournament:{tid}` over /ws/watch (PROTOCOL.md sections 7, 10 and 11; deltas applied by tournament_feed.js): the winners and losers
// brackets and the grand final (with its reset) of an elimination drawn as a bracket (connector
// lines, round tabs, finished rounds folded in big fields: bracket-draw.js, bracket-lines.js), the
// group tables and standings of a round robin or a chase night, both stages of a two-stage draw,
// and "Find a player" (bracket-search.js). Every match links to its watch page. Names come from the
// hub and are only ever set as text, each isolated in a <bdi>.
//
// The page is a function of the whole projection: `showProjection(p)` is all the feed calls, so a
// feed that applies deltas and hands over the whole projection (tournament_feed.js) calls it.
import { t, tc, lang, onLangChange } from "./i18n.js";
import { Watch } from "./live.js";
import { followTournament } from "./tournament_feed.js";
import { el, fill, pathId, header, setConn, formatLabel, notFoundCard } from "./ui.js";
import { DECIDED, drawContext, isMatch } from "./draw-view.js";
import { drawBody, playerNode, sectionOf } from "./bracket-draw.js";
import { viewOf } from "./draw-formats.js";
import { wireBracket, drawLines, scrollToRound } from "./bracket-lines.js";
import { PlayerSearch } from "./bracket-search.js";

const tid = pathId();
header("bracket_title", [
  el("span", { class: "tname", id: "tournament-name" }),
  el("a", { class: "btn small board-link", id: "board-link", href: `/board/${encodeURIComponent(tid)}`, "data-i18n": "scoreboard" }),
]);
const app = document.getElementById("app");
const top = el("section", { class: "card br-top", id: "summary" }, el("p", { class: "muted", text: t("loading") }));
const body = el("div", { class: "br-body", id: "bracket" });

let proj = null;
let ctx = null;
let found = true;
// The fan's folding choices ("winners:W1" opened or folded by hand), and a round to bring into view.
const view = { folded: new Set(), opened: new Set(), goto: null };
const search = new PlayerSearch({ tid, getProj: () => proj, getCtx: () => ctx, onReveal: reveal });
app.append(top, search.node, body);

const watch = new Watch({ onStatus: (s) => { if (!found) return; setConn(s); document.body.dataset.conn = s; } });
// Every stroke on any table of the tournament is an update; only what the bracket shows redraws it,
// at most once a frame.
let shown = null;
let queued = false;
function signature(p) {
  const d = p.draw || {};
  return JSON.stringify([p.name, p.players, d.status, d.champion, d.matches, d.stages, p.queue, p.standings,
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

/** The whole projection, from whatever feed: redraw when what the bracket shows changed. */
function showProjection(data) {
  // when the first projection arrived, after navigation (bench/bracket_render.py reads it)
  if (!proj) document.body.dataset.dataAtMs = String(Math.round(performance.now()));
  proj = data;
  document.body.dataset.version = String(data.version ?? "");
  const sig = signature(data);
  if (sig === shown) return;
  shown = sig;
  schedule();
}
followTournament(watch, tid, showProjection,
  { onError: (code) => { if (code === "unknown_channel") notFound(); } });

function notFound() {
  found = false;
  watch.close();
  fill(app, notFoundCard("no_such_tournament", tid));
}

/** The search wants a match's card shown: unfold its round (its cards may not be built), redraw,
 * bring its round into view and return the card. */
function reveal(key) {
  const m = ctx && ctx.byKey.get(key);
  if (!m) return null;
  const section = sectionOf(m);
  const k = `${section}:${m.round}`;
  if (view.folded.has(k) || !body.querySelector(`.bm[data-key='${CSS.escape(key)}']`)
      || body.querySelector(`.bm[data-key='${CSS.escape(key)}']`).offsetParent === null) {
    view.folded.delete(k);
    view.opened.add(k);
    view.goto = { scroll: section, round: m.round };
    render();
  }
  return body.querySelector(`.bm[data-key='${CSS.escape(key)}']`);
}

// ---------------------------------------------------------------- the top card
function exportLinks() {
  const base = `/api/tournaments/${encodeURIComponent(tid)}`;
  const inLang = `?lang=${encodeURIComponent(lang())}`; // round names (and a bye) in the page's language
  return el("div", { class: "exports", id: "exports" },
    el("span", { class: "muted", text: t("br_export") }),
    el("a", { class: "btn small", id: "export-json", href: `${base}/results.json${inLang}`, download: "", text: t("br_export_json") }),
    el("a", { class: "btn small", id: "export-csv", href: `${base}/results.csv${inLang}`, download: "", text: t("br_export_csv") }),
    el("a", { class: "btn small", id: "export-placings", href: `${base}/placings.csv`, download: "", text: t("br_export_placings") }));
}

function summary(draw, ctx) {
  const ms = draw ? (draw.matches || []).filter(isMatch) : [];
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
      playerNode(champ, champ.name, { id: "champion-name" }),
      champ.club ? el("span", { class: "club", text: champ.club }) : null) : null,
    finished && !champ ? el("div", { class: "champion-banner", id: "champion" },
      el("span", { class: "label", text: t("br_group_winners") }),
      ((proj && proj.standings) || []).filter((s) => s.rank === 1).sort((a, b) => String(a.group).localeCompare(String(b.group)))
        .map((s) => el("span", { class: "group-winner", dataset: { group: s.group || "" } },
          s.group ? el("span", { class: "muted", text: `${t("br_group", { g: s.group })} ` }) : null,
          playerNode(ctx.players.get(s.player) || { name: String(s.player) })))) : null,
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
      playerNode(p),
      p.club ? el("bdi", { class: "club", text: p.club }) : null))));
}

// ---------------------------------------------------------------- render
function render() {
  if (!found || !proj) return;
  const t0 = performance.now();
  const draw = proj.draw;
  document.getElementById("tournament-name").textContent = proj.name || "";
  document.title = `${proj.name || ""} · ${t("bracket_title")} · cuehub`;
  document.body.dataset.draw = draw ? draw.status : "none";
  document.body.dataset.layout = draw ? viewOf(draw.type).layout : "";
  document.body.dataset.stages = draw && Array.isArray(draw.stages) ? String(draw.stages.length) : "1";
  ctx = drawContext(proj);
  // Keep each bracket's horizontal scroll (a phone swiping through the rounds) across updates.
  const scrolls = new Map([...body.querySelectorAll("[data-scroll]")].map((n) => [n.dataset.scroll, n.scrollLeft]));
  fill(top, summary(draw, ctx));
  fill(body, draw ? drawBody(proj, ctx, view) : entrants());
  search.node.classList.toggle("hidden", !(proj.players || []).length);
  for (const n of body.querySelectorAll("[data-scroll]")) {
    if (scrolls.has(n.dataset.scroll)) n.scrollLeft = scrolls.get(n.dataset.scroll);
    else toCurrentRound(n);
  }
  if (view.goto) {
    const n = body.querySelector(`[data-scroll='${CSS.escape(view.goto.scroll)}']`);
    if (n) scrollToRound(n, view.goto.round, false);
    view.goto = null;
  }
  const lines = wireBracket(body, ctx.byKey, view, render);
  search.apply(body);
  document.body.dataset.lines = String(lines);
  document.body.dataset.renderMs = String(Math.round(performance.now() - t0));
  document.body.dataset.rendered = String(Number(document.body.dataset.rendered || 0) + 1);
}

/** A bracket seen for the first time on a narrow screen opens at the round being played (the
 * first with a match not decided yet; the last one once all are). */
function toCurrentRound(scroller) {
  if (scroller.scrollWidth <= scroller.clientWidth) return;
  const rounds = [...scroller.querySelectorAll(".round")];
  const open = rounds.find((r) => [...r.querySelectorAll(".bm")].some((c) => !DECIDED.includes(c.dataset.status)));
  const target = open || rounds[rounds.length - 1];
  if (target && target !== rounds[0]) scroller.scrollLeft = target.offsetLeft - rounds[0].offsetLeft;
}

// A phone turned to a wide screen (or back) folds its rounds again.
matchMedia("(max-width: 700px)").addEventListener("change", () => schedule());
// The lines follow the cards when the screen turns or the window is resized.
let resizing = null;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => {
    if (!ctx) return;
    drawLines(body.querySelectorAll(".rounds-canvas"), ctx.byKey);
  }, 150);
});

onLangChange(() => { search.relabel(); render(); });

// The bracket page's drawing of a draw (clients/web/js/bracket.js owns the page): match cards,
// the elimination brackets as columns of rounds (each with a round tab, see bracket-lines.js for
// the connector lines, the tabs and the scroll cue), the group tables, and both stages of a
// two-stage draw (docs/tournaments.md "What the tournament projection shows"). Every function
// takes the whole projection's context (draw-view.js drawContext) and returns nodes.
import { t, tc } from "./i18n.js";
import { el, isolated, membersLine } from "./ui.js";
import { toProfile } from "./people-view.js";
import { DECIDED, lastRoundOf, roundNo, roundTitle, matchState, slotLabels, scoreOf, raceText, sideMembers } from "./draw-view.js";
import { viewOf } from "./draw-formats.js";
import { teamBlock } from "./team-view.js";

/** A player's name, isolated so that a right-to-left or mixed name never reorders what is beside
 * it, leading to their profile (/people/{id}) where the entry has a person. */
export function playerNode(p, text = p && p.name, attrs = {}) {
  return toProfile(p && p.person, el("bdi", { class: "name", ...attrs, text }));
}

/** A name with its mark (the winner's ✓, the champion's ★) after it, outside the name's isolation:
 * inside it, a right-to-left name would put the mark on its left. */
function withMark(name, mark) {
  return el("span", { class: "nm" }, name, mark ? el("span", { class: "nm-mark", text: mark }) : null);
}

export function card(m, ctx) {
  const st = matchState(m, ctx);
  const rows = slotLabels(m, ctx).map((slot) => {
    const pid = slot.pid || null;
    const p = pid ? ctx.players.get(pid) : null;
    const won = m.winner && pid === m.winner;
    const lost = m.winner && pid && pid !== m.winner && (m.status === "finished" || m.status === "walkover");
    const sc = pid ? scoreOf(m, pid, ctx) : null;
    const gone = p && p.status === "withdrawn";
    return el("div", { class: `bm-p${won ? " winner" : ""}${lost ? " loser" : ""}${pid ? "" : " tbd"}${gone ? " withdrawn" : ""}`,
      dataset: pid ? { player: pid } : {}, title: gone ? t("br_withdrawn") : null },
      p && p.seed ? el("span", { class: "seed", text: String(p.seed) }) : el("span", { class: "seed" }),
      el("span", { class: "who" },
        withMark(playerNode(p, p ? p.name : pid ? String(pid) : slot.text), won ? "✓" : ""),
        p && p.club ? el("bdi", { class: "club", text: p.club }) : null,
        pid ? (({ due, ...side }) => membersLine(side, due))(sideMembers(m, pid, ctx)) : null),
      m.status === "walkover" && lost ? el("span", { class: "sc wo", text: t("br_wo_short") })
        : el("span", { class: "sc", text: sc === null || sc === undefined ? "" : String(sc) }));
  });
  const attrs = {
    class: `bm st-${st.cls}`, id: `m-${m.key}`,
    dataset: { key: m.key, status: m.status, ...(m.winner ? { winner: m.winner } : {}) },
  };
  const head = el("div", { class: "bm-head" },
    el("span", { class: "bm-key", text: m.key }),
    raceText(m, ctx) ? el("span", { class: "bm-race", text: raceText(m, ctx) }) : null,
    el("span", { class: "bm-state" }, isolated(st.text, st.table, st.names)));
  // A card with a match is a link to watch it, stretched over the card (a.bm-watch) under the names,
  // which lead to the players' profiles: a link is never inside another.
  const watch = m.match_id ? el("a", { class: "bm-watch", href: `/watch/${encodeURIComponent(m.match_id)}`, title: t("br_watch"),
    "aria-label": `${t("br_watch")} ${m.key}` }) : null;
  return el("div", watch ? { ...attrs, class: `${attrs.class} has-watch` } : attrs, watch, head, rows,
    m.team && m.status !== "bye" ? teamBlock(m, ctx) : null);
}

/** The id of the bracket section a draw match is drawn in (stage 2's are "s2-..."). */
export function sectionOf(m) {
  const stage = m.stage && m.stage > 1 ? `s${m.stage}-` : "";
  return `${stage}${m.bracket === "losers" ? "losers" : "winners"}`;
}

export function byRound(matches) {
  const rounds = new Map();
  for (const m of matches) (rounds.get(m.round) || rounds.set(m.round, []).get(m.round)).push(m);
  // the grand final and its reset come after every winners round
  const order = ([round, ms]) => (ms[0].bracket === "final" ? 1000 : 0) + roundNo(round);
  return [...rounds.entries()].sort((a, b) => order(a) - order(b));
}

// Finished rounds fold away on a phone (where the rounds are one screen wide and the tallest one
// sets the height) and in a big field: a finished 256-player bracket is not 15,000 px tall.
const BIG_ROUND = 16; // matches in a bracket's first round
const KEEP_OPEN = 2; // a bracket's last rounds (besides the grand final) never fold by themselves

export function narrowScreen() { return matchMedia("(max-width: 700px)").matches; }

/** Which rounds of a bracket start folded: on a phone or in a big field, a finished round whose
 * next round is finished too; never the last two. `view.opened`/`view.folded`: the fan's choices. */
function foldedRounds(id, rounds, view) {
  const out = new Set();
  const auto = narrowScreen() || (rounds.length && rounds[0][1].length > BIG_ROUND);
  const done = rounds.map(([, ms]) => ms.every((m) => DECIDED.includes(m.status)));
  const plain = rounds.filter(([, ms]) => ms[0].bracket !== "final").length;
  rounds.forEach(([round], i) => {
    const key = `${id}:${round}`;
    if (view.folded.has(key)) out.add(round);
    else if (view.opened.has(key)) return;
    // the round before the one being played stays open: where its players came from (and a result
    // that just came in stays in view)
    else if (auto && done[i] && done[i + 1] && i < plain - KEEP_OPEN) out.add(round);
  });
  return out;
}

/** One bracket: a tab per round, then the rounds side by side (a phone swipes through them). */
export function bracketSection(id, title, matches, ctx, view) {
  if (!matches.length) return null;
  const rounds = byRound(matches);
  const last = lastRoundOf(matches);
  const folded = foldedRounds(id, rounds, view);
  const titles = rounds.map(([round, ms]) => roundTitle(ctx.type, ms[0].bracket, round, last, ctx.stopped));
  const tabs = el("div", { class: "round-tabs", role: "tablist", "aria-label": title || t("br_rounds") },
    rounds.map(([round], i) => el("button", {
      type: "button", role: "tab", class: "round-tab", id: `tab-${id}-${round}`, "aria-controls": `col-${id}-${round}`,
      "aria-selected": "false", tabindex: "-1", dataset: { round, section: id }, text: titles[i] })));
  const cols = rounds.map(([round, ms], i) => {
    const isFolded = folded.has(round);
    const played = ms.filter((m) => DECIDED.includes(m.status) && m.status !== "bye").length;
    return el("div", { class: `round${isFolded ? " folded" : ""}`, id: `col-${id}-${round}`, role: "tabpanel",
      "aria-labelledby": `tab-${id}-${round}`, dataset: { round, section: id } },
      el("button", { type: "button", class: "round-title", dataset: { fold: `${id}:${round}` },
        "aria-expanded": isFolded ? "false" : "true",
        title: isFolded ? t("br_unfold") : t("br_fold") },
        el("span", { class: "rt-name", text: titles[i] }),
        isFolded ? el("span", { class: "rt-count", text: t("br_folded_n", { n: played }) }) : null),
      // a folded round of a big field is not built at all (the search unfolds it to show a card)
      el("div", { class: "round-matches" }, isFolded && ms.length > BIG_ROUND ? null : ms.map((m) => card(m, ctx))));
  });
  return el("section", { class: `card br-section br-${id}`, id: `br-${id}` },
    title ? el("h2", { class: "section-title", text: title }) : null,
    tabs,
    el("div", { class: "rounds-wrap" },
      el("div", { class: "rounds", dataset: { scroll: id }, tabindex: "0", "aria-label": title || t("br_rounds") },
        el("div", { class: "rounds-canvas" }, cols)),
      el("div", { class: "scroll-cue", "aria-hidden": "true" }, el("span", { text: "›" }))));
}

/** A bracket (its format's `view.layout`; the knockout stage too): winners, losers, grand final. The grand
 * final (and its reset) closes the winners bracket's columns, so its lines join the winners final. */
export function elimination(matches, ctx, view, prefix = "", type = ctx.type) {
  const double = viewOf(type).losers;
  // a bracket with a losers side and no grand final stops for a next stage: its rounds are named plainly
  const sub = { ...ctx, type, stopped: double && !matches.some((m) => m.bracket === "final") };
  const winners = matches.filter((m) => m.bracket === "winners" || m.bracket === "final" || !m.bracket);
  return [
    bracketSection(`${prefix}winners`, double ? t("br_winners") : null, winners, sub, view),
    double ? bracketSection(`${prefix}losers`, t("br_losers"), matches.filter((m) => m.bracket === "losers"), sub, view) : null,
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
      const diff = (s.score_for ?? 0) - (s.score_against ?? 0);
      return el("tr", { dataset: { player: s.player }, class: `${ctx.champion === s.player ? "champion" : ""} ${p && p.status === "withdrawn" ? "withdrawn" : ""}` },
        el("td", { class: "num rank", text: String(s.rank ?? "") }),
        el("td", { class: "who" }, withMark(playerNode(p, p ? p.name : String(s.player)), ctx.champion === s.player ? "★" : ""),
          p && p.club ? el("bdi", { class: "club", text: p.club }) : null),
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

export function groups(matches, standings, ctx) {
  const names = [...new Set([...matches.map((m) => m.group), ...standings.map((s) => s.group)].filter(Boolean))].sort();
  if (!names.length) names.push(null);
  const many = names.length > 1;
  return names.map((g) => {
    const rows = standings.filter((s) => (s.group || null) === g).sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0));
    return el("section", { class: "card br-section br-group", id: `group-${g || "all"}`, dataset: { group: g || "" } },
      el("h2", { class: "section-title plain", text: many ? t("br_group", { g }) : t("br_standings") }),
      rows.length ? standingsTable(rows, ctx, false) : null,
      matchGrid(matches.filter((m) => (m.group || null) === g), ctx));
  });
}

export function chase(matches, standings, ctx) {
  const rows = standings.slice().sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0));
  return [
    el("section", { class: "card br-section br-group", id: "group-all" },
      el("h2", { class: "section-title plain", text: t("br_standings") }),
      rows.length ? standingsTable(rows, ctx, true) : null),
    el("section", { class: "card br-section br-chase", id: "br-rounds" }, matchGrid(matches, ctx)),
  ];
}

/** One stage's drawing by its own type's layout. */
function stageBody(type, matches, standings, ctx, view, prefix) {
  const layout = viewOf(type).layout;
  if (layout === "bracket") return elimination(matches, ctx, view, prefix, type);
  if (layout === "chase") return chase(matches, standings, ctx);
  return groups(matches, standings, ctx);
}

/** The whole draw: one stage as before, or each stage under its own heading (stage 2: "s2-" ids). */
export function drawBody(proj, ctx, view) {
  const draw = proj.draw;
  const matches = draw.matches || [];
  const standings = proj.standings || [];
  const stages = Array.isArray(draw.stages) && draw.stages.length > 1 ? draw.stages : null;
  if (!stages) return stageBody(draw.type, matches, standings, ctx, view, "");
  return stages.map((s) => {
    const n = s.stage;
    const ms = matches.filter((m) => (m.stage || 1) === n);
    const prefix = n === 1 ? "" : `s${n}-`;
    const advanced = (s.advanced || []).map((pid) => ctx.players.get(pid) || { name: String(pid) });
    return el("div", { class: `br-stage stage-${n}`, id: `stage-${n}`, dataset: { stage: n, status: s.status || "" } },
      el("h2", { class: "stage-title" },
        el("span", { text: t("br_stage_n", { n }) }),
        el("span", { class: "muted", text: ` · ${tc("br_type", s.type)}` }),
        s.status ? el("span", { class: `badge stage-${s.status}`, text: tc("br_stage_status", s.status) }) : null),
      n > 1 && !ms.some((m) => (m.players || []).some((p) => p && p !== "bye"))
        ? el("p", { class: "muted", text: t("br_stage_waiting", { n: s.advance || "" }) }) : null,
      advanced.length && s.stage < stages.length ? el("p", { class: "advanced muted" },
        el("span", { text: `${t("br_advanced")} ` }), advanced.map((p, i) => [i ? ", " : "", playerNode(p)])) : null,
      stageBody(s.type, ms, standings.filter((r) => (r.stage || 1) === n), ctx, view, prefix));
  });
}

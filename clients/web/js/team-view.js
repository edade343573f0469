// A team match as every page shows it (PROTOCOL.md section 15): the score in rubbers and each
// rubber with its lineup, its state and its own score (live from the table's match while it is
// played). Pure DOM builders of the tournament projection's `draw.matches[].team` and the page's
// draw context (draw-view.js drawContext); no page branches on a format: `team` is there or not.
import { t } from "./i18n.js";
import { el } from "./ui.js";
import { tableName } from "./draw-view.js";

/** member id -> {name, team} of every team of the projection. */
export function memberIndex(ctx) {
  const out = new Map();
  for (const p of ctx.players.values()) for (const m of p.members || []) out.set(m.id, { name: m.name, team: p.id });
  return out;
}

function nameOf(ctx, members, id) {
  const m = members.get(id);
  if (m) return m.name;
  const p = ctx.players.get(id);
  return p ? p.name : String(id);
}

/** A rubber's two sides' scores: the result, or the live match's score (players are member or team ids). */
export function rubberScores(r, ctx, members) {
  if (r.scores) return r.scores;
  const lm = r.match_id ? ctx.live.get(r.match_id) : null;
  if (!lm || lm.match.status === "scheduled") return null;
  const out = {};
  for (const p of lm.match.players || []) out[members.has(p.id) ? members.get(p.id).team : p.id] = p.score ?? 0;
  return out;
}

function rubberState(r, ctx, members) {
  const where = tableName(ctx, r.table_id);
  switch (r.status) {
    case "finished": return t("tm_st_finished", { name: nameOf(ctx, members, r.winner) });
    case "dropped": return t("tm_st_dropped");
    case "walkover": return t("tm_st_walkover", { name: nameOf(ctx, members, r.winner) }); // the team match given without play
    case "called": {
      const lm = ctx.live.get(r.match_id);
      return t(lm && lm.match.status === "live" ? "tm_st_live" : "tm_st_called", { table: where || t("table") });
    }
    case "ready": return t("tm_st_ready");
    default:
      return r.named && r.named.length
        ? t("tm_st_named", { names: r.named.map((id) => nameOf(ctx, members, id)).join(", ") })
        : t("tm_st_waiting");
  }
}

/** The list of a team match's rubbers: "Rubber 3 · Singles · A v B · 4–2 · Live · Table 2". */
export function rubberList(m, ctx) {
  const members = memberIndex(ctx);
  const teams = m.players || [];
  return el("ol", { class: "tm-rubbers" }, (m.team.rubbers || []).map((r) => {
    const sides = teams.map((team) => {
      const ids = (r.lineups || {})[team] || [];
      return ids.length ? ids.map((id) => nameOf(ctx, members, id)).join(" / ") : "…";
    });
    const sc = rubberScores(r, ctx, members);
    return el("li", { class: `tm-rubber st-${r.status}`, dataset: { rubber: String(r.rubber), status: r.status } },
      el("span", { class: "tm-n", text: t("tm_rubber_n", { n: r.rubber }) }),
      el("span", { class: "tm-kind", text: t(`tm_kind_${r.kind}`) }),
      el("span", { class: "tm-sides" }, sides.map((s, i) => [i ? " v " : "", el("bdi", { text: s })])),
      el("span", { class: "tm-score", text: sc ? teams.map((team) => sc[team] ?? 0).join("–") : "" }),
      el("span", { class: "tm-state", text: rubberState(r, ctx, members) }));
  }));
}

/** "2–1 · first to 3": a team match's score in rubbers. */
export function teamScoreText(m) {
  const score = m.team.score || {};
  return `${(m.players || []).map((p) => score[p] ?? 0).join("–")} · ${t("tm_to_win", { n: m.team.to_win })}`;
}

/** The block under a draw match's card: the score in rubbers, then the rubbers. */
export function teamBlock(m, ctx) {
  return el("div", { class: "tm-block", dataset: { key: m.key } },
    el("div", { class: "tm-head" },
      el("span", { class: "tm-label", text: t("tm_rubbers") }),
      el("span", { class: "tm-total", text: teamScoreText(m) })),
    rubberList(m, ctx));
}

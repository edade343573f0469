// What the people pages, the commentator and the overlay share (PROTOCOL.md section 12): a name
// that leads to its person's profile, and a player's statistics (`stats`: a summary per discipline
// and in total, docs/people.md "Statistics") as labelled rows. Which counts a game has comes from
// its traits (`stats` of GET /api/disciplines): no discipline is known here by its name.
import { t, tc, lang } from "./i18n.js";
import { el } from "./ui.js";
import { traitsOf } from "./disciplines.js";

/** The profile's address of a person id. */
export function personHref(person) { return `/people/${encodeURIComponent(person)}`; }

/** `node` (a name) inside a link to the profile of `person`, or as it is without one. */
export function toProfile(person, node) {
  return person ? el("a", { class: "person-link", href: personHref(person), dataset: { person } }, node) : node;
}

/** A player's name: a link to their profile where the entry has a person, else the name alone. Always
 * isolated (<bdi>), so a right-to-left name never reorders what is beside it. */
export function personName(name, person, attrs = {}) {
  const text = el("bdi", { text: name ?? "" });
  if (!person) return el("span", { ...attrs, class: `name ${attrs.class || ""}`.trim() }, text);
  return el("a", { ...attrs, class: `name person-link ${attrs.class || ""}`.trim(), href: personHref(person),
    dataset: { person, ...(attrs.dataset || {}) } }, text);
}

/** `n` of `d` as a whole percentage, or null when nothing was counted. */
export function percent(n, d) { return d ? Math.round((100 * n) / d) : null; }

function seconds(ms) { return ms === null || ms === undefined ? "–" : (ms / 1000).toFixed(1); }

function wonOf(won, played) {
  const p = percent(won, played);
  return `${t("pp_won_of", { won, played })}${p === null ? "" : ` · ${t("pp_pct", { n: p })}`}`;
}

/** The counts a set of disciplines have (the union of their traits' `stats`). */
function countsOf(disciplines) {
  const out = new Set();
  for (const d of disciplines) for (const s of traitsOf(d).stats) out.add(s);
  return out;
}

/** A summary (`stats.total` or `stats.disciplines[d]`) as rows `[id, label, value]`; `disciplines`
 * are the games it covers (their traits say which counts apply). Rows with nothing to say are left out. */
export function statRows(s, disciplines) {
  if (!s) return [];
  const counts = countsOf(disciplines);
  const rows = [];
  const m = s.matches || {}, r = s.racks || {}, b = s.breaks || {}, st = s.strokes || {}, it = s.intent || {};
  if (m.played) rows.push(["matches", t("pp_matches_won"), wonOf(m.won || 0, m.played)]);
  if (r.played) rows.push(["racks", t("pp_racks_won"), wonOf(r.won || 0, r.played)]);
  if (r.won) {
    rows.push(["own_break", t("pp_racks_own_break"), String(r.won_on_own_break || 0)]);
    rows.push(["opp_break", t("pp_racks_opp_break"), String(r.won_on_opponent_break || 0)]);
  }
  if (b.taken) {
    rows.push(["breaks", t("pp_breaks"), String(b.taken)]);
    rows.push(["break_balls", t("pp_break_balls"), (b.balls / b.taken).toFixed(2)]);
    rows.push(["dry", t("pp_dry_breaks"), `${b.dry || 0} · ${t("pp_pct", { n: percent(b.dry || 0, b.taken) })}`]);
    rows.push(["break_fouls", t("pp_break_fouls"), String(b.fouls || 0)]);
    rows.push(["break_racks", t("pp_break_racks_won"), String(b.racks_won || 0)]);
  }
  for (const k of ["break_and_runs", "table_runs", "golden_breaks", "loss_of_chance"]) {
    if (counts.has(k) && (st.count || s[k])) rows.push([k, t(`st_${k}`), String(s[k] || 0)]);
  }
  const fouls = s.fouls || {};
  if (counts.has("fouls") && (st.count || fouls.total)) rows.push(["fouls", t("st_fouls"), String(fouls.total || 0)]);
  if (st.count) rows.push(["strokes", t("pp_strokes"), String(st.count)]);
  if (st.timed) rows.push(["stroke_time", t("pp_stroke_time"), t("pp_stroke_time_value", { median: seconds(st.median_ms), p90: seconds(st.p90_ms) })]);
  const pot = it.pot || {}, safety = it.safety || {};
  if (pot.strokes) rows.push(["pot", t("pp_pot_success"), wonOf(pot.success || 0, pot.strokes)]);
  if (safety.strokes) rows.push(["safety", t("pp_safety_success"), wonOf(safety.success || 0, safety.strokes)]);
  return rows;
}

/** Fouls by code, most first: `[[code, text, n]]`. */
export function foulRows(s) {
  const by = (s && s.fouls && s.fouls.by_code) || {};
  return Object.entries(by).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([code, n]) => [code, tc("f", code), n]);
}

/** A summary as a definition list (the profile's statistics). */
export function statsList(s, disciplines) {
  const rows = statRows(s, disciplines);
  if (!rows.length) return el("p", { class: "muted", text: t("pp_no_stats") });
  const fouls = foulRows(s);
  const entered = (s.matches && s.matches.entered) || 0;
  return el("div", { class: "pp-stats-body" },
    el("dl", { class: "pp-stats" }, rows.map(([id, label, value]) => el("div", { class: "pp-stat", dataset: { stat: id } },
      el("dt", { text: label }), el("dd", { text: value })))),
    fouls.length ? el("div", { class: "pp-fouls" }, el("h3", { class: "section-title", text: t("pp_fouls_by_code") }),
      el("ul", { class: "pp-foul-list" }, fouls.map(([code, text, n]) => el("li", { dataset: { code } },
        el("span", { text }), el("b", { text: String(n) }))))) : null,
    entered ? el("p", { class: "muted pp-entered-note", text: t("pp_entered_n", { n: entered }) }) : null);
}

/** A player's short line between racks (the overlay's `?line=1`): break, runs, fouls. */
export function statsLine(s) {
  const b = (s && s.breaks) || {};
  return t("pp_ov_line", { breaks: b.taken || 0, dry: b.dry || 0,
    runs: (s && ((s.break_and_runs || 0) + (s.table_runs || 0))) || 0, fouls: (s && s.fouls && s.fouls.total) || 0 });
}

/** A date (ms since the epoch) the way the page's language writes it. */
export function dateText(ms, language = lang()) {
  if (!ms) return "";
  return new Date(ms).toLocaleDateString(language === "zh-CN" ? "zh-CN" : "en-GB", { year: "numeric", month: "short", day: "numeric" });
}

/** A match's round in the page's language. */
export function roundText(m) {
  return (lang() === "zh-CN" && m.round_name_zh) || m.round_name || m.round || "";
}

/** One finished match (or walkover) from the person's side: used by the list and by head-to-head. */
export function matchRow(m) {
  const opp = m.opponents || [];
  const result = m.won ? "won" : "lost";
  const score = m.walkover || m.score === null || m.score === undefined ? "" : `${m.score}–${opp.map((o) => o.score ?? 0).join("–")}`;
  return el("li", { class: `pp-m ${result}`, dataset: { match: m.match_id || "", walkover: String(!!m.walkover), entered: String(!!m.entered), won: String(!!m.won) } },
    el("span", { class: "pp-m-where muted" },
      el("span", { text: dateText(m.at, lang()) }), " · ",
      el("a", { href: `/bracket/${encodeURIComponent(m.tournament_id)}` }, el("bdi", { text: m.tournament || "" })),
      roundText(m) ? ` · ${roundText(m)}` : "", m.discipline ? ` · ${tc("d", m.discipline)}` : ""),
    el("span", { class: "pp-m-vs" }, el("span", { class: "muted", text: `${t("pp_vs")} ` }),
      opp.map((o, i) => [i ? " · " : "", personName(o.name, o.person)])),
    el("span", { class: "pp-m-score" }, m.match_id
      ? el("a", { href: `/watch/${encodeURIComponent(m.match_id)}`, text: score }) : score),
    el("span", { class: `pp-m-result ${result}` },
      el("span", { text: m.won ? t("pp_won") : t("pp_lost") }),
      m.walkover ? el("span", { class: "badge pp-wo", text: t("pp_walkover") }) : null,
      m.entered ? el("span", { class: "badge pp-hand", text: t("pp_entered") }) : null));
}

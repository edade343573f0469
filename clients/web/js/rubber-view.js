// The rubber a match plays, for the match screens (watch, commentator, overlay; PROTOCOL.md section
// 15): "Rubber 3 of 5 · Doubles · USA 2–1 Europe in rubbers, first to 3". A match is a rubber when
// the tournament's draw plays team matches (its `match.team`) and a team match of the draw lists
// the match's draw key among its rubbers; the pages read what the projection says, never a key's shape.
import { t } from "./i18n.js";

const FRESH_MS = 10000; // the team match's score changes on other tables: asked again this often, when shown
const known = new Map(); // tournament id -> {at, proj, asking}

function teamDraw(draw) {
  return Boolean(draw && draw.match && draw.match.team);
}

async function ask(tid) {
  const got = known.get(tid) || { at: 0, proj: null, asking: null };
  known.set(tid, got);
  if (!got.asking) {
    got.asking = fetch(`/api/tournaments/${encodeURIComponent(tid)}`).then((r) => (r.ok ? r.json() : null)).catch(() => null)
      .then((proj) => { if (proj) { got.proj = proj; got.at = Date.now(); } got.asking = null; return got.proj; });
  }
  return got.asking;
}

/** Waits for the tournament's team matches once (matchNames does, before the first paint). */
export async function primeRubbers(match, draw) {
  if (match && match.draw && match.tournament_id && teamDraw(draw) && !(known.get(match.tournament_id) || {}).proj) {
    await ask(match.tournament_id);
  }
}

/** {rubber, total, kind, to_win, sides: [{name, score}]} of the rubber `match` plays, or null. */
export function rubberOf(match, draw) {
  const ref = match && match.draw;
  if (!ref || !ref.key || !teamDraw(draw)) return null;
  const got = known.get(match.tournament_id);
  if (!got || Date.now() - got.at > FRESH_MS) ask(match.tournament_id); // the next paint shows it
  const proj = got && got.proj;
  for (const m of (proj && proj.draw && proj.draw.matches) || []) {
    const r = m.team && m.team.rubbers.find((x) => x.key === ref.key);
    if (!r) continue;
    const name = (pid) => ((proj.players || []).find((p) => p.id === pid) || { name: pid }).name;
    return { rubber: r.rubber, total: m.team.rubbers.length, kind: r.kind, to_win: m.team.to_win,
      sides: (m.players || []).map((pid) => ({ name: name(pid), score: (m.team.score || {})[pid] || 0 })) };
  }
  return null;
}

/** "Rubber 3 of 5 · Doubles" and "USA 2–1 Europe in rubbers, first to 3", or [] when not a rubber. */
export function rubberTexts(match, draw) {
  const info = rubberOf(match, draw);
  if (!info) return [];
  const texts = [t("tm_rubber_of", { n: info.rubber, total: info.total, kind: t(`tm_kind_${info.kind}`) })];
  if (info.sides.length === 2) {
    const [a, b] = info.sides;
    texts.push(t("tm_team_score", { a: a.name, sa: a.score, sb: b.score, b: b.name, n: info.to_win }));
  }
  return texts;
}

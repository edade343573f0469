// What the fans' pages read from a tournament projection (PROTOCOL.md sections 5, 7 and 11):
// round names, where an empty slot's player comes from, what a draw match is doing now and a
// player's matches and next match. Pure functions of the whole projection (no DOM, no socket), so
// the bracket and the player page say the same thing, whatever feed hands them the projection.
import { t } from "./i18n.js";
import { viewOf } from "./draw-formats.js";

export const DECIDED = ["finished", "walkover", "bye"];

/** Whether an entry is, or will be, a match that counts (the hub's draw.counts): a bye is not, nor an
 * entry with a slot that will never get a player (it becomes a bye once its other player is known). */
export function isMatch(m) { return m.status !== "bye" && !(m.players || []).includes("bye"); }

export function roundNo(round) { const n = /(\d+)$/.exec(round || ""); return n ? Number(n[1]) : 0; }

/** The number of a bracket's last round (its grand final aside), the one `roundTitle` names a
 * final; none (Infinity) when that round holds more than one match: a bracket that stops before its
 * final (the first stage of a two-stage event) has plain "Round n" titles, no "Semi-finals". */
export function lastRoundOf(matches) {
  const plain = matches.filter((m) => m.bracket !== "final");
  const last = Math.max(0, ...plain.map((m) => roundNo(m.round)));
  return plain.filter((m) => roundNo(m.round) === last).length > 1 ? Infinity : last;
}

/** "Quarter-finals", "Losers round 3", "Grand final — reset"... `lastRound`: the bracket's last.
 * `stopped`: a bracket with a losers side played down to a next stage (no finals: "Winners round 3"). */
export function roundTitle(type, bracket, round, lastRound, stopped = false) {
  const n = roundNo(round);
  if (bracket === "final") return round === "GF2" ? t("br_gf_reset") : t("br_grand_final");
  if (stopped) return t(bracket === "losers" ? "br_losers_round" : "br_winners_round", { n });
  if (bracket === "losers") return n === lastRound ? t("br_losers_final") : t("br_losers_round", { n });
  if (bracket === "winners") {
    if (viewOf(type).losers && n === lastRound) return t("br_winners_final");
    const fromEnd = lastRound - n;
    if (fromEnd === 0) return t("br_final");
    if (fromEnd === 1) return t("br_semis");
    if (fromEnd === 2) return t("br_quarters");
  }
  return t("br_round_n", { n });
}

/** The name of a draw match's round as the bracket heads its column ("Final", "Semi-finals",
 * "Losers round 2", "Grand final"; "Group A · Round 3" in a round robin of several groups), in
 * the page's language: the one round-name helper of every page. `draw`: the projection's draw; `m`:
 * one of its matches, or `drawEntry(draw, ref)` for a page that has a match's `draw` reference only.
 * The stage's rounds (`draw.stages[].rounds`, every round the stage will have) decide which round
 * is the last; without them, the draw's matches. */
export function matchRoundName(draw, m) {
  if (!draw || !m) return "";
  const stages = Array.isArray(draw.stages) && draw.stages.length > 1 ? draw.stages : null;
  const stage = m.stage || 1;
  const info = (Array.isArray(draw.stages) ? draw.stages : []).find((s) => s.stage === stage) || null;
  const type = (stages && info && info.type) || draw.type;
  const rounds = info && Array.isArray(info.rounds) && info.rounds.length ? info.rounds.map((r) => r.round) : null;
  const ms = (draw.matches || []).filter((x) => !stages || (x.stage || 1) === stage);
  const view = viewOf(type);
  if (view.layout === "bracket") {
    const losers = m.bracket === "losers";
    if (rounds) { // the bracket's sections: the losers, and the winners (the grand finals aside)
      const section = rounds.filter((r) => !/^GF/.test(r) && /^L\d/.test(r) === losers);
      const stopped = view.losers && !rounds.some((r) => /^GF/.test(r));
      return roundTitle(type, m.bracket, m.round, Math.max(0, ...section.map(roundNo)), stopped);
    }
    // the bracket's sections: the losers, and the winners with the grand final
    const section = ms.filter((x) => (x.bracket === "losers") === losers);
    const stopped = view.losers && !ms.some((x) => x.bracket === "final");
    return roundTitle(type, m.bracket, m.round, lastRoundOf(section), stopped);
  }
  const round = t("br_round_n", { n: roundNo(m.round) });
  const groups = info && typeof info.groups === "number" ? info.groups : new Set(ms.map((x) => x.group).filter(Boolean)).size;
  return m.group && groups > 1 ? `${t("br_group", { g: m.group })} · ${round}` : round;
}

/** The draw entry a match plays, from the match projection's `draw` reference ({key, round}): the
 * draw's own entry when the page has it, else one made from the key, the round and the stages'
 * rounds (a page that read the draw without its matches: the tablet, watch, overlay, commentator). */
export function drawEntry(draw, ref) {
  if (!draw || !ref || !ref.key) return null;
  const listed = (draw.matches || []).find((x) => x.key === ref.key);
  if (listed) return listed;
  const round = ref.round || "";
  const info = (draw.stages || []).find((s) => (s.rounds || []).some((r) => r.round === round)) || null;
  const view = viewOf((info && info.type) || draw.type);
  const bracket = /^GF/.test(round) ? "final" : /^L\d/.test(round) ? "losers" : view.bracket;
  const group = view.group_in_key ? (/^([A-Z]+)-/.exec(ref.key) || [])[1] : null;
  return { key: ref.key, round, stage: info ? info.stage : 1, bracket, ...(group ? { group } : {}) };
}

/** Everything a page needs to look things up in one projection, made once per render. */
export function drawContext(proj) {
  const draw = (proj && proj.draw) || null;
  const matches = draw ? draw.matches || [] : [];
  const live = new Map();
  for (const tb of (proj && proj.tables) || []) if (tb.match) live.set(tb.match.id, { match: tb.match, table: tb });
  const feeders = new Map();
  for (const m of matches) {
    if (m.winner_to) (feeders.get(m.winner_to) || feeders.set(m.winner_to, []).get(m.winner_to)).push(["w", m.key]);
    if (m.loser_to) (feeders.get(m.loser_to) || feeders.set(m.loser_to, []).get(m.loser_to)).push(["l", m.key]);
  }
  return {
    type: draw ? draw.type : null,
    players: new Map(((proj && proj.players) || []).map((p) => [p.id, p])),
    tables: new Map(((proj && proj.tables) || []).map((tb) => [tb.id, tb])),
    live,
    queue: (proj && proj.queue) || [],
    byKey: new Map(matches.map((m) => [m.key, m])),
    feeders,
    champion: draw ? draw.champion : null,
  };
}

export function tableName(ctx, id) { const tb = ctx.tables.get(id); return tb ? tb.name : ""; }

/** A real player in a slot: not null (not known yet) and not "bye" (never filled). */
export function isPlayer(pid) { return pid !== null && pid !== undefined && pid !== "bye"; }

/** The status line of a draw match: {cls, text, table?, names?} ("Called to Table 4", "Up next #2",
 * "Live · Table 1", "Finished · Ko Pin-yi withdrew"; `table` and `names`: what the text names, to isolate). */
export function matchState(m, ctx) {
  switch (m.status) {
    case "called": {
      if (m.team) return { cls: "live", text: t("tm_playing") }; // its rubbers are on their tables
      const lm = ctx.live.get(m.match_id);
      const where = tableName(ctx, m.table_id);
      if (lm && lm.match.status === "live") return { cls: "live", table: where, text: [t("br_live"), where].filter(Boolean).join(" · ") };
      if (lm && lm.match.status === "finished") return { cls: "done", text: t("br_finished") };
      return { cls: "called", table: where, text: t("br_on_table", { table: where || t("table") }) };
    }
    case "ready": {
      const pos = ctx.queue.indexOf(m.key) + 1;
      return { cls: "ready", text: pos > 0 ? t("br_next_n", { n: pos }) : t("br_ready") };
    }
    case "finished": {
      // forfeited by a player withdrawn from the event while it was played: said, not a plain result
      const gone = (m.withdrawn || []).map((pid) => (ctx.players.get(pid) || { name: String(pid) }).name);
      if (gone.length) return { cls: "done", names: gone, text: t("br_finished_withdrew", { name: gone.join(", ") }) };
      return { cls: "done", text: t(m.entered ? "br_finished_entered" : "br_finished") };
    }
    case "walkover": return { cls: "wo", text: t("br_walkover") };
    case "bye": return { cls: "bye", text: t("br_bye") };
    default: return { cls: "waiting", text: "" };
  }
}

/** The label of each slot of a match: a player id, or {text} for "Winner of W1-3" / "— bye —". */
export function slotLabels(m, ctx) {
  const slots = (m.players && m.players.length) ? m.players : [null, null];
  const from = ctx.feeders.get(m.key) || [];
  // the n-th empty slot takes the n-th feeder that has not delivered yet
  const pending = from.filter(([, key]) => { const f = ctx.byKey.get(key); return !f || !DECIDED.includes(f.status); });
  let fed = 0;
  return slots.map((pid) => {
    if (isPlayer(pid)) return { pid };
    if (pid === "bye" || m.status === "bye" || m.status === "walkover") return { text: t("br_bye_slot"), bye: true };
    const src = pending[fed++] || null;
    return { text: src ? t(src[0] === "w" ? "br_winner_of" : "br_loser_of", { key: src[1] }) : t("br_tbd"), source: src };
  });
}

/** Each player's race in player order where they differ (a handicapped race: [7, 5]), else null:
 * read from the players' race_to, or from a format that gives one per player. */
export function raceList(match) {
  const f = (match && match.format) || {};
  const players = (match && match.players) || [];
  let races = players.map((p) => p && p.race_to).filter((n) => n !== undefined && n !== null);
  if (races.length !== players.length || !races.length) {
    races = f.race_to && typeof f.race_to === "object" ? players.map((p) => p && f.race_to[p.id]) : [];
    if (races.length && races.some((n) => n === undefined)) races = Object.values(f.race_to);
  }
  return races.length > 1 && new Set(races).size > 1 ? races : null;
}

/** "Race 7 – 5" for a draw match whose players race to different lengths (a handicapped race,
 * PROTOCOL.md section 13), read from its live match's players (or the draw's `races`), else "". */
export function raceText(m, ctx) {
  const lm = m.match_id ? ctx.live.get(m.match_id) : null;
  const slots = (m.players || []).filter(isPlayer);
  const races = lm ? raceList(lm.match)
    : m.races ? raceList({ players: slots.map((pid) => ({ id: pid, race_to: m.races[pid] })) }) : null;
  return races ? t("race_each", { races: races.join(" – ") }) : "";
}

/** A player's score in a match: the result once finished, the live score while it is played. */
export function scoreOf(m, pid, ctx) {
  if (m.status === "finished" && m.scores && pid in m.scores) return m.scores[pid];
  if (m.team && (m.status === "called" || m.status === "ready")) return (m.team.score || {})[pid] ?? 0; // rubbers won
  if (m.status === "called") {
    const lm = ctx.live.get(m.match_id);
    const p = lm && lm.match.status !== "scheduled" ? (lm.match.players || []).find((x) => x.id === pid) : null;
    if (p) return p.score ?? 0;
  }
  return null;
}

/** The draw matches a player is in, in playing order (stage, then round number, then key). */
export function playerMatches(proj, pid) {
  const ms = ((proj && proj.draw && proj.draw.matches) || []).filter((m) => (m.players || []).includes(pid));
  const side = { winners: 0, losers: 1, final: 2 };
  return ms.slice().sort((a, b) => (a.stage || 1) - (b.stage || 1) || roundNo(a.round) - roundNo(b.round)
    || (side[a.bracket] ?? 0) - (side[b.bracket] ?? 0) || String(a.key).localeCompare(String(b.key)));
}

/** Where a match sends a player next: the draw match it is waiting for, if any. */
function feedsInto(ctx, m, pid) {
  if (!DECIDED.includes(m.status)) return null;
  const to = m.winner === pid ? m.winner_to : m.loser_to;
  return to ? ctx.byKey.get(to) || null : null;
}

/**
 * The player's next match: {m, state, opponent, table, text} with state "called" ("Called to Table 4"),
 * "playing", "ready" ("Up next #2"), "waiting" ("Waiting for the winner of W2-3"), or null when the
 * player has no match to come (out, champion, no draw).
 * @returns {{m: any, state: string, opponent: any, table: any, text: string, opponentText?: string,
 *   queuePos?: number, stage?: boolean} | null}
 */
export function nextMatch(proj, ctx, pid) {
  const mine = playerMatches(proj, pid);
  let m = mine.find((x) => !DECIDED.includes(x.status));
  if (!m) {
    // The match the last result sends the player to, while its other slot is not known.
    const last = mine[mine.length - 1];
    m = last ? feedsInto(ctx, last, pid) : null;
    if (!m || DECIDED.includes(m.status)) return throughToNextStage(proj, pid);
  }
  const labels = slotLabels(m, ctx);
  const other = labels.find((l) => l.pid !== pid) || null;
  const opponent = other && other.pid ? other.pid : null;
  const base = { m, opponent, table: null, opponentText: other && !other.pid ? other.text : null };
  if (m.status === "called" && m.team) return { ...base, state: "playing", text: t("tm_playing") }; // rubbers on their tables
  if (m.status === "called") {
    const lm = ctx.live.get(m.match_id);
    const table = tableName(ctx, m.table_id) || t("table");
    if (lm && lm.match.status === "live") return { ...base, state: "playing", table, text: t("pl_playing_at", { table }) };
    return { ...base, state: "called", table, text: t("br_on_table", { table }) };
  }
  if (m.status === "ready") {
    const pos = ctx.queue.indexOf(m.key) + 1;
    return { ...base, state: "ready", text: pos > 0 ? t("br_next_n", { n: pos }) : t("br_ready"), queuePos: pos };
  }
  const src = other && other.source;
  const text = src ? t(src[0] === "w" ? "pl_wait_winner" : "pl_wait_loser", { key: src[1] }) : t("pl_wait_draw");
  return { ...base, state: "waiting", text };
}

/** A player who went through to the next stage before its players are placed: "Through to stage 2".
 * Once the player has a match in that stage (placed, played, or the champion's), this is over. */
function throughToNextStage(proj, pid) {
  const stages = (proj && proj.draw && proj.draw.stages) || [];
  const from = stages.find((st) => (st.advanced || []).includes(pid));
  const next = from && stages.find((st) => st.stage === from.stage + 1);
  if (!next || next.status === "finished") return null;
  if (playerMatches(proj, pid).some((x) => (x.stage || 1) >= next.stage)) return null;
  const first = ((proj.draw.matches || []).filter((x) => (x.stage || 1) === next.stage)
    .sort((a, b) => roundNo(a.round) - roundNo(b.round)))[0];
  if (!first) return null;
  return { m: first, opponent: null, table: null, opponentText: t("br_tbd"), state: "waiting",
    text: t("pl_through_to_stage", { n: next.stage }), stage: true };
}

/** A doubles side's members in a draw match (PROTOCOL.md section 15): the match's own while it is on a
 * table (its order, `rack.member` the one due), else the entry's (a team's members); [] in singles. */
export function sideMembers(m, pid, ctx) {
  const lm = m && m.match_id ? ctx.live.get(m.match_id) : null;
  const side = lm && (lm.match.players || []).find((x) => x.id === pid);
  if (side && side.members && side.members.length) {
    return { id: pid, members: side.members, due: lm.match.status === "live" ? (lm.match.rack || {}).member : null };
  }
  const entry = ctx.players.get(pid);
  return { id: pid, members: (entry && entry.members) || [], due: null };
}

/** The entry of a table's match by its draw key (`m.draw.key`) in a projection's `draw.matches`: the
 * draw match's own, or for a rubber of a team match (key `W1-1/2`, docs/teams.md) its rubber as an
 * entry: its status, `called_at` and `no_show_at`, the match's players (member ids, or team ids for a
 * doubles rubber) and `rubber: true`; null when neither is there. */
export function calledEntryOf(matches, key, m) {
  const list = matches || [];
  const own = list.find((x) => x.key === key);
  if (own || !key || !key.includes("/")) return own || null;
  const parent = list.find((x) => x.key === key.slice(0, key.lastIndexOf("/")));
  const r = parent && parent.team ? (parent.team.rubbers || []).find((x) => x.key === key) : null;
  return r ? { ...r, key, rubber: true, players: ((m && m.players) || []).map((p) => p.id) } : null;
}

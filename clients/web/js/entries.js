// Entries and verdicts in plain words, names not ids: the tablet's log, its Undo question, its
// verdict banner, and the commentator's stroke lines. Nothing here judges anything: a verdict is
// read from the hub's projection (`last`), never worked out in the page.
import { t, tc, inParens } from "./i18n.js";
import { playerName, noteTexts, withdrewLast } from "./ui.js";
import { traitsOf } from "./disciplines.js";

/** A player's name; "the player at the table" for an entry that names none (entered offline). */
export function who(match, id) {
  if (id === null || id === undefined) return t("player_at_table");
  return playerName(match, id);
}

/** The facts of a stroke: "hit the 1 first · potted 3, 5 · a ball reached a rail". */
export function shotFacts(d, discipline) {
  const bits = [];
  if ("first_contact" in d) bits.push(d.first_contact === null ? t("no_hit") : t("first_hit", { n: d.first_contact }));
  if (d.pocketed && d.pocketed.length) bits.push(t("potted", { list: d.pocketed.join(", ") }));
  // the call (a call-shot discipline): the ball that went in as called
  if (d.called !== null && d.called !== undefined && traitsOf(discipline).call_shot) bits.push(t("fact_called", { n: d.called }));
  if (d.off_table && d.off_table.length) bits.push(t("off", { list: d.off_table.join(", ") }));
  if (d.cue_ball && d.cue_ball !== "table") bits.push(`${t("cue_ball")}: ${t(`cue_${d.cue_ball}`)}`);
  // Stored strokes carry both counts, zero when they do not apply: show the discipline's own.
  const count = traitsOf(discipline).break_count;
  if (count && d[count] > 0) bits.push(`${t(count)} ${d[count]}`);
  const nothingDown = !(d.pocketed && d.pocketed.length);
  if (nothingDown && d.first_contact !== null && d.first_contact !== undefined && !d.break_rails && !d.break_crossings) {
    bits.push(d.rail ? t("fact_rail") : t("fact_no_rail"));
  }
  for (const c of d.called_fouls || []) bits.push(tc("f", c));
  if (d.break_position) bits.push(t("break_position"));
  if (d.push_out) bits.push(t("push_out"));
  if (d.snooker) bits.push(t("snooker"));
  if (d.rail_safety) bits.push(t("rail_safety"));
  return bits.join(" · ");
}

/** What an entry (a command, or a stored event's kind and data) says. */
export function entryText(cmd, match) {
  const c = cmd || {};
  const kind = c.kind || "?";
  const head = `${tc("k", kind)}`;
  const turnKinds = ["shot", "foul", "extension", "concede", "decision", "penalty", "timeout", "clock_expired"];
  const name = turnKinds.includes(kind) ? ` · ${who(match, c.player)}` : "";
  let what = "";
  if (kind === "shot") what = shotFacts(c, match && match.discipline);
  else if (kind === "decision") what = tc("o", c.choice);
  else if (kind === "penalty") what = tc("pen", c.type);
  else if (kind === "foul") what = tc("f", c.reason);
  else if (kind === "concede") what = t(`scope_${c.scope}`, {}, c.scope || "");
  else if (kind === "start" && c.breaker) what = t("breaks_first", { name: playerName(match, c.breaker) });
  else if (kind === "start" && c.order) what = c.order.map((id) => playerName(match, id)).join(" → ");
  else if (kind === "lag") what = t("lag_won", { name: playerName(match, c.winner) });
  else if (kind === "rack") what = rackText(c, match);
  return what ? `${head}${name}: ${what}` : `${head}${name}`;
}

/** A rack reported won: "Wang Can won · Table run · paid by Han Yu". */
export function rackText(c, match) {
  const bits = [t("rk_won", { name: playerName(match, c.winner) })];
  if (c.win_type && c.win_type !== "normal") bits.push(tc("w", c.win_type));
  if (c.paid_by) bits.push(t("rk_paid_by", { name: playerName(match, c.paid_by) }));
  return bits.join(" · ");
}

/**
 * The verdict of the projection's latest event (`last`), as the hub gave it:
 * {version, foul, headline, fouls, next, notes}. null when there is none.
 */
export function verdictOf(match) {
  const last = match && match.last;
  if (!last) return null;
  const r = match.rack || {};
  const foul = !!(last.foul || (last.fouls && last.fouls.length));
  const fouls = (last.fouls || []).map((f) => tc("f", f));
  let headline;
  if (foul) headline = `${t("foul_loud")}: ${fouls.join(", ")}`;
  else if (last.kind === "shot") headline = t("legal_stroke");
  else if (withdrewLast(match)) headline = t("withdrew", { name: playerName(match, last.player) });
  else headline = tc("k", last.kind);
  const by = last.player && !withdrewLast(match) ? playerName(match, last.player) : ""; // the headline names who withdrew
  let next = "";
  if (match.status === "finished") next = "";
  else if (r.pending) next = t("decision_for", { name: playerName(match, r.pending.player) });
  else if (r.shooter) {
    next = r.shooter === last.player && last.kind === "shot" ? t("stays_at_table", { name: playerName(match, r.shooter) })
      : t("to_play", { name: playerName(match, r.shooter) });
    if (r.ball_in_hand) next += ` · ${r.ball_in_hand === "behind_line" ? t("bih_behind_line") : t("bih_anywhere")}`;
  }
  // a withdrawal's one note says what the headline says
  const notes = withdrewLast(match) ? [] : noteTexts(match, last);
  return { version: last.version, foul, headline, by, fouls, next, notes };
}

/** One line for a verdict: "Foul: no rail after contact — Yang Fan to play · Ball in hand". */
export function verdictLine(v) {
  if (!v) return "";
  return [v.headline, v.next, ...v.notes].filter(Boolean).join(" — ");
}

const escapeRe = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The hub's message with the match's player ids shown as names. */
export function namesForIds(text, match) {
  let out = String(text || "");
  for (const p of (match && match.players) || []) {
    if (!p.id || p.id === p.name) continue;
    out = out.replace(new RegExp(`(^|[^\\w-])'?${escapeRe(p.id)}'?(?![\\w-])`, "g"), (m, pre) => `${pre}${p.name}`);
  }
  return out;
}

/** A reject in plain words: the sentence for its code, then the hub's reason (names, not ids). */
export function rejectText(error, match) {
  const err = error || {};
  const plain = t(`rej_${err.code}`, {}, t("rej_generic"));
  // "No match 'mf…' on this table": a raw id says nothing to a referee; the sentence says it all.
  if (err.code === "unknown_match") return plain;
  const why = err.message ? namesForIds(err.message, match) : "";
  return why ? `${plain}${inParens(why)}` : plain;
}

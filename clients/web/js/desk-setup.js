// The match setup every match of the draw is created with (PROTOCOL.md section 1 without the
// players): chosen on the "format" step, sent with the draw on the "draw" step. Until the draw is
// made it lives in this browser (localStorage, per tournament: nothing secret); once the draw is
// made the draw's own `match` is the truth. What a discipline takes (its lengths and their first
// values, its break rules, the shot clock's defaults, a game's name) is its traits (disciplines.js).
import { t, tc } from "./i18n.js";
import { disciplineNames, isDiscipline, traitsOf } from "./disciplines.js";

const KEY = (tid) => `cuehub.desk.setup.${tid}`;

/** The disciplines the desk offers, in the hub's order. */
export function deskDisciplines() { return disciplineNames(); }

/** The form's state: plain fields, turned into the hub's body by `matchBody`. */
export function defaultSetup(discipline = deskDisciplines()[0]) {
  const d = traitsOf(discipline);
  const lengths = d.format_defaults || {};
  const clock = d.shot_clock || {};
  return {
    discipline,
    kind: d.formats[0],
    race_to: lengths.race_to ?? 7,
    racks: lengths.racks ?? 9,
    minutes: lengths.minutes ?? 40,
    brk: d.breaks[0],
    shot_clock: false,
    shot_s: clock.shot_s ?? 45,
    extension_s: clock.extension_s ?? 30,
    break_s: "",
    extensions_per_rack: clock.extensions_per_rack ?? 1,
    timeout_every_racks: 10,
    timeout_s: 300,
    game: "",
    scoring: d.scorings[0],
  };
}

/** Which match lengths a discipline takes. */
export function kindsOf(discipline) { return [...traitsOf(discipline).formats]; }

export function loadSetup(tid) {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY(tid)) || "null");
    if (raw && isDiscipline(raw.discipline)) {
      const s = { ...defaultSetup(raw.discipline), ...raw };
      if (!kindsOf(s.discipline).includes(s.kind)) s.kind = kindsOf(s.discipline)[0];
      return s;
    }
  } catch (_) { /* storage blocked or garbage: the defaults */ }
  return defaultSetup();
}

export function saveSetup(tid, setup) {
  try { localStorage.setItem(KEY(tid), JSON.stringify(setup)); } catch (_) { /* the page still has it */ }
}

export function hasSavedSetup(tid) {
  try { return localStorage.getItem(KEY(tid)) !== null; } catch (_) { return false; }
}

const int = (v) => Math.floor(Number(v));

/** The draw's `match`: {discipline, format, options}. */
export function matchBody(s) {
  const traits = traitsOf(s.discipline);
  const format = {};
  if (s.kind === "race_to") format.race_to = int(s.race_to);
  else if (s.kind === "racks") format.racks = int(s.racks);
  else format.minutes = int(s.minutes);
  if (s.brk === "alternate" && traits.breaks.includes("alternate")) format.break = "alternate";
  if (traits.named_game) format.game = String(s.game || "").trim();
  const options = {};
  const scoring = traits.scorings.includes(s.scoring) ? s.scoring : traits.scorings[0];
  if (scoring !== traits.scorings[0]) options.scoring = scoring;
  if (s.shot_clock && scoring !== "racks") { // no stroke is timed in a match scored rack by rack
    const clock = { shot_s: int(s.shot_s), extension_s: int(s.extension_s), extensions_per_rack: int(s.extensions_per_rack) };
    if (String(s.break_s).trim() !== "") clock.break_s = int(s.break_s);
    options.shot_clock = clock;
  }
  if (s.kind === "minutes") options.match_clock = { timeout_every_racks: int(s.timeout_every_racks), timeout_s: int(s.timeout_s) };
  return { discipline: s.discipline, format, options };
}

/** "Chinese nine-ball · 9 racks · shot clock 45 s" for a draw's `match` (or matchBody's). */
export function setupText(match) {
  if (!match) return "";
  const f = match.format || {};
  const parts = [tc("d", match.discipline)];
  if (f.game) parts.push(f.game);
  if (f.race_to) parts.push(t("race_to", { n: f.race_to }));
  if (f.racks) parts.push(t("n_racks", { n: f.racks }));
  if (f.minutes) parts.push(t("n_minutes", { n: f.minutes }));
  if (f.break === "alternate") parts.push(t("dk_break_alternate"));
  const scoring = (match.options && match.options.scoring) || traitsOf(match.discipline).scorings[0];
  if (scoring === "racks") {
    parts.push(t("dk_by_racks"));
  } else {
    const clock = match.options && match.options.shot_clock;
    parts.push(clock ? t("dk_clock_s", { s: clock.shot_s ?? 45 }) : t("dk_no_clock"));
  }
  return parts.join(" · ");
}

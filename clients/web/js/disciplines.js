// What every discipline is, as data: GET /api/disciplines (the hub's hub/rules/traits.py says
// every field). The pages read these traits (balls, win ball, formats, push-out, call shot, groups,
// players, points or racks, the tablet's flags and called fouls...) and never know a discipline by
// its name: a discipline the hub gains shows on every page without a line changed here.
//
// Read once per page load. The last answer is kept in localStorage, so a page opened without a link
// (the tablet, from its service worker's copy of the page) knows them at once; with a kept copy the
// hub's answer only refreshes it in the background (it changes with a hub upgrade, not during a day).
// Without one the module waits for the hub (top-level await): a page starts knowing its disciplines.
const KEY = "cuehub.disciplines";
const WAIT_MS = 5000; // a half-dead network: the page starts with what it has

// A discipline the hub did not list (an old kept copy, a newer hub): nothing assumed, nothing offered.
const UNKNOWN = Object.freeze({
  name: "", balls: [], win_ball: null, ball_on: null, groups: false, players: 2, lag: true, formats: ["race_to"],
  format_defaults: { race_to: 7 }, breaks: ["winner", "alternate"], scorings: ["strokes", "racks"], score: "racks",
  ranked: false, points: null, named_game: false, handicaps: [], push_out: false, call_shot: false,
  break_count: "break_rails", break_flags: [], play_flags: [], called_fouls_break: [], called_fouls_play: [],
  stats: [], timeout_race_to: null, penalty_types: ["forfeit_rack", "forfeit_match"], concede_scopes: ["rack", "match"],
  win_types: ["normal"], rack_paid_by: false, shot_clock: { shot_s: 45, extension_s: 30, extensions_per_rack: 1 },
  timed_shot_clock: null,
});

let list = [];
let byName = new Map();

function take(entries) {
  if (!Array.isArray(entries)) return;
  list = entries.filter((d) => d && typeof d.name === "string");
  byName = new Map(list.map((d) => [d.name, d]));
}

try { take(JSON.parse(localStorage.getItem(KEY) || "null")); } catch (_) { /* storage blocked or garbage */ }

async function load() {
  const ctl = typeof AbortController === "function" ? new AbortController() : null;
  const timer = ctl ? setTimeout(() => ctl.abort(), WAIT_MS) : null;
  try {
    const r = await fetch("/api/disciplines", { headers: { Accept: "application/json" }, signal: ctl ? ctl.signal : undefined });
    if (!r.ok) return;
    const body = await r.json();
    take(body.disciplines);
    try { localStorage.setItem(KEY, JSON.stringify(list)); } catch (_) { /* this page still has them */ }
  } catch (_) {
    /* no link: the kept copy */
  } finally {
    if (timer) clearTimeout(timer);
  }
}

if (list.length) load(); else await load();

/** Every discipline's traits, in the hub's order. */
export function disciplines() { return list; }

/** The names of the disciplines, in the hub's order; `judged`: only those scored stroke by stroke too. */
export function disciplineNames({ judged = false } = {}) {
  return list.filter((d) => !judged || d.scorings.includes("strokes")).map((d) => d.name);
}

/** A discipline's traits (a neutral set for one the hub did not list). */
export function traitsOf(name) { return byName.get(name) || UNKNOWN; }

/** Whether the hub listed this discipline. */
export function isDiscipline(name) { return byName.has(name); }

/** The traits of a match's discipline. */
export function matchTraits(match) { return traitsOf(match && match.discipline); }

/** A match scored rack by rack: the players report who won each rack, no stroke is entered. */
export function racksScored(match) { return !!(match && match.options && match.options.scoring === "racks"); }

/** Scored in points (racks won shown beside them). */
export function inPoints(match) { return matchTraits(match).score === "points"; }

/** The called fouls a tablet offers: on a break stroke, or on any other (and as a `foul` command). */
export function calledFoulsOf(name, isBreak) {
  const d = traitsOf(name);
  return [...(isBreak ? d.called_fouls_break : d.called_fouls_play)];
}

// What every draw format is to the fans' pages, as data: GET /api/draw-formats (the hub's
// hub/draws/draw_formats/), each format's `view`: how a stage of it is drawn (`layout`: a bracket,
// groups, chase rounds), whether it has a losers bracket, the `bracket` of a plain round's match and
// whether a key starts with its group. The pages never know a format by its name: a format the hub
// gains shows on every page without a line changed here.
//
// Read once per page load, kept in localStorage as disciplines.js keeps the disciplines (the tablet,
// opened from its service worker's copy, knows them at once; the hub's answer then refreshes them).
const KEY = "cuehub.draw-formats";
const WAIT_MS = 5000; // a half-dead network: the page starts with what it has

// A format the hub did not list (an old kept copy, a newer hub): its rounds shown as numbered groups.
const UNKNOWN = Object.freeze({ layout: "groups", losers: false, bracket: "winners", group_in_key: false });

let byName = new Map();

function take(formats) {
  if (!Array.isArray(formats)) return;
  byName = new Map(formats.filter((f) => f && typeof f.name === "string" && f.view).map((f) => [f.name, f.view]));
}

try { take(JSON.parse(localStorage.getItem(KEY) || "null")); } catch (_) { /* storage blocked or garbage */ }

async function load() {
  const ctl = typeof AbortController === "function" ? new AbortController() : null;
  const timer = ctl ? setTimeout(() => ctl.abort(), WAIT_MS) : null;
  try {
    const r = await fetch("/api/draw-formats", { headers: { Accept: "application/json" }, signal: ctl ? ctl.signal : undefined });
    if (!r.ok) return;
    const body = await r.json();
    take(body.formats);
    try { localStorage.setItem(KEY, JSON.stringify(body.formats)); } catch (_) { /* this page still has them */ }
  } catch (_) {
    /* no link: the kept copy */
  } finally {
    if (timer) clearTimeout(timer);
  }
}

if (byName.size) load(); else await load();

/** How a stage of draw type `type` is drawn: {layout, losers, bracket, group_in_key}. */
export function viewOf(type) { return byName.get(type) || UNKNOWN; }

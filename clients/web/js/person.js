// A person's profile: /people/{id} (PROTOCOL.md section 12) — for fans on a phone first. Their
// name, club, aliases and ratings; the match they play now; statistics by discipline (from the
// hub's kept history, GET /api/people/{id}); every event with its place; their matches, newest first
// and paged (GET /api/people/{id}/matches: hand results and walkovers marked); head-to-head against
// anyone the reader picks (GET /api/people/{a}/versus/{b}, `?vs=` in the URL). A person merged into
// another sends the reader on to that one. REST only; the profile is read again every 30 s (the
// live match comes and goes).
import { t, tc, lang, onLangChange } from "./i18n.js";
import { getJSON } from "./live.js";
import { el, fill, header, setConn, notFoundCard, pathId } from "./ui.js";
import { disciplineNames } from "./disciplines.js";
import { dateText, matchRow, personHref, statsList } from "./people-view.js";
import { HeadToHead } from "./person-h2h.js";

const REFRESH_MS = 30000;
const PAGE = 10;
const id = pathId();
header("person_title", [el("a", { class: "btn small", id: "all-people", href: "/people", "data-i18n": "pp_all_people" })]);
const app = document.getElementById("app");
const head = el("section", { class: "card pp-head", id: "pp-head" }, el("p", { class: "muted", text: t("loading") }));
const liveBox = el("section", { class: "card pp-live hidden", id: "pp-live", "aria-live": "polite" });
const statsBox = el("section", { class: "card pp-stats-card", id: "pp-stats" });
const h2h = new HeadToHead(id);
const eventsBox = el("section", { class: "card pp-events-card", id: "pp-events" });
const matchesBox = el("section", { class: "card pp-matches-card", id: "pp-matches" });
app.append(head, liveBox, statsBox, h2h.box, eventsBox, matchesBox);

let person = null;
let found = true;
let discipline = new URLSearchParams(location.search).get("discipline") || ""; // "" is every game
let matches = [];
let next = null;
let asked = 0;
let liveMatch = null; // GET /api/matches/{id} of the live match: its players and score

function notFound() {
  found = false;
  setConn("not-found");
  fill(app, notFoundCard("pp_unknown", id));
}

async function loadPerson() {
  let p;
  try {
    p = await getJSON(`/api/people/${encodeURIComponent(id)}`);
  } catch (e) {
    if (e && e.status === 404) notFound(); else setConn("offline");
    return;
  }
  if (p.merged_into) { location.replace(personHref(p.merged_into) + location.search); return; }
  setConn("live");
  person = p;
  render();
}

async function loadMatches(append) {
  const n = ++asked;
  const params = new URLSearchParams({ limit: String(PAGE) });
  if (discipline) params.set("discipline", discipline);
  if (append && next) params.set("cursor", next);
  try {
    const page = await getJSON(`/api/people/${encodeURIComponent(id)}/matches?${params}`);
    if (n !== asked) return;
    matches = append ? matches.concat(page.matches || []) : (page.matches || []);
    next = page.next || null;
    renderMatches();
  } catch (e) {
    if (e && e.status === 404) notFound();
  }
}

/** The games the person has statistics in, in the hub's order (then any the hub did not list). */
function theirDisciplines() {
  const have = Object.keys((person && person.stats && person.stats.disciplines) || {});
  const known = disciplineNames().filter((d) => have.includes(d));
  return known.concat(have.filter((d) => !known.includes(d)));
}

function headCard(p) {
  const aliases = (p.aliases || []).filter((a) => a && a !== p.name);
  const ratings = Object.entries(p.ratings || {});
  return [
    el("h1", { class: "pp-title" }, el("bdi", { id: "pp-name", text: p.name })),
    el("div", { class: "pp-facts muted" },
      p.club ? el("bdi", { id: "pp-club", text: p.club }) : null,
      el("span", { id: "pp-count", text: (p.events || []).length === 1 ? t("pp_events_1") : t("pp_events_n", { n: (p.events || []).length }) })),
    aliases.length ? el("div", { class: "pp-aliases", id: "pp-aliases" }, el("span", { class: "muted", text: `${t("pp_aliases")}: ` }),
      aliases.map((a, i) => [i ? " · " : "", el("bdi", { text: a })])) : null,
    ratings.length ? el("div", { class: "pp-ratings", id: "pp-ratings" }, el("span", { class: "muted", text: `${t("pp_ratings")}: ` }),
      ratings.map(([d, r], i) => [i ? " · " : "", `${tc("d", d)} ${typeof r === "object" && r ? (r.rating ?? "") : r}`])) : null,
  ];
}

function renderLive(p) {
  const lv = p.live;
  liveBox.classList.toggle("hidden", !lv);
  document.body.dataset.live = lv ? lv.match_id : "";
  if (!lv) { liveBox.replaceChildren(); liveMatch = null; return; }
  if (!liveMatch || liveMatch.id !== lv.match_id || liveMatch.asked < Date.now() - REFRESH_MS / 2) loadLiveMatch(lv.match_id);
  const m = liveMatch && liveMatch.id === lv.match_id ? liveMatch.match : null;
  fill(liveBox, el("h2", { class: "section-title pp-live-title", text: t("pp_live") }),
    el("div", { class: "pp-live-what" }, [tc("d", lv.discipline), lv.draw_key].filter(Boolean).join(" · ")),
    m ? el("div", { class: "pp-live-score", id: "pp-live-score" }, (m.players || []).map((x, i) => [i ? el("span", { class: "muted", text: " – " }) : null,
      el("bdi", { class: x.id === lv.player_id ? "me" : "", text: x.name }), el("b", { text: ` ${x.score ?? 0}` })])) : null,
    el("div", { class: "pp-live-links" },
      el("a", { class: "btn primary", id: "pp-watch", href: `/watch/${encodeURIComponent(lv.match_id)}`, text: t("pp_live_watch") }),
      lv.tournament_id ? el("a", { class: "btn", href: `/bracket/${encodeURIComponent(lv.tournament_id)}`, text: t("pp_live_bracket") }) : null));
}

async function loadLiveMatch(mid) {
  liveMatch = { id: mid, asked: Date.now(), match: liveMatch && liveMatch.id === mid ? liveMatch.match : null };
  try {
    const m = await getJSON(`/api/matches/${encodeURIComponent(mid)}`);
    if (liveMatch && liveMatch.id === mid) { liveMatch.match = m; if (person) renderLive(person); }
  } catch (_) { /* the profile's next read tries again */ }
}

function chooser(games) {
  if (games.length < 2) return null;
  const pick = (d) => el("button", { type: "button", class: `chip${discipline === d ? " on" : ""}`, "aria-pressed": discipline === d ? "true" : "false",
    dataset: { discipline: d }, text: d ? tc("d", d) : t("pp_discipline_all"),
    onclick: () => { discipline = d; keepInUrl("discipline", d); render(); loadMatches(false); } });
  return el("div", { class: "pp-chooser", id: "pp-discipline", role: "group", "aria-label": t("pp_discipline") }, pick(""), games.map(pick));
}

function keepInUrl(key, value) {
  const url = new URL(location.href);
  if (value) url.searchParams.set(key, value); else url.searchParams.delete(key);
  history.replaceState(null, "", url);
}

function renderStats(p) {
  const games = theirDisciplines();
  if (discipline && !games.includes(discipline)) discipline = "";
  const s = discipline ? p.stats.disciplines[discipline] : p.stats.total;
  document.body.dataset.discipline = discipline;
  fill(statsBox, el("h2", { class: "section-title", text: t("pp_stats") }), chooser(games),
    statsList(s, discipline ? [discipline] : games));
}

function eventRow(e) {
  const place = e.place ? t("pp_place", { n: e.place }) : tc("pp_status", e.status);
  return el("li", { class: `pp-e st-${e.status}`, dataset: { tournament: e.tournament_id, place: e.place ?? "" } },
    el("a", { class: "pp-e-name", href: `/bracket/${encodeURIComponent(e.tournament_id)}` }, el("bdi", { text: e.name || e.tournament_id })),
    el("span", { class: `badge pp-e-place st-${e.status}`, text: place }),
    el("span", { class: "pp-e-meta muted" }, el("span", { text: dateText(e.at, lang()) }),
      e.played_as && e.played_as !== person.name ? [` · ${t("pp_played_as")} `, el("bdi", { text: e.played_as })] : null, " · ",
      el("a", { href: `/player/${encodeURIComponent(e.tournament_id)}/${encodeURIComponent(e.player_id)}`, text: t("player_title") })));
}

function renderEvents(p) {
  const evs = p.events || [];
  fill(eventsBox, el("h2", { class: "section-title", text: t("pp_events") }),
    evs.length ? el("ul", { class: "pp-list-plain", id: "pp-event-list" }, evs.map(eventRow)) : el("p", { class: "muted", text: t("pp_no_events") }));
}

function renderMatches() {
  fill(matchesBox, el("h2", { class: "section-title", text: t("pp_matches") }),
    matches.length ? el("ul", { class: "pp-list-plain", id: "pp-match-list" }, matches.map(matchRow))
      : el("p", { class: "muted", text: t("pp_no_matches") }),
    next ? el("button", { type: "button", class: "btn pp-more", id: "pp-more", text: t("pp_more"), onclick: () => loadMatches(true) }) : null);
  document.body.dataset.matches = String(matches.length);
}

function render() {
  if (!found || !person) return;
  document.title = `${person.name} · cuehub`;
  document.body.dataset.person = person.id;
  fill(head, headCard(person));
  renderLive(person);
  renderStats(person);
  h2h.render(person);
  renderEvents(person);
  renderMatches();
}

onLangChange(render);
loadPerson().then(() => { if (found) loadMatches(false); });
setInterval(() => { if (found && document.visibilityState !== "hidden") loadPerson(); }, REFRESH_MS);

// A series' page: /series/{id} — its standings over several tournaments (PROTOCOL.md section 13),
// for players on a phone and for the venue's TV. Reads GET /api/series/{id} (the hub keeps the
// standings as its tournaments change) and asks again every few seconds with the ETag it has, so
// the page moves as events finish at no cost while nothing changes. A running tournament is listed
// apart, as in progress. Names come from the hub and are only ever set as text, each in a <bdi>.
import { t, onLangChange } from "./i18n.js";
import { el, fill, pathId, header, setConn, notFoundCard } from "./ui.js";

const POLL_MS = 5000;
const sid = pathId();
header("series_title");
const app = document.getElementById("app");
const head = el("section", { class: "card", id: "se-head" }, el("p", { class: "muted", text: t("loading") }));
const table = el("section", { class: "card", id: "se-standings" });
const tours = el("section", { class: "card", id: "se-tournaments" });
app.append(head, table, tours);

let series = null;
let etag = null;
let found = true;

function bandsText(points) {
  const keys = Object.keys(points || {}).map(Number).sort((a, b) => a - b);
  return keys.map((k, i) => {
    const next = keys[i + 1];
    const place = next === undefined ? null : next - 1 === k ? String(k) : `${k}–${next - 1}`;
    return place === null ? t("se_band_from", { place: k, points: points[k] }) : t("se_band", { place, points: points[k] });
  }).join(" · ");
}

function render() {
  if (!series) return;
  document.title = `${series.name} · cuehub`;
  document.body.dataset.version = String(series.version);
  const names = new Map(series.tournaments.map((x) => [x.id, x.name]));
  fill(head,
    el("h1", { class: "se-name" }, el("bdi", { text: series.name })),
    el("div", { class: "se-rules muted" },
      el("span", { id: "se-bands", text: t("se_bands", { bands: bandsText(series.points) }) }),
      series.best ? el("span", { id: "se-best", text: t("se_best", { n: series.best }) }) : null),
    el("a", { class: "se-csv", id: "se-csv", href: `/api/series/${encodeURIComponent(sid)}/standings.csv`, download: "", text: t("se_csv") }));
  const rows = series.standings.map((r) => el("li", { class: `se-row${r.rank === 1 ? " top" : ""}`, dataset: { person: r.person, rank: r.rank } },
    el("span", { class: "se-rank", text: String(r.rank) }),
    el("span", { class: "se-who" }, el("bdi", { class: "name", text: r.name }), " ",
      el("span", { class: "se-events-n", text: `· ${t("se_played")} ${r.events}` })),
    el("span", { class: "se-pts", text: String(r.points) }),
    el("span", { class: "se-results" }, r.results.map((x) => el("span", { class: x.counted ? "" : "off",
      text: t(x.counted ? "se_place_points" : "se_not_counted", { tournament: names.get(x.tournament_id) || x.tournament_id, place: x.place, points: x.points }) })))));
  fill(table, el("h2", { class: "section-title", text: t("se_standings") }),
    rows.length ? el("ol", { class: "se-rows", id: "se-rows" }, rows) : el("p", { class: "muted", id: "se-empty", text: t("se_no_standings") }));
  // the running ones first, apart: they count once their draw is finished
  const order = { in_progress: 0, not_started: 1, finished: 2 };
  const list = [...series.tournaments].sort((a, b) => order[a.status] - order[b.status]);
  fill(tours, el("h2", { class: "section-title", text: t("se_tournaments") }),
    el("ul", { class: "se-tours" }, list.map((x) => el("li", { class: `se-tour st-${x.status}`, dataset: { tournament: x.id, status: x.status } },
      el("a", { href: `/bracket/${encodeURIComponent(x.id)}` }, el("bdi", { text: x.name })),
      el("span", { class: "se-status", text: x.status === "in_progress" ? t("se_in_progress_note")
        : x.status === "finished" ? t("se_finished") : t("se_not_started") }),
      x.champion ? el("span", { class: "se-champion" }, t("se_champion", { name: "" }), el("bdi", { text: x.champion.name })) : null))));
}

async function poll() {
  try {
    const r = await fetch(`/api/series/${encodeURIComponent(sid)}`, { headers: { Accept: "application/json", ...(etag ? { "If-None-Match": etag } : {}) } });
    if (r.status === 404) {
      found = false;
      fill(head, notFoundCard("se_unknown", sid));
      table.remove(); tours.remove();
      return;
    }
    if (r.status === 200) {
      etag = r.headers.get("ETag");
      series = await r.json();
      render();
    }
    if (r.ok || r.status === 304) { setConn("live"); document.body.dataset.conn = "live"; }
    else setConn("offline");
  } catch (_) {
    setConn("offline");
  }
  if (found) setTimeout(poll, POLL_MS);
}

onLangChange(render);
poll();

// The directory of people: /people — find anyone who has played on this hub (PROTOCOL.md section 12).
// The search is the hub's (GET /api/people?q=): case, full/half width and accents do not matter, and
// a Chinese name is found by its toneless pinyin ("wang ye" finds 王也). It runs as the reader types
// (a short pause after the last key; an answer to an older query is dropped), keeps `?q=` in the
// URL so a shared link opens the same list, and pages with "More" (the hub's cursor).
import { t, onLangChange } from "./i18n.js";
import { getJSON } from "./live.js";
import { el, fill, header, setConn } from "./ui.js";
import { personHref } from "./people-view.js";

const PAGE = 20;
const PAUSE_MS = 180;

header("people_title");
const app = document.getElementById("app");
const box = el("input", { type: "search", id: "people-q", class: "pp-q", autocomplete: "off", autocapitalize: "off",
  spellcheck: "false", enterkeyhint: "search", "aria-label": t("pp_search"), placeholder: t("pp_search_hint") });
const label = el("label", { class: "section-title", for: "people-q", text: t("pp_search") });
const status = el("p", { class: "muted pp-status", id: "people-status", "aria-live": "polite" });
const list = el("ul", { class: "pp-list", id: "people-list" });
const more = el("button", { type: "button", class: "btn pp-more hidden", id: "people-more", text: t("pp_more") });
app.append(el("section", { class: "card pp-find" }, label, box, status), el("section", { class: "card pp-results" }, list, more));

let query = new URLSearchParams(location.search).get("q") || "";
box.value = query;
let asked = 0; // the latest query's number: an older answer arriving late is dropped
let next = null;
let rows = [];
let timer = null;

function eventsText(n) { return n === 1 ? t("pp_events_1") : t("pp_events_n", { n }); }

function row(p) {
  const aliases = (p.aliases || []).filter((a) => a && a !== p.name);
  return el("li", { class: "pp-row", dataset: { person: p.id } },
    el("a", { class: "pp-link", href: personHref(p.id) },
      el("bdi", { class: "pp-name", text: p.name }),
      aliases.length ? el("bdi", { class: "pp-aka muted", text: aliases.join(" · ") }) : null,
      el("span", { class: "pp-meta muted" },
        p.club ? el("bdi", { class: "pp-club", text: p.club }) : null,
        el("span", { class: "pp-events", text: eventsText(p.events || 0) }))));
}

function render() {
  fill(list, rows.map(row));
  more.classList.toggle("hidden", !next);
  more.textContent = t("pp_more");
  if (!rows.length) status.textContent = query.trim() ? t("pp_none", { q: query.trim() }) : t("pp_empty");
  else status.textContent = "";
  document.body.dataset.results = String(rows.length);
}

async function load(append) {
  const n = ++asked;
  const params = new URLSearchParams({ limit: String(PAGE) });
  if (query.trim()) params.set("q", query.trim());
  if (append && next) params.set("cursor", next);
  document.body.dataset.loading = "true";
  if (!append) status.textContent = t("pp_searching");
  try {
    const page = await getJSON(`/api/people?${params}`);
    if (n !== asked) return;
    rows = append ? rows.concat(page.people || []) : (page.people || []);
    next = page.next || null;
    setConn("live");
    render();
  } catch (_) {
    if (n === asked) { status.textContent = t("pp_failed"); setConn("offline"); }
  } finally {
    if (n === asked) { document.body.dataset.loading = "false"; document.body.dataset.query = query.trim(); }
  }
}

box.addEventListener("input", () => {
  query = box.value;
  const url = new URL(location.href);
  if (query.trim()) url.searchParams.set("q", query.trim()); else url.searchParams.delete("q");
  history.replaceState(null, "", url);
  clearTimeout(timer);
  timer = setTimeout(() => load(false), PAUSE_MS);
});
more.addEventListener("click", () => load(true));

onLangChange(() => {
  label.textContent = t("pp_search");
  box.placeholder = t("pp_search_hint");
  box.setAttribute("aria-label", t("pp_search"));
  render();
});
document.title = `${t("people_title")} · cuehub`;
load(false);

// Ratings: /ratings[?discipline=] — every person's rating in one discipline, best first, the
// provisional ones after (PROTOCOL.md section 13). Phone first: one list, the discipline above it.
import { t, tc, onLangChange } from "./i18n.js";
import { getJSON } from "./live.js";
import { disciplineNames } from "./disciplines.js";
import { el, fill, header, setConn } from "./ui.js";

header("ratings_title");
const app = document.getElementById("app");
const picker = el("select", { id: "rt-discipline", onchange: () => choose(picker.value) });
const pickBox = el("label", { class: "rt-pick" }, el("span", { class: "muted", "data-i18n": "rt_discipline" }), picker);
const listBox = el("section", { class: "card", id: "ratings" });
const about = el("p", { class: "muted rt-about", "data-i18n": "rt_about" });
app.append(pickBox, listBox, about);

const names = disciplineNames();
let discipline = new URLSearchParams(location.search).get("discipline");
if (!names.includes(discipline)) discipline = names[0] || ""; // the first the hub serves
let rows = null;
let next = null;
let loading = false;

async function load(more = false) {
  if (loading) return;
  loading = true;
  const wanted = discipline;
  const q = new URLSearchParams({ discipline: wanted });
  if (more && next) q.set("cursor", next);
  try {
    const page = await getJSON(`/api/ratings?${q}`);
    if (wanted !== discipline) return;  // another discipline was chosen meanwhile
    rows = more ? [...(rows || []), ...page.ratings] : page.ratings;
    next = page.next;
    setConn("live");
  } catch (_) {
    setConn("offline");
  } finally {
    loading = false;
  }
  render();
}

function choose(name) {
  discipline = name;
  rows = null;
  next = null;
  const url = new URL(location.href);
  url.searchParams.set("discipline", name);
  history.replaceState(null, "", url);
  render();
  load();
}

function row(r) {
  return el("li", { class: `rt-row${r.provisional ? " rt-prov" : ""}`, dataset: { person: r.person } },
    el("span", { class: "rt-rank", text: r.rank }),
    el("a", { class: "rt-name", href: `/people/${encodeURIComponent(r.person)}` }, el("bdi", { text: r.name })),
    el("span", { class: "rt-value", text: r.value }),
    el("span", { class: "rt-racks muted", text: r.racks }));
}

function render() {
  fill(picker, names.map((n) => el("option", { value: n, text: tc("d", n), selected: n === discipline })));
  const head = el("li", { class: "rt-row rt-head muted" },
    el("span", { class: "rt-rank", text: t("rt_rank") }), el("span", { class: "rt-name", text: t("rt_player") }),
    el("span", { class: "rt-value", text: t("rt_value") }), el("span", { class: "rt-racks", text: t("rt_racks") }));
  const firm = (rows || []).filter((r) => !r.provisional);
  const prov = (rows || []).filter((r) => r.provisional);
  fill(listBox, el("h2", { text: `${t("ratings_title")} · ${tc("d", discipline)}` }),
    rows === null ? el("p", { class: "muted", text: t("loading") })
      : !rows.length ? el("p", { class: "muted", id: "rt-none", text: t("rt_none") })
        : [firm.length ? el("ul", { class: "rt-list", id: "rt-firm" }, head, firm.map(row)) : null,
          prov.length ? [el("h3", { class: "rt-prov-head", text: t("rt_provisional_head") }),
            el("ul", { class: "rt-list", id: "rt-provisional" }, firm.length ? null : head, prov.map(row))] : null],
    next ? el("button", { type: "button", class: "btn", id: "rt-more", text: t("rt_more"), onclick: () => load(true) }) : null);
}

onLangChange(render);
render();
load();

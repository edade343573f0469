// The desk's side of people (PROTOCOL.md section 12): finding someone in the hub's directory as the
// organiser types (GET /api/people?q=: the hub's folded and pinyin search), to add them to the
// event as that person or to link an entry to another person (PATCH of the player with `person`);
// and what an added list did: how many entries were linked to people already known, how many made
// new people (each player of the hub's answer says `link`).
import { t } from "./i18n.js";
import { el, fill } from "./ui.js";
import { api } from "./desk-api.js";
import { personHref } from "./people-view.js";

const PAUSE_MS = 180;

/** A search box over the directory; `onPick(person)` when the organiser picks one of its answers. */
export class PeopleFinder {
  constructor({ id, labelKey, onPick, exclude = () => [] }) {
    this.onPick = onPick;
    this.exclude = exclude;
    this.asked = 0;
    this.timer = null;
    this.input = el("input", { type: "search", id, class: "people-find-input", autocomplete: "off", autocapitalize: "off", spellcheck: "false",
      placeholder: t("pp_search_hint"), "aria-label": t(labelKey),
      oninput: () => { clearTimeout(this.timer); this.timer = setTimeout(() => this.search(), PAUSE_MS); } });
    this.results = el("ul", { class: "people-find-results", id: `${id}-results` });
    this.box = el("div", { class: "people-find" }, el("label", { class: "field wide", for: id },
      el("span", { class: "field-label", text: t(labelKey) }), this.input), this.results);
  }

  async search() {
    const q = this.input.value.trim();
    const n = ++this.asked;
    if (!q) { fill(this.results); return; }
    let page;
    try { page = await api("GET", `/api/people?${new URLSearchParams({ q, limit: "8" })}`); } catch (_) { return; }
    if (n !== this.asked) return;
    const skip = new Set(this.exclude());
    const found = (page.people || []).filter((p) => !skip.has(p.id));
    this.results.dataset.query = q;
    fill(this.results, found.length ? found.map((p) => el("li", { dataset: { person: p.id } },
      el("button", { type: "button", class: "btn small people-pick", dataset: { person: p.id }, onclick: () => { this.clear(); this.onPick(p); } },
        el("bdi", { class: "p-name", text: p.name }),
        p.club ? el("bdi", { class: "muted", text: ` · ${p.club}` }) : null,
        el("span", { class: "muted", text: ` · ${p.events === 1 ? t("pp_events_1") : t("pp_events_n", { n: p.events || 0 })}` })),
      el("a", { class: "small", href: personHref(p.id), target: "_blank", rel: "noopener", text: t("pp_dk_profile") })))
      : el("li", { class: "muted", text: t("pp_none", { q }) }));
  }

  clear() { this.input.value = ""; this.asked += 1; fill(this.results); }
}

/** How many players of an add's answer were linked to people already known, how many made new ones. */
export function linkCounts(players) {
  const linked = players.filter((p) => p.link === "linked").length;
  return { linked, created: players.filter((p) => p.link === "created").length };
}

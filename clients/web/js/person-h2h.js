// Head-to-head on a profile (/people/{id}): the reader types a name (the hub's directory search,
// GET /api/people?q=), picks someone, and sees every finished match between the two: wins and racks
// each, per game, and the matches (GET /api/people/{a}/versus/{b}). `?vs=<id>` keeps the choice in
// the URL, so a shared link opens on it.
import { t, tc } from "./i18n.js";
import { getJSON } from "./live.js";
import { el, fill } from "./ui.js";
import { matchRow, personName } from "./people-view.js";

const PAUSE_MS = 180;

export class HeadToHead {
  constructor(me) {
    this.me = me;
    this.person = null;
    this.vs = new URLSearchParams(location.search).get("vs") || "";
    this.answer = null; // the hub's head-to-head with `vs`
    this.options = []; // people found by the box
    this.asked = 0;
    this.timer = null;
    this.box = el("section", { class: "card pp-h2h", id: "pp-h2h" });
    this.input = el("input", { type: "search", id: "h2h-q", class: "pp-q", autocomplete: "off", autocapitalize: "off", spellcheck: "false",
      oninput: () => { clearTimeout(this.timer); this.timer = setTimeout(() => this.search(), PAUSE_MS); } });
    this.optionsBox = el("ul", { class: "pp-h2h-options", id: "h2h-options" });
    this.result = el("div", { class: "pp-h2h-result", id: "h2h-result", "aria-live": "polite" });
    if (this.vs) this.pick(this.vs);
  }

  async search() {
    const q = this.input.value.trim();
    const n = ++this.asked;
    if (!q) { this.options = []; this.paintOptions(); return; }
    try {
      const page = await getJSON(`/api/people?${new URLSearchParams({ q, limit: "8" })}`);
      if (n !== this.asked) return;
      this.options = (page.people || []).filter((p) => p.id !== this.me && p.id !== (this.person && this.person.id));
      this.paintOptions();
    } catch (_) { /* the next key tries again */ }
  }

  paintOptions() {
    fill(this.optionsBox, this.options.map((p) => el("li", {},
      el("button", { type: "button", class: "pp-h2h-option", dataset: { person: p.id }, onclick: () => this.pick(p.id) },
        el("bdi", { text: p.name }), p.club ? el("bdi", { class: "muted", text: ` ${p.club}` }) : null))));
  }

  async pick(other) {
    this.vs = other;
    this.options = [];
    this.input.value = "";
    this.paintOptions();
    const url = new URL(location.href);
    if (other) url.searchParams.set("vs", other); else url.searchParams.delete("vs");
    history.replaceState(null, "", url);
    this.answer = null;
    if (!other) { this.paint(); return; }
    try {
      this.answer = await getJSON(`/api/people/${encodeURIComponent(this.me)}/versus/${encodeURIComponent(other)}`);
    } catch (_) {
      this.answer = null;
      this.vs = "";
    }
    this.paint();
  }

  render(person) {
    this.person = person;
    this.input.placeholder = t("pp_h2h_hint");
    this.input.setAttribute("aria-label", t("pp_h2h_pick"));
    fill(this.box, el("h2", { class: "section-title", text: t("pp_h2h") }),
      el("label", { class: "pp-h2h-label muted", for: "h2h-q", text: t("pp_h2h_pick") }), this.input, this.optionsBox, this.result);
    this.paint();
  }

  paint() {
    const v = this.answer;
    document.body.dataset.vs = v ? v.b.id : "";
    if (!v) { this.result.replaceChildren(); return; }
    const tot = v.total || {};
    const perGame = Object.entries(v.disciplines || {});
    fill(this.result,
      el("div", { class: "pp-h2h-head" },
        personName(v.a.name, v.a.id, { class: "pp-h2h-a" }),
        el("span", { class: "pp-h2h-score", id: "h2h-score", text: `${tot.a_wins || 0} – ${tot.b_wins || 0}` }),
        personName(v.b.name, v.b.id, { class: "pp-h2h-b" }),
        el("button", { type: "button", class: "btn small pp-h2h-clear", id: "h2h-clear", text: t("pp_h2h_clear"), onclick: () => this.pick("") })),
      tot.matches ? el("div", { class: "pp-h2h-racks muted", id: "h2h-racks",
        text: `${t("pp_h2h_matches")} ${tot.matches} · ${t("pp_h2h_racks")} ${tot.a_racks || 0} – ${tot.b_racks || 0}` })
        : el("p", { class: "muted", id: "h2h-none", text: t("pp_h2h_none") }),
      perGame.length > 1 ? el("ul", { class: "pp-h2h-games" }, perGame.map(([d, g]) => el("li", { dataset: { discipline: d } },
        el("span", { text: tc("d", d) }), el("b", { text: `${g.a_wins} – ${g.b_wins}` }),
        el("span", { class: "muted", text: `${t("pp_h2h_racks")} ${g.a_racks} – ${g.b_racks}` })))) : null,
      (v.matches || []).length ? el("ul", { class: "pp-list-plain", id: "h2h-matches" }, v.matches.map(matchRow)) : null);
  }
}

// The desk's series (PROTOCOL.md section 13): a ranking over several tournaments. On the desk's
// home: every series with a link to its live standings page (/series/{id}); a new one (its name,
// its bands of points: the first place of each band and the points each place of it gets, and
// optionally "count each player's best k events"); for each, its tournaments added or taken out,
// its bands and best k changed, or the series deleted (its tournaments stay). The hub checks every
// body (422 with a code): the page says the refusal in its language.
import { t, hasText } from "./i18n.js";
import { el, fill } from "./ui.js";
import { api } from "./desk-api.js";
import { errorText, field, say, noticeLine, busy, ask } from "./desk-ui.js";

const enc = encodeURIComponent;
const DEFAULT_BANDS = [[1, 100], [2, 75], [3, 55], [5, 35], [9, 20]];
const MAX_BANDS = 64;

/** A refusal in the page's language when the series code is known, else the desk's usual words. */
function refusal(e) {
  const key = `se_dk_err_${e && e.code}`;
  return e && e.code && hasText(key) ? t(key) : errorText(e);
}

/** Rows of (first place, points) with a button to add a row; `value()` is the body's `points`. */
class BandsEditor {
  constructor(id, bands) {
    this.id = id;
    this.rows = bands.map(([place, points]) => ({ place: String(place), points: String(points) }));
    this.box = el("div", { class: "se-bands", id });
  }

  value() {
    const out = {};
    for (const r of this.rows) {
      if (r.place.trim() === "" && r.points.trim() === "") continue;
      // sent as typed: the hub says which band is not a place (bad_band) or not whole points
      out[r.place.trim()] = /^\d+$/.test(r.points.trim()) ? Number(r.points.trim()) : r.points.trim();
    }
    return out;
  }

  paint() {
    const line = (r, i) => el("div", { class: "row se-band", dataset: { band: String(i) } },
      field("se_dk_band_place", el("input", { type: "text", inputmode: "numeric", class: "se-band-place", value: r.place,
        "aria-label": t("se_dk_band_place"),
        maxlength: 6, oninput: (e) => { r.place = e.target.value; } })),
      field("se_dk_band_points", el("input", { type: "text", inputmode: "numeric", class: "se-band-points", "aria-label": t("se_dk_band_points"),
        value: r.points, maxlength: 8, oninput: (e) => { r.points = e.target.value; } })),
      el("button", { class: "btn small", type: "button", dataset: { action: "remove-band" }, text: "×",
        "aria-label": t("se_dk_remove_band"), disabled: this.rows.length <= 1,
        onclick: () => { this.rows.splice(i, 1); this.paint(); } }));
    const more = el("button", { class: "btn small", type: "button", dataset: { action: "add-band" },
      text: t("se_dk_add_band"), disabled: this.rows.length >= MAX_BANDS, onclick: () => {
        const last = this.rows[this.rows.length - 1];
        const next = last && /^\d+$/.test(last.place) ? String(Number(last.place) * 2 - 1 || 2) : "";
        this.rows.push({ place: next, points: "" });
        this.paint();
      } });
    fill(this.box, el("p", { class: "muted small", text: t("se_dk_bands_help") }), this.rows.map(line), more);
  }
}

/** The best-k input: empty means every event counts. */
function bestInput(id, best) {
  return el("input", { type: "number", id, min: 1, max: 1000, step: 1, class: "se-best", value: best ? String(best) : "" });
}

function bestOf(input) {
  const text = input.value.trim();
  return text === "" ? null : Number(text);
}

export function seriesView() {
  let list = null; // null: loading
  let tournaments = [];
  let failure = null;
  const open = new Set(); // the series whose management is shown
  const box = el("section", { class: "card", id: "series-desk" });
  const message = noticeLine("series-message");
  const nameInput = el("input", { id: "series-name", type: "text", maxlength: 200, autocomplete: "off" });
  const bands = new BandsEditor("series-bands", DEFAULT_BANDS);
  const best = bestInput("series-best", null);
  const createButton = el("button", { class: "btn primary", id: "create-series", type: "submit" });
  const form = el("form", { class: "inline-form se-new", id: "new-series", onsubmit: create });

  async function load() {
    try {
      const [all, tours] = await Promise.all([api("GET", "/api/series"), api("GET", "/api/tournaments?archived=1")]);
      list = all.series || [];
      tournaments = tours.tournaments || [];
      failure = null;
    } catch (e) {
      failure = e;
    }
    paintList();
  }

  async function create(e) {
    e.preventDefault();
    await busy(createButton, null, async () => {
      try {
        const made = await api("POST", "/api/series", { name: nameInput.value.trim(), points: bands.value(), best: bestOf(best) });
        nameInput.value = "";
        best.value = "";
        bands.rows = DEFAULT_BANDS.map(([place, points]) => ({ place: String(place), points: String(points) }));
        bands.paint();
        open.add(made.id);
        say(message, t("se_dk_created", { name: made.name }), "ok");
        await load();
      } catch (err) {
        say(message, refusal(err), "err");
      }
    });
  }

  /** A write on one series: the answer is the series made again; the list is read again after. */
  async function change(button, work, done) {
    await busy(button, null, async () => {
      try {
        await work();
        if (done) say(message, done, "ok");
      } catch (err) {
        say(message, refusal(err), "err");
      }
      await load();
    });
  }

  function manage(s) {
    const inIt = new Set(s.tournaments.map((x) => x.id));
    const pick = el("select", { class: "se-add-pick", "aria-label": t("se_dk_add_tournament") },
      el("option", { value: "", text: t("se_dk_pick_tournament") }),
      tournaments.filter((x) => !inIt.has(x.id)).map((x) => el("option", { value: x.id, text: x.name })));
    const add = el("button", { class: "btn small", type: "button", dataset: { action: "add-tournament" }, text: t("se_dk_add") });
    add.addEventListener("click", () => {
      if (!pick.value) return;
      const name = pick.selectedOptions[0].textContent;
      change(add, () => api("POST", `/api/series/${enc(s.id)}/tournaments`, { tournament_id: pick.value }),
        t("se_dk_added", { name }));
    });
    const edit = new BandsEditor(`series-bands-${s.id}`, Object.entries(s.points).map(([k, v]) => [k, v]));
    edit.paint();
    const keep = bestInput(`series-best-${s.id}`, s.best);
    const save = el("button", { class: "btn small", type: "button", dataset: { action: "save-series" }, text: t("se_dk_save") });
    save.addEventListener("click", () => change(save,
      () => api("PATCH", `/api/series/${enc(s.id)}`, { points: edit.value(), best: bestOf(keep) }), t("se_dk_saved", { name: s.name })));
    const drop = el("button", { class: "btn small danger", type: "button", dataset: { action: "delete-series" }, text: t("se_dk_delete") });
    drop.addEventListener("click", async () => {
      if (!(await ask(t("se_dk_delete_confirm", { name: s.name })))) return;
      open.delete(s.id);
      change(drop, () => api("DELETE", `/api/series/${enc(s.id)}`), t("se_dk_deleted", { name: s.name }));
    });
    const status = (x) => t(x.status === "finished" ? "se_finished" : x.status === "in_progress" ? "se_in_progress" : "se_not_started");
    return el("div", { class: "se-manage" },
      s.tournaments.length
        ? el("ul", { class: "tour-list se-tournaments" }, s.tournaments.map((x) => {
          const out = el("button", { class: "btn small", type: "button", dataset: { action: "remove-tournament" }, text: t("se_dk_remove") });
          out.addEventListener("click", () => change(out,
            () => api("DELETE", `/api/series/${enc(s.id)}/tournaments/${enc(x.id)}`), t("se_dk_removed", { name: x.name })));
          return el("li", { dataset: { tournament: x.id } },
            el("bdi", { class: "tour-name", text: x.name }), el("span", { class: "muted small", text: status(x) }), out);
        }))
        : el("p", { class: "muted se-no-tournaments", text: t("se_dk_no_tournaments") }),
      el("div", { class: "row wrap" }, pick, add),
      el("h3", { text: t("se_dk_points_title") }), edit.box,
      el("div", { class: "row" }, field("se_dk_best", keep), save, drop));
  }

  function row(s) {
    const details = el("details", { class: "se-item", dataset: { series: s.id }, open: open.has(s.id),
      ontoggle: (e) => { if (e.target.open) open.add(s.id); else open.delete(s.id); } },
    el("summary", {},
      el("bdi", { class: "se-name", text: s.name }),
      el("span", { class: "muted small", text: t("se_dk_count", { n: s.tournaments.length }) }),
      el("a", { class: "small se-standings-link", href: `/series/${enc(s.id)}`, target: "_blank", rel: "noopener",
        text: t("se_dk_standings") })),
    manage(s));
    return el("li", { class: "se-entry", dataset: { series: s.id } }, details);
  }

  const listBox = el("div", { class: "se-list-box" });

  /** The list alone: read again after every change, it never moves the form (typing goes on). */
  function paintList() {
    fill(listBox, failure ? el("p", { class: "notice err", text: errorText(failure) })
      : list === null ? el("p", { class: "muted", text: t("loading") })
        : list.length ? el("ul", { class: "se-list", id: "series-list" }, list.map(row))
          : el("p", { class: "muted", id: "no-series", text: t("se_dk_none") }));
  }

  /** Everything, in the page's language (at mount and when the language changes). */
  function paint() {
    nameInput.placeholder = t("se_dk_name_ph");
    createButton.textContent = t("se_dk_create");
    bands.paint();
    fill(form, el("h3", { text: t("se_dk_new") }),
      el("div", { class: "row" }, field("se_dk_name", nameInput), field("se_dk_best", best)),
      el("h3", { text: t("se_dk_points_title") }), bands.box, el("div", { class: "row" }, createButton));
    fill(box, el("h2", { text: t("series_title") }), el("p", { class: "muted small", text: t("se_dk_help") }),
      listBox, message, form);
    paintList();
  }

  return {
    mount(node) {
      node.append(box);
      paint();
      load();
    },
    paint,
    refresh: load,
  };
}

// /desk: the tournaments, newest first, and a new one.
import { t } from "./i18n.js";
import { el, fill } from "./ui.js";
import { hub } from "./desk-api.js";
import { FIRST_STEP } from "./desk-steps.js";
import { errorText, field, say, noticeLine } from "./desk-ui.js";

const enc = encodeURIComponent;

export function tournamentsView({ navigate }) {
  let list = null; // null: loading
  let failure = null;
  const box = el("section", { class: "card", id: "tournaments" });
  const nameInput = el("input", { id: "tournament-name", type: "text", maxlength: 200, required: true, autocomplete: "off" });
  const createButton = el("button", { class: "btn primary", id: "create-tournament", type: "submit" });
  const message = noticeLine("tournament-message");
  const form = el("form", { class: "card inline-form", id: "new-tournament", onsubmit: create });

  async function load() {
    try {
      list = (await hub.tournaments()).tournaments || [];
      failure = null;
    } catch (e) {
      failure = e;
    }
    paint();
  }

  async function create(e) {
    e.preventDefault();
    const name = nameInput.value.trim();
    if (!name) return;
    createButton.disabled = true;
    try {
      const made = await hub.createTournament(name);
      nameInput.value = "";
      navigate(`/desk/${enc(made.id)}/${FIRST_STEP}`);
    } catch (err) {
      say(message, errorText(err), "err");
    } finally {
      createButton.disabled = false;
    }
  }

  function paint() {
    nameInput.placeholder = t("desk_tournament_name_ph");
    createButton.textContent = t("desk_create");
    fill(form, el("h2", { text: t("desk_new_tournament") }),
      el("div", { class: "row" }, field("desk_tournament_name", nameInput), createButton), message);
    fill(box, el("h2", { text: t("desk_tournaments") }),
      failure ? el("p", { class: "notice err", text: errorText(failure) })
        : list === null ? el("p", { class: "muted", text: t("loading") })
          : !list.length ? el("p", { class: "muted", id: "no-tournaments", text: t("desk_no_tournaments") })
            : el("ul", { class: "tour-list", id: "tournament-list" }, list.map((tr) => el("li", { dataset: { tournament: tr.id } },
              el("a", { class: "tour-name", href: `/desk/${enc(tr.id)}`, "data-nav": true, text: tr.name }),
              el("a", { class: "muted small", href: `/board/${enc(tr.id)}`, text: t("scoreboard") })))));
  }

  return {
    mount(node) {
      node.append(el("div", { class: "desk-home" }, form, box));
      paint();
      load();
      nameInput.focus();
    },
    paint,
    refresh: load,
    say: (text, kind) => say(message, text, kind),
  };
}

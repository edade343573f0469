// /desk: the tournaments, newest first, and a new one. A tournament none of whose matches has
// started can be deleted (a test, a typo); one with results is archived instead: gone from the
// public list, its pages still answer, and it can be brought back. Archived ones are listed apart.
// "Sign out everywhere" ends every desk session (a lost laptop).
import { t } from "./i18n.js";
import { el, fill } from "./ui.js";
import { hub, session } from "./desk-api.js";
import { FIRST_STEP } from "./desk-steps.js";
import { errorText, field, say, noticeLine, busy, ask, knowNames } from "./desk-ui.js";
import { webhooksPanel } from "./desk-webhooks.js";
import { seriesView } from "./desk-series.js";

const enc = encodeURIComponent;

export function tournamentsView({ navigate, onSignedOutEverywhere = () => {} }) {
  let list = null; // null: loading
  let archived = [];
  let showArchived = false;
  let failure = null;
  const box = el("section", { class: "card", id: "tournaments" });
  const nameInput = el("input", { id: "tournament-name", type: "text", maxlength: 200, required: true, autocomplete: "off" });
  const createButton = el("button", { class: "btn primary", id: "create-tournament", type: "submit" });
  const message = noticeLine("tournament-message");
  const form = el("form", { class: "card inline-form", id: "new-tournament", onsubmit: create });
  const account = el("section", { class: "card desk-account", id: "desk-account" });
  const webhooks = webhooksPanel(); // the hub's webhooks and their deliveries (section 16)
  const series = seriesView(); // the series over several tournaments (js/desk-series.js)

  async function load() {
    try {
      const [open, all] = await Promise.all([hub.tournaments(), hub.tournaments({ archived: true })]);
      list = open.tournaments || [];
      const shown = new Set(list.map((x) => x.id));
      archived = (all.tournaments || []).filter((x) => !shown.has(x.id));
      knowNames(null, [...list, ...archived]);
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

  /** Nothing played yet: delete. Results: archive (the hub says has_results when it knows better). */
  const played = (tr) => tr.status === "finished" || Number(tr.played || 0) > 0 || (tr.live || []).length > 0;

  function action(label, act, cls, run) {
    const b = el("button", { class: `btn small ${cls}`.trim(), type: "button", dataset: { action: act }, text: label });
    b.addEventListener("click", () => run(b));
    return b;
  }

  async function remove(tr, b) {
    if (!(await ask(t("desk_delete_confirm", { name: tr.name })))) return;
    await busy(b, null, async () => {
      try {
        await hub.deleteTournament(tr.id);
        say(message, t("desk_deleted", { name: tr.name }), "ok");
      } catch (e) {
        if (e.code !== "has_results") { say(message, errorText(e), "err"); return; }
        say(message, `${t("desk_has_results", { name: tr.name })}`, "err");
      }
      await load();
    });
  }

  async function archive(tr, b, back = false) {
    if (!back && !(await ask(t("desk_archive_confirm", { name: tr.name })))) return;
    await busy(b, message, async () => {
      await (back ? hub.unarchiveTournament(tr.id) : hub.archiveTournament(tr.id));
      say(message, t(back ? "desk_unarchived" : "desk_archived", { name: tr.name }), "ok");
      await load();
    });
  }

  function row(tr, isArchived) {
    return el("li", { dataset: { tournament: tr.id } },
      el("a", { class: "tour-name", href: `/desk/${enc(tr.id)}`, "data-nav": true, text: tr.name }),
      tr.status ? el("span", { class: "muted small tour-status", text: t(`desk_ts_${tr.status}`, {}, tr.status) }) : null,
      el("a", { class: "muted small", href: `/board/${enc(tr.id)}`, text: t("scoreboard") }),
      el("span", { class: "tour-actions" },
        isArchived ? action(t("desk_unarchive"), "unarchive", "", (b) => archive(tr, b, true))
          : played(tr) ? action(t("desk_archive"), "archive", "", (b) => archive(tr, b))
            : action(t("desk_delete"), "delete", "danger", (b) => remove(tr, b))));
  }

  async function everywhere(b) {
    if (!(await ask(t("desk_signout_all_confirm")))) return;
    await busy(b, message, async () => {
      await session.signOutEverywhere();
      onSignedOutEverywhere();
    });
  }

  function paint() {
    nameInput.placeholder = t("desk_tournament_name_ph");
    createButton.textContent = t("desk_create");
    const empty = Array.isArray(list) && !list.length && !failure;
    fill(form, el("h2", { text: t("desk_new_tournament") }),
      empty ? el("p", { class: "muted", id: "no-tournaments", text: t("desk_no_tournaments") }) : null,
      el("div", { class: "row" }, field("desk_tournament_name", nameInput), createButton), message);
    box.classList.toggle("hidden", empty && !archived.length);
    fill(box, el("h2", { text: t("desk_tournaments") }),
      failure ? el("p", { class: "notice err", text: errorText(failure) })
        : list === null ? el("p", { class: "muted", text: t("loading") })
          : list.length ? el("ul", { class: "tour-list", id: "tournament-list" }, list.map((tr) => row(tr, false)))
            : el("p", { class: "muted", id: "no-open-tournaments", text: t("desk_all_archived") }),
      archived.length ? el("details", { class: "archived", id: "archived", open: showArchived,
        ontoggle: (e) => { showArchived = e.target.open; } },
      el("summary", { text: t("desk_archived_n", { n: archived.length }) }),
      el("ul", { class: "tour-list", id: "archived-list" }, archived.map((tr) => row(tr, true)))) : null);
    const out = el("button", { class: "btn small", id: "signout-everywhere", type: "button", text: t("desk_signout_all") });
    out.addEventListener("click", () => everywhere(out));
    fill(account, el("p", { class: "muted small", text: t("desk_signout_all_help") }), out);
  }

  return {
    mount(node) {
      const seriesSlot = el("div", { class: "desk-series-slot" });
      node.append(el("div", { class: "desk-home" }, form, box, seriesSlot, webhooks.node, account));
      series.mount(seriesSlot);
      paint();
      load();
      webhooks.start();
      nameInput.focus();
    },
    unmount() { webhooks.stop(); },
    paint() { paint(); series.paint(); webhooks.paint(); },
    refresh: load,
    say: (text, kind) => say(message, text, kind),
  };
}

// Step "entries" (PROTOCOL.md section 14): the registration's settings (taking sign-ups, cap,
// auto-accept, closing time, the check-in window), the sign-up page's link, the counts, and every
// entry with its contact and status: accept, reject, waitlist, check in. The entries are not on
// the tournament channel (contacts are never on a channel): the list is read again every few
// seconds while the step is open, and at once after each action.
import { t, lang } from "./i18n.js";
import { el } from "./ui.js";
import { api } from "./desk-api.js";
import { errorText, field, say, noticeLine } from "./desk-ui.js";

const enc = encodeURIComponent;
const POLL_MS = 4000;
const ACTIONS = {
  pending: ["accept", "waitlist", "reject"],
  waitlisted: ["accept", "reject"],
  accepted: ["check_in", "waitlist", "reject"],
  rejected: ["accept"],
  checked_in: ["reject"],
  cancelled: [],
  no_show: [],
};
const ACTION_KEY = { accept: "dk_en_accept", reject: "dk_en_reject", waitlist: "dk_en_waitlist", check_in: "dk_en_check_in" };

function localInput(id, ms) {
  const input = el("input", { id, type: "datetime-local", class: "en-when" });
  if (ms) {
    const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60000);
    input.value = d.toISOString().slice(0, 16);
  }
  return input;
}

function msOf(input) {
  return input.value ? new Date(input.value).getTime() : null;
}

function clock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  return `${h ? `${h}:` : ""}${String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, "0")}:${String(s % 60).padStart(2, "0")}`;
}

export function entriesView(ctx) {
  let root = null;
  let data = null;
  let poll = null;
  let ticker = null;
  const message = noticeLine("entries-message");
  const settingsBox = el("section", { class: "card en-settings", id: "en-settings" });
  const summary = el("div", { class: "en-summary", id: "en-summary" });
  const list = el("ul", { class: "en-list", id: "en-list" });

  const base = `/api/tournaments/${enc(ctx.tid)}`;

  async function load() {
    try {
      data = await api("GET", `${base}/entries`);
    } catch (e) {
      say(message, errorText(e), "err");
      return;
    }
    paintSummary();
    paintList();
  }

  function paintSettings() {
    const reg = (data && data.registration) || {};
    const open = el("input", { type: "checkbox", id: "en-open", checked: Boolean(reg.open) });
    const auto = el("input", { type: "checkbox", id: "en-auto", checked: Boolean(reg.auto_accept) });
    const cap = el("input", { type: "number", id: "en-cap", min: 1, max: 1024, inputmode: "numeric", value: reg.cap ?? "" });
    const closes = localInput("en-closes", reg.closes_at);
    const ciOpens = localInput("en-ci-opens", reg.check_in && reg.check_in.opens_at);
    const ciCloses = localInput("en-ci-closes", reg.check_in && reg.check_in.closes_at);
    const save = el("button", { class: "btn primary", id: "en-save", type: "submit", text: t("dk_en_save") });
    const form = el("form", { id: "en-settings-form" },
      el("label", { class: "check" }, open, el("span", { text: t("dk_en_open") })),
      el("label", { class: "check" }, auto, el("span", { text: t("dk_en_auto") })),
      el("div", { class: "row" }, field("dk_en_cap", cap), field("dk_en_closes", closes)),
      el("div", { class: "row" }, field("dk_en_ci_opens", ciOpens), field("dk_en_ci_closes", ciCloses)),
      el("div", { class: "row" }, save));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const body = { open: open.checked, auto_accept: auto.checked, cap: cap.value ? Number(cap.value) : null,
        closes_at: msOf(closes), check_in: msOf(ciCloses) ? { opens_at: msOf(ciOpens), closes_at: msOf(ciCloses) } : null };
      if (reg.check_in_closed) delete body.check_in; // frozen once closed
      save.disabled = true;
      try {
        await api("PATCH", base, { registration: body });
        say(message, t("dk_en_saved"), "ok");
        await load();
        paintSettings();
      } catch (err) {
        say(message, errorText(err), "err");
      } finally {
        save.disabled = false;
      }
    });
    const url = `${location.origin}/enter/${enc(ctx.tid)}`;
    settingsBox.replaceChildren(el("h2", { text: t("dk_en_settings") }), form,
      el("p", { class: "muted", id: "en-link" }, t("dk_en_link", { url: "" }), el("a", { href: url, target: "_blank", text: url })));
  }

  function paintSummary() {
    if (!data) return;
    const c = data.counts;
    const reg = data.registration;
    const names = new Map(data.entries.map((e) => [e.id, e.name]));
    const w = reg.check_in;
    let ci = null;
    if (w && w.closes_at) {
      ci = reg.check_in_closed ? t("dk_en_ci_done") : t("dk_en_ci_left", { time: clock(w.closes_at - Date.now()) });
    }
    summary.replaceChildren(...[
      el("p", { class: "en-counts", id: "en-counts", text: t("dk_en_counts", {
        accepted: c.accepted + c.checked_in, checked_in: c.checked_in, waitlisted: c.waitlisted, pending: c.pending, total: c.total }) }),
      ci ? el("p", { class: "en-ci", id: "en-ci", text: ci }) : null,
      data.no_shows.length ? el("p", { class: "notice err", id: "en-no-shows",
        text: t("dk_en_no_shows", { names: data.no_shows.map((id) => names.get(id) || id).join(lang() === "zh-CN" ? "、" : ", ") }) }) : null,
    ].filter(Boolean));
  }

  async function act(entry, action, button) {
    button.disabled = true;
    try {
      await api("POST", `${base}/entries/${enc(entry.id)}/${action}`);
      say(message, "", "info");
      await load();
    } catch (e) {
      say(message, errorText(e), "err");
      button.disabled = false;
    }
  }

  function row(entry) {
    const buttons = (ACTIONS[entry.status] || []).map((action) => {
      const b = el("button", { class: `btn small${action === "reject" ? " danger" : action === "accept" || action === "check_in" ? " primary" : ""}`,
        type: "button", dataset: { action }, text: t(ACTION_KEY[action]) });
      b.addEventListener("click", () => act(entry, action, b));
      return b;
    });
    return el("li", { class: "en-row card", dataset: { entry: entry.id, status: entry.status } },
      el("div", { class: "en-main" },
        el("span", { class: "en-who" }, el("bdi", { class: "en-entry-name", text: entry.name }),
          entry.club ? el("span", { class: "muted", text: ` · ${entry.club}` }) : null),
        el("span", { class: `en-chip st-${entry.status}`, text: t(`en_st_${entry.status}`) }),
        entry.place ? el("span", { class: "muted", text: t("dk_en_place", { place: entry.place }) }) : null,
        entry.contact ? el("span", { class: "en-contact muted", title: t("dk_en_contact"), text: entry.contact }) : null,
        entry.refused ? el("span", { class: "notice err small", text: t("dk_en_not_in_draw", { code: entry.refused }) }) : null),
      el("div", { class: "en-actions" }, buttons));
  }

  function paintList() {
    if (!data) return;
    list.replaceChildren(...(data.entries.length ? data.entries.map(row) : [el("li", { class: "muted", id: "en-none", text: t("dk_en_none") })]));
  }

  return {
    async mount(node) {
      root = el("div", { class: "entries-step" }, settingsBox, message, summary, list);
      node.append(root);
      await load();
      paintSettings();
      poll = setInterval(() => { if (!document.hidden) load(); }, POLL_MS);
      ticker = setInterval(paintSummary, 1000);
    },
    update() { /* the tournament changed: the entries are read on their own */ },
    paint() { paintSettings(); paintSummary(); paintList(); },
    unmount() { root = null; clearInterval(poll); clearInterval(ticker); },
  };
}

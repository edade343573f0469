// The hub's webhooks on the desk (PROTOCOL.md section 16, admin): every hook with its URL and
// events, a new one (its secret is shown once, as the hub answers it), removing one, and per hook
// its deliveries log (GET /api/webhooks/{id}/deliveries: the last 100, newest first): event, status,
// attempts, the last answer or error and when, and the delivery id a receiver sees in
// X-Cuehub-Delivery. Read again every POLL_MS while the page is in view; the form is never repainted
// (a URL being typed stays), and a hook's log stays open across refreshes.
import { t } from "./i18n.js";
import { el, fill } from "./ui.js";
import { api } from "./desk-api.js";
import { errorText, say, noticeLine, busy, ask, timeOfDay } from "./desk-ui.js";

const enc = encodeURIComponent;
export const POLL_MS = 3000;
export const EVENTS = ["match.called", "match.started", "match.finished", "tournament.finished", "entry.created"];
const SHOWN = 20; // deliveries shown per hook before "show all"

export const webhooksApi = {
  list: () => api("GET", "/api/webhooks"),
  create: (url, events) => api("POST", "/api/webhooks", { url, events }),
  remove: (id) => api("DELETE", `/api/webhooks/${enc(id)}`),
  deliveries: (id) => api("GET", `/api/webhooks/${enc(id)}/deliveries`),
};

/** The desk's webhooks card: `{node, paint(), start(), stop()}`. */
export function webhooksPanel() {
  let hooks = null; // null: loading
  let failure = null;
  let secret = null; // {id, secret} of the hook just made: shown once
  const logs = new Map(); // hook id -> deliveries (as last read) for the open ones
  const open = new Set(); // hook ids whose log is open
  const whole = new Set(); // hook ids whose whole log (not only the last SHOWN) is shown
  let timer = null;

  const node = el("section", { class: "card webhooks", id: "webhooks" });
  const urlInput = el("input", { id: "webhook-url", type: "url", maxlength: 2000, required: true, autocomplete: "off",
    spellcheck: "false", autocapitalize: "off", placeholder: "https://" });
  const boxes = EVENTS.map((ev) => el("input", { type: "checkbox", value: ev, checked: ev === "match.called" || ev === "match.finished",
    dataset: { event: ev } }));
  const addButton = el("button", { class: "btn primary", id: "webhook-add", type: "submit" });
  const message = noticeLine("webhook-message");
  const form = el("form", { class: "webhook-form", id: "webhook-form", onsubmit: add });
  const listBox = el("div", { id: "webhook-list" });

  async function load() {
    try {
      hooks = (await webhooksApi.list()).webhooks || [];
      failure = null;
      const ids = new Set(hooks.map((h) => h.id));
      for (const id of [...open]) if (!ids.has(id)) { open.delete(id); logs.delete(id); }
      await Promise.all([...open].map(readLog));
    } catch (e) {
      failure = e;
    }
    paintList();
  }

  async function readLog(id) {
    try {
      logs.set(id, (await webhooksApi.deliveries(id)).deliveries || []);
    } catch (e) {
      if (e.status === 404) { open.delete(id); logs.delete(id); }
    }
  }

  async function add(e) {
    e.preventDefault();
    const url = urlInput.value.trim();
    const events = boxes.filter((b) => b.checked).map((b) => b.value);
    if (!url) return;
    if (!events.length) { say(message, t("dk_wh_no_events"), "err"); return; }
    await busy(addButton, message, async () => {
      const made = await webhooksApi.create(url, events);
      urlInput.value = "";
      secret = { id: made.id, secret: made.secret };
      say(message, t("dk_wh_added", { url: made.url }), "ok");
      open.add(made.id);
      await load();
    });
  }

  async function remove(hook, button) {
    if (!(await ask(t("dk_wh_remove_confirm", { url: hook.url })))) return;
    await busy(button, message, async () => {
      await webhooksApi.remove(hook.id);
      if (secret && secret.id === hook.id) secret = null;
      say(message, t("dk_wh_removed", { url: hook.url }), "ok");
      await load();
    });
  }

  async function toggle(hook, isOpen) {
    if (isOpen === open.has(hook.id)) return;
    if (isOpen) { open.add(hook.id); await readLog(hook.id); } else { open.delete(hook.id); logs.delete(hook.id); }
    paintList();
  }

  /** The last word of a delivery: the receiver's answer or error, and when (done, or the next try). */
  function lastOf(d) {
    const said = d.last_error || (d.last_code ? `HTTP ${d.last_code}` : "");
    const when = d.status === "pending" ? (d.attempts ? t("dk_wh_next", { time: timeOfDay(d.next_at) }) : t("dk_wh_queued"))
      : d.done_at ? timeOfDay(d.done_at) : "";
    return { said, when };
  }

  function logTable(hook) {
    const rows = logs.get(hook.id);
    if (!rows) return el("p", { class: "muted small", text: t("loading") });
    if (!rows.length) return el("p", { class: "muted small wh-empty", text: t("dk_wh_log_empty") });
    const shown = whole.has(hook.id) ? rows : rows.slice(0, SHOWN);
    const counts = {};
    for (const d of rows) counts[d.status] = (counts[d.status] || 0) + 1;
    return el("div", { class: "wh-log" },
      el("p", { class: "small wh-counts", dataset: { delivered: counts.delivered || 0, pending: counts.pending || 0,
        failed: counts.failed || 0, dropped: counts.dropped || 0 } },
      t("dk_wh_counts", { n: rows.length, delivered: counts.delivered || 0, pending: counts.pending || 0,
        failed: (counts.failed || 0) + (counts.dropped || 0) })),
      el("div", { class: "wh-scroll" }, el("table", { class: "wh-table" },
        el("thead", {}, el("tr", {}, ["dk_wh_col_event", "dk_wh_col_status", "dk_wh_col_attempts", "dk_wh_col_last",
          "dk_wh_col_time", "dk_wh_col_id"].map((k) => el("th", { scope: "col", text: t(k) })))),
        el("tbody", {}, shown.map((d) => {
          const last = lastOf(d);
          return el("tr", { class: `wh-row wh-${d.status}`, dataset: { delivery: d.id, status: d.status } },
            el("td", { class: "wh-event", text: d.event }),
            el("td", { class: "wh-status" }, el("span", { class: `wh-badge ${d.status}`, text: t(`dk_wh_st_${d.status}`, {}, d.status) })),
            el("td", { class: "wh-attempts num", text: String(d.attempts) }),
            el("td", { class: "wh-last" }, el("bdi", { text: last.said }),
              d.latency_ms !== null && d.latency_ms !== undefined && d.attempts ? el("span", { class: "muted", text: ` · ${d.latency_ms} ms` }) : null),
            el("td", { class: "wh-time", text: last.when }),
            el("td", { class: "wh-id" }, el("code", { text: d.id })));
        })))),
      rows.length > shown.length ? el("button", { class: "btn small", type: "button", dataset: { action: "all" },
        text: t("dk_wh_show_all", { n: rows.length }), onclick: () => { whole.add(hook.id); paintList(); } }) : null);
  }

  function hookItem(hook) {
    const removeButton = el("button", { class: "btn small danger", type: "button", dataset: { action: "remove" }, text: t("dk_wh_remove") });
    removeButton.addEventListener("click", () => remove(hook, removeButton));
    const details = el("details", { class: "wh-hook-log", open: open.has(hook.id),
      ontoggle: (e) => toggle(hook, e.target.open) },
    el("summary", { text: t("dk_wh_log") }), open.has(hook.id) ? logTable(hook) : null);
    return el("li", { class: "wh-hook", dataset: { hook: hook.id } },
      el("div", { class: "wh-head" },
        el("bdi", { class: "wh-url", text: hook.url }),
        el("span", { class: "muted small wh-events", text: hook.events.join(", ") }),
        removeButton),
      secret && secret.id === hook.id ? el("p", { class: "notice info wh-secret" },
        t("dk_wh_secret"), " ", el("code", { id: "webhook-secret-value", text: secret.secret })) : null,
      details);
  }

  function paintList() {
    fill(listBox,
      failure ? el("p", { class: "notice err", text: errorText(failure) })
        : hooks === null ? el("p", { class: "muted", text: t("loading") })
          : hooks.length ? el("ul", { class: "wh-hooks", id: "webhook-hooks" }, hooks.map(hookItem))
            : el("p", { class: "muted", id: "no-webhooks", text: t("dk_wh_none") }));
  }

  function paint() {
    addButton.textContent = t("dk_wh_add");
    fill(form,
      el("label", { class: "field wide", for: "webhook-url" }, el("span", { class: "field-label", text: t("dk_wh_url") }), urlInput),
      el("fieldset", { class: "wh-events-pick" }, el("legend", { text: t("dk_wh_events") }),
        boxes.map((b) => el("label", { class: "check" }, b, " ", el("span", { text: t(`dk_wh_ev_${b.value.replace(".", "_")}`) })))),
      addButton);
    fill(node, el("h2", { text: t("dk_wh_title") }), el("p", { class: "muted small", text: t("dk_wh_help") }),
      form, message, listBox);
    paintList();
  }

  function tick() { if (!document.hidden) load(); }

  paint();
  return {
    node,
    paint,
    start() { if (!timer) { load(); timer = setInterval(tick, POLL_MS); } },
    stop() { clearInterval(timer); timer = null; },
  };
}

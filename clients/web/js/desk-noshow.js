// The no-show flag on the desk's table card (PROTOCOL.md section 16): a draw match called to a table
// and not started by its `no_show_at` (the call's time plus the tournament's `no_show_minutes`, or
// the desk's wait) shows how long ago it was called and three one-click choices: a walkover to the
// player who is there, back to the queue, wait 5 more minutes. The hub's stored facts say when; the
// server clock (live.js) says now, so every desk shows the same flag, after a restart too. A called
// rubber of a team match is flagged the same way (its entry from draw-view.js calledEntryOf; its
// walkover goes to a side of the rubber, named as the table's match names it).
import { t } from "./i18n.js";
import { el } from "./ui.js";
import { serverNow } from "./live.js";
import { api } from "./desk-api.js";

const enc = encodeURIComponent;
/** A draw key in a route: a rubber's slash stays a slash (`W1-1/2`; the hub's `{key:path}`), each part encoded. */
export const keyPath = (key) => String(key).split("/").map(enc).join("/");

/** Whole minutes since a server time (ms), never negative. */
export const minutesSince = (at) => Math.max(0, Math.floor((serverNow() - at) / 60000));

/** Is the draw match `e` (on a table whose match is `m`) a no-show now? */
export function isNoShow(e, m) {
  return Boolean(e && e.status === "called" && e.no_show_at && (!m || m.status === "scheduled") && serverNow() >= e.no_show_at);
}

/** The flag and its choices; `act(button, work, okText)` runs a call and reloads (desk-run.js). */
export function noShowFlag(tid, e, { name: drawName, act, button, match }) {
  const own = new Map(((match && match.players) || []).map((p) => [p.id, p.name])); // a rubber's members
  const name = (pid) => own.get(pid) || drawName(pid);
  const path = `/api/tournaments/${enc(tid)}/draw/${keyPath(e.key)}`;
  return el("div", { class: "noshow-flag", role: "alert", dataset: { noshow: e.key } },
    el("strong", { class: "ns-title", text: t("dk_ns_flag", { n: minutesSince(e.called_at) }) }),
    el("div", { class: "ns-actions" },
      (e.players || []).filter((p) => p && p !== "bye").map((pid) => button(t("dk_ns_wo_to", { name: name(pid) }),
        (b) => act(b, () => api("POST", `${path}/walkover`, { winner: pid }), t("dk_wo_done", { key: e.key, name: name(pid) })),
        { cls: "danger", action: "noshow-walkover" })),
      button(t("dk_requeue"), (b) => act(b, () => api("POST", `${path}/requeue`), t("dk_requeued", { key: e.key })), { action: "noshow-requeue" }),
      button(t("dk_ns_wait"), (b) => act(b, () => api("POST", `${path}/wait`, { minutes: 5 }), t("dk_ns_waited", { key: e.key })), { action: "noshow-wait" })));
}

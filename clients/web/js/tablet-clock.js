// The tablet's clocks: the shot clock (paused as the hub pauses it when the link has been gone for
// longer than the hub's grace) and the match clock, painted five times a second. `tab` is the
// page's state (tablet.js).
import { t } from "./i18n.js";
import { remainingMs, serverNow } from "./live.js";
import { el, paintShotClock, clockText } from "./ui.js";

const LINK_GRACE_MS = 3000; // the hub pauses the shot clock of a table it has not heard for this long

export const clockBox = el("div", { class: "clockbox" },
  el("div", { class: "shotclock big", id: "shot-clock" }),
  el("div", { class: "muted small", id: "clock-note" }),
  el("div", { class: "muted small", id: "match-clock" }));

export function tick(tab) {
  const { match, offlineSince } = tab;
  const c = (match && match.clock) || {};
  const node = document.getElementById("shot-clock");
  const note = document.getElementById("clock-note");
  let shot = c.shot;
  let noteText = "";
  if (shot && shot.running === false) noteText = shot.reason === "link" ? t("clock_paused_link") : t("paused");
  // Without a link for longer than the hub's grace, the hub has paused the clock as of then.
  if (shot && shot.running && offlineSince !== null && Date.now() - offlineSince > LINK_GRACE_MS) {
    const lostAt = serverNow() - (Date.now() - offlineSince);
    shot = { ...shot, running: false, remaining_ms: Math.max(0, shot.deadline - lostAt) };
    noteText = t("clock_paused_link");
  }
  paintShotClock(node, shot);
  note.textContent = noteText;
  const mc = document.getElementById("match-clock");
  const ms = remainingMs(c.match);
  clockBox.classList.toggle("hidden", !c.shot && ms === null);
  mc.textContent = ms === null ? "" : `${t("match_clock")} ${clockText(ms, { minutes: true })}`;
}

// The board's check-in countdown (PROTOCOL.md section 14): while a tournament's check-in window is
// open, a line above the tables says how long is left ("Check-in closes in 12:34"), so players in
// the hall who have not checked in see it. The registration is read over REST (it is not on the
// tournament channel) every half minute; the countdown ticks every second. Hidden otherwise.
import { t, onLangChange } from "./i18n.js";
import { el } from "./ui.js";

const READ_MS = 30_000;

function clock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  return `${h ? `${h}:` : ""}${String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, "0")}:${String(s % 60).padStart(2, "0")}`;
}

/** The countdown's node for tournament `tid`; it keeps itself current. */
export function checkInCountdown(tid) {
  const node = el("div", { class: "check-in-countdown hidden", id: "check-in-countdown", role: "status" });
  let reg = null;

  function paint() {
    const w = reg && reg.check_in;
    const now = Date.now();
    const open = w && w.closes_at && !reg.check_in_closed && now < w.closes_at && !(w.opens_at && now < w.opens_at);
    node.classList.toggle("hidden", !open);
    if (open) node.textContent = t("board_ci_left", { time: clock(w.closes_at - now), n: reg.counts.checked_in, of: reg.counts.accepted });
  }

  async function read() {
    try {
      const r = await fetch(`/api/tournaments/${encodeURIComponent(tid)}/registration`, { cache: "no-store" });
      if (r.ok) reg = await r.json();
    } catch (_) { /* the next read tries again */ }
    paint();
  }

  read();
  setInterval(read, READ_MS);
  setInterval(paint, 1000);
  onLangChange(paint);
  return node;
}

// "Follow" on the player page: once a fan (or the player) taps it, the page announces the
// player's call to a table with a system notification where the browser allows it (the tap asks),
// a banner (role="alert"), a sound (WebAudio: the tap unlocks the
// audio, and a suspended context is resumed before each call) and a vibration where the phone
// allows it (navigator.vibrate), and asks to keep the screen on (Screen Wake Lock, where allowed).
//
// It must still work after the page sat idle for an hour: the watch socket reopens by itself
// when it went quiet (live.js), and an announcement is decided from the projection it is handed,
// not from a transition it might have missed: a called match whose id was not announced yet is
// announced, once (the ids announced are kept in localStorage, so a reload does not ring again).
// Whether the page follows is kept in localStorage too (per tournament and player).
import { t } from "./i18n.js";
import { el, fill, isolated } from "./ui.js";

const KEY = "cuehub.follow";

function load() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch (_) { return {}; }
}
function save(all) { try { localStorage.setItem(KEY, JSON.stringify(all)); } catch (_) { /* storage blocked */ } }

export class Follow {
  constructor(tid, pid) {
    this.id = `${tid}/${pid}`;
    const mine = load()[this.id] || {};
    this.on = Boolean(mine.on);
    this.announced = new Set(mine.announced || []);
    this.audio = null;
    this.wake = null;
    this.beeps = 0;
    this.banner = el("div", { class: "call-banner hidden", id: "call-banner", role: "alert", "aria-live": "assertive" });
    document.addEventListener("visibilitychange", () => { if (this.on && document.visibilityState === "visible") this.keepAwake(); });
  }

  store() {
    const all = load();
    all[this.id] = { on: this.on, announced: [...this.announced].slice(-50) };
    save(all);
  }

  /** The tap on "Follow": a user gesture, the one moment a page may start its audio. */
  toggle() {
    this.on = !this.on;
    if (this.on) { this.unlockAudio(); this.keepAwake(); this.askToNotify(); } else if (this.wake) { this.wake.release().catch(() => {}); this.wake = null; }
    this.store();
  }

  unlockAudio() {
    const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctx) return;
    try {
      if (!this.audio) this.audio = new Ctx();
      if (this.audio.state === "suspended") this.audio.resume().catch(() => {});
    } catch (_) { this.audio = null; }
  }

  /** The tap on "Follow" may also ask for notifications (the browser asks once; a "no" is kept). */
  askToNotify() {
    try {
      if ("Notification" in window && Notification.permission === "default") Notification.requestPermission().catch(() => {});
    } catch (_) { /* an old browser's callback form: the banner does */ }
  }

  /** A system notification where the browser allows it (through the service worker where one
   * runs: a phone's Chrome refuses `new Notification` in a page); the banner shows either way. */
  notify(playerName, next) {
    const allowed = "Notification" in window && Notification.permission === "granted";
    document.body.dataset.notified = allowed ? "pending" : "denied";
    if (!allowed) return;
    const title = t("pl_notify_title", { name: playerName });
    const opts = { body: t("br_on_table", { table: next.table }) + (next.opponentName ? ` · ${t("pl_vs")} ${next.opponentName}` : ""),
      tag: `call-${next.m.match_id}`, renotify: true, requireInteraction: true, vibrate: [400, 150, 400] };
    const shown = () => { document.body.dataset.notified = "shown"; };
    const inPage = () => { try { new Notification(title, opts); shown(); } catch (_) { document.body.dataset.notified = "failed"; } };
    const sw = navigator.serviceWorker;
    if (sw && sw.getRegistration) {
      sw.getRegistration().then((reg) => (reg ? reg.showNotification(title, opts).then(shown) : inPage())).catch(inPage);
    } else inPage();
  }

  keepAwake() {
    if (!navigator.wakeLock || this.wake) return;
    navigator.wakeLock.request("screen").then((lock) => {
      this.wake = lock;
      lock.addEventListener("release", () => { if (this.wake === lock) this.wake = null; });
    }).catch(() => {});
  }

  /** Three rising beeps; played on a resumed context so an hour-old page still sounds. */
  chime() {
    this.unlockAudio();
    const a = this.audio;
    if (!a) return false;
    const play = () => {
      const now = a.currentTime;
      [660, 880, 1100].forEach((f, i) => {
        const osc = a.createOscillator();
        const gain = a.createGain();
        osc.frequency.value = f;
        osc.type = "sine";
        gain.gain.setValueAtTime(0.0001, now + i * 0.28);
        gain.gain.exponentialRampToValueAtTime(0.4, now + i * 0.28 + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.28 + 0.25);
        osc.connect(gain).connect(a.destination);
        osc.start(now + i * 0.28);
        osc.stop(now + i * 0.28 + 0.26);
      });
    };
    if (a.state === "suspended") a.resume().then(play).catch(() => {}); else play();
    return true;
  }

  /**
   * Hands over what the page knows of the player's next match ({state, m, table, opponentName}); a
   * called match not announced yet is announced (when following) and remembered either way, so that
   * turning Follow on while already called does not ring for a call the fan can already see.
   */
  consider(next, playerName) {
    if (!next || next.state !== "called" || !next.m.match_id) return false;
    const id = next.m.match_id;
    if (this.announced.has(id)) return false;
    this.announced.add(id);
    this.store();
    if (!this.on) return false;
    this.announce(playerName, next);
    return true;
  }

  announce(playerName, next) {
    fill(this.banner,
      el("div", { class: "cb-main" },
        el("bdi", { class: "cb-name", text: playerName }),
        el("span", { class: "cb-sep", text: " · " }),
        el("span", { class: "cb-table", id: "call-table" }, isolated(t("br_on_table", { table: next.table }), next.table))),
      next.opponentName ? el("div", { class: "cb-vs" }, el("span", { text: `${t("pl_vs")} ` }), el("bdi", { text: next.opponentName })) : null,
      el("button", { type: "button", class: "btn primary", id: "call-dismiss", text: t("pl_dismiss"), onclick: () => this.dismiss() }));
    this.banner.classList.remove("hidden");
    document.body.dataset.called = next.m.key;
    this.notify(playerName, next);
    const sounded = this.chime();
    if (sounded) this.beeps += 1;
    let vibrated = false;
    try { vibrated = typeof navigator.vibrate === "function" && navigator.vibrate([400, 150, 400, 150, 600]); } catch (_) { /* not allowed */ }
    document.body.dataset.alerts = String(Number(document.body.dataset.alerts || 0) + 1);
    document.body.dataset.sound = sounded ? "played" : "none";
    document.body.dataset.vibrated = vibrated ? "yes" : "no";
  }

  dismiss() { this.banner.classList.add("hidden"); delete document.body.dataset.called; }
}

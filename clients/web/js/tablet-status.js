// What the referee sees of the match and the link: the banner while the link is down (entries
// kept on the tablet), the hub's verdict on the last entry (a foul loud, with its Undo at hand),
// and the match as it stands (score, rack, ball in hand, the round, the last entry). `tab` is the
// page's state and actions (tablet.js).
import { t, tc } from "./i18n.js";
import { el, fill, scoreline, ball, bihText, lastText, statusText, resultText } from "./ui.js";
import { verdictOf } from "./entries.js";
import { matchTraits, racksScored } from "./disciplines.js";
import { roundText, checkEventOver, eventIsOver } from "./tablet-over.js";

export const statePanel = el("section", { class: "card state", id: "state" });
export const linkBanner = el("div", { class: "linkbanner hidden", id: "link-banner", role: "status" });
export const verdictBanner = el("div", { class: "verdict hidden", id: "verdict", role: "status" });

export function renderLink(tab) {
  const { conn, session, match } = tab;
  const offline = conn !== "live" && session && !session.closed;
  linkBanner.classList.toggle("hidden", !offline);
  if (!offline) return;
  const n = session.queue().length;
  const clock = match && match.clock && match.clock.shot;
  fill(linkBanner,
    el("strong", { text: t("offline_title") }), " ", t("offline_body"),
    n ? el("div", { text: t("offline_unsent", { n }) }) : null,
    clock && match.status === "live" ? el("div", { text: t("offline_clock") }) : null);
}

export function renderVerdict(tab) {
  const { over, match, session, named } = tab;
  const m = over || match;
  const v = verdictOf(m);
  const show = !!(v && m.last && !["start", "lag", "pause", "resume", "timeout"].includes(m.last.kind));
  verdictBanner.classList.toggle("hidden", !show);
  if (!show) return;
  verdictBanner.className = `verdict ${v.foul ? "foul" : "ok"}`;
  const canUndo = m.version > 0 && session && session.ready && !over;
  fill(verdictBanner,
    el("div", { class: "v-head" },
      el("span", { class: "v-title", id: "verdict-title" }, named(v.headline, m)),
      v.by ? el("span", { class: "v-by" }, `${tc("k", m.last.kind)} · `, el("bdi", { text: v.by })) : null),
    v.next ? el("div", { class: "v-next", id: "verdict-next" }, named(v.next, m)) : null,
    v.notes.length ? el("div", { class: "v-notes" }, named(v.notes.join(" · "), m)) : null,
    v.foul && canUndo ? el("button", { type: "button", class: "btn danger", id: "verdict-undo", text: t("undo_this"), onclick: tab.undoClicked }) : null);
}

export function renderState(tab) {
  const { over, match, conn, dismissed, named } = tab;
  const tableInfo = tab.tableName ? { name: tab.tableName } : null;
  const m = over || (matchShown(tab) ? match : null);
  if (!m) {
    fill(statePanel,
      tableInfo && tableInfo.name ? el("bdi", { class: "tablecard", text: tableInfo.name }) : null,
      el("p", { class: "muted", id: "no-match", text: conn !== "live" ? t("loading") : lastWasFinal(tab) ? t("tl_event_over")
        : t(dismissed ? "tl_waiting_next" : "no_match") }));
    return;
  }
  const r = m.rack || {};
  const info = [];
  info.push(el("span", { class: "badge", id: "phase", text: statusText(m) }));
  if (r.number) info.push(el("span", { class: "badge", text: t("rack_n", { n: r.number }) }));
  if (r.ball_in_hand) info.push(el("span", { class: "badge bih", id: "bih", text: bihText(r) }));
  if (matchTraits(m).groups && r.table_open && m.status === "live") info.push(el("span", { class: "badge", text: t("table_open") }));
  if (tab.isPaused()) info.push(el("span", { class: "badge foul", id: "paused", text: t("paused") }));
  const res = resultText(m);
  fill(statePanel,
    el("div", { class: "disc muted" },
      tableInfo && tableInfo.name ? [el("bdi", { class: "tablecard" }, el("strong", { text: tableInfo.name })), " · "] : null,
      `${tc("d", m.discipline)}`),
    roundText(tab, m) ? el("div", { class: "round muted", id: "round-name" }, named(roundText(tab, m), m)) : null,
    scoreline(m),
    el("div", { class: "info" }, info),
    r.on_table && m.status !== "finished" && !racksScored(m) ? el("div", { class: "ontable" }, el("span", { class: "muted", text: t("balls_on_table") + " " }),
      el("span", { class: "balls" }, r.on_table.map((n) => ball(n)))) : null,
    res ? el("div", { class: "result" }, named(res, m)) : null,
    el("div", { class: "last muted", id: "last" }, named(lastText(m), m)));
}

/** The match the referee moved on from was the event's last (its draw is finished). */
function lastWasFinal(tab) {
  const { match, dismissed } = tab;
  const m = match && match.id === dismissed ? match : null;
  if (!m || !m.draw || !m.tournament_id) return false;
  checkEventOver(tab, m);
  return eventIsOver(m.tournament_id);
}

/** The current match is shown unless it is the finished one the referee moved on from. */
function matchShown(tab) {
  const { match, dismissed } = tab;
  return !!match && !(match.status === "finished" && match.id === dismissed);
}

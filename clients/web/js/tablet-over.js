// The tablet's "Match over": the finished match stays on screen (both players, the final score, how
// it ended; Undo reopens it; "Next match" moves on) until the referee taps on, and says what comes
// next (the match called next, the event's end). A draw match is named by its round as the bracket
// names it ("Final · W3-1"). A result the desk decided is undone only at the desk. `tab` is the
// page's state and actions (tablet.js).
import { t } from "./i18n.js";
import { getJSON } from "./live.js";
import { el, fill, resultText, matchNames, drawText } from "./ui.js";

export const overPanel = el("section", { class: "card over hidden", id: "over", role: "status" });

const drawNames = new Map(); // tournament id -> matchNames() of it (its draw names the rounds), once read
const eventOver = new Map(); // tournament id -> true once its draw is finished; false while asked

/** The event of tournament `tid` is known to be over (its draw finished). */
export function eventIsOver(tid) {
  return eventOver.get(tid) === true;
}

export function matchLabel(m) {
  if (!m) return "";
  if (m.draw && m.draw.key) return m.draw.key;
  return (m.players || []).map((p) => p.name).join(" – ");
}

/** "Final · W3-1": a draw match's round as the bracket names it, once the tournament's draw is read
 * (the key alone until then); "" for a match outside a draw. */
export function roundText(tab, m) {
  if (!m || !m.draw || !m.tournament_id) return "";
  const tid = m.tournament_id;
  if (!drawNames.has(tid)) {
    drawNames.set(tid, null);
    matchNames(m).then((n) => { drawNames.set(tid, n); tab.render(); });
  }
  return drawText(m, drawNames.get(tid));
}

/** A result the desk decided: entered by hand, or the forfeit of a player withdrawn from the event.
 * Only the desk undoes it (PROTOCOL.md section 9): the tablet's Undo would be refused. */
export function deskDecided(m) {
  const res = (m && m.status === "finished" && m.result) || null;
  return !!(res && (res.entered || (res.withdrawn || []).length));
}

/** After a draw match with nothing called next: was it the event's last? Asked of the hub until its
 * draw says finished (the result reaches the draw a moment after the match ends), a few times. */
export function checkEventOver(tab, m, tries = 8) {
  const tid = m && m.draw && m.tournament_id;
  if (!tid || eventOver.get(tid) !== undefined) return;
  eventOver.set(tid, false);
  getJSON(`/api/tournaments/${encodeURIComponent(tid)}?matches_limit=1`).then((tr) => {
    if (tr && tr.draw && tr.draw.status === "finished") { eventOver.set(tid, true); tab.render(); return; }
    throw new Error("not yet");
  }).catch(() => {
    if (tries <= 1) return;
    setTimeout(() => { eventOver.delete(tid); if (tab.over && tab.over.id === m.id) checkEventOver(tab, m, tries - 1); }, 2000);
  });
}

/** What comes next on this table after `m`: the match called next, the event's end, or nothing yet. */
function nextText(tab, m, next) {
  if (next) return t("tl_next_is", { what: matchLabel(next), names: next.players.map((p) => p.name).join(" – ") });
  if (m && m.draw && m.tournament_id) {
    checkEventOver(tab, m);
    if (eventOver.get(m.tournament_id)) return t("tl_event_over");
  }
  return t("tl_no_next");
}

/** The finished match: both players, the final score, how it ended; Undo reopens it; the next
 * match waits for "Next match". */
export function renderOver(tab) {
  const { over, match, named } = tab;
  overPanel.classList.toggle("hidden", !over);
  if (!over) return;
  const next = match && match.id !== over.id && match.status !== "finished" ? match : null;
  const final = (over.players || []).map((p) => String(p.score ?? 0)).join(" : ");
  const entered = over.result && over.result.entered;
  const deskOnly = deskDecided(over);
  const round = roundText(tab, over);
  fill(overPanel,
    el("h2", { class: "over-title", id: "over-title", text: t("p_over") }),
    round ? el("p", { class: "over-round", id: "over-round" }, named(round, over)) : null,
    el("div", { class: "over-score", id: "over-score" },
      (over.players || []).map((p, i) => [i ? el("span", { class: "over-sep", text: ":" }) : null,
        el("div", { class: `over-player${over.winner === p.id ? " won" : ""}`, dataset: { player: p.id } },
          // the winner's star beside the name, outside its isolation
          el("span", { class: "over-name" }, over.winner === p.id ? el("span", { class: "nm-mark", "aria-hidden": "true", text: "★" }) : null,
            el("bdi", { class: "name", text: p.name })),
          el("span", { class: "score", text: String(p.score ?? 0) }))])),
    el("p", { class: "over-result", id: "over-result" }, named(resultText(over) || final, over)),
    entered ? el("p", { class: "muted small", id: "over-entered", text: t("tl_entered") }) : null,
    deskOnly ? el("p", { class: "muted small", id: "over-desk-only", text: t("tl_desk_only") }) : null,
    el("div", { class: "btnrow" },
      el("button", { type: "button", class: "btn danger", id: "over-undo", text: t("undo"), onclick: tab.undoClicked, disabled: deskOnly }),
      el("button", { type: "button", class: "btn primary big", id: "next-match", text: t("tl_next_match"), onclick: tab.nextMatch })),
    el("p", { class: "muted small", id: "over-next" }, named(nextText(tab, over, next), next)));
}

// The tablet's panels before and between strokes: how the match starts (who breaks, the lag, the
// order of three players, the first member of each side in doubles), the hub's pending choice
// (push-out, snooker, loss of chance: the answers the hub offers), and entries held back after a
// reconnect (send them or discard them). `tab` is the page's state and actions (tablet.js).
import { t, tc } from "./i18n.js";
import { el, fill, playerName, confirmDialog } from "./ui.js";
import { startMembers, memberOrderRows } from "./tablet-doubles.js";

export const startPanel = el("section", { class: "card hidden", id: "start" });
export const pendingPanel = el("section", { class: "card pending hidden", id: "pending" });
export const heldPanel = el("div", { class: "held hidden", id: "held", role: "alert" });

export function renderStart(tab) {
  const { match, named } = tab;
  const show = match && match.rack && match.rack.phase === "lag" && !tab.queuedStrokes().length;
  startPanel.classList.toggle("hidden", !show);
  if (!show) return;
  const ps = match.players;
  const kids = [el("h3", { class: "section-title", text: t("start_match") })];
  // chosen before the break or the lag is tapped; kept to the match's end (a later lag has none)
  if (match.doubles && match.status === "scheduled") kids.push(memberOrderRows(match, ps, named, tab.render));
  if (match.status === "scheduled") {
    if (ps.length === 3) {
      const perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
      kids.push(el("div", { class: "btnrow" }, perms.map((pm) => {
        const order = pm.map((i) => ps[i].id);
        return el("button", { class: "btn", type: "button", dataset: { order: order.join(",") },
          onclick: () => tab.send({ kind: "start", order }) }, named(t("order_label", { order: pm.map((i) => ps[i].name).join(" → ") })));
      })));
    } else {
      kids.push(el("div", { class: "btnrow" }, ps.map((p) => el("button", {
        class: "btn primary", type: "button", dataset: { breaker: p.id },
        onclick: () => tab.send({ kind: "start", breaker: p.id, ...startMembers(match, ps) }) }, named(t("breaks_first", { name: p.name }))))));
    }
  }
  if (ps.length === 2) {
    kids.push(el("div", { class: "btnrow" }, ps.map((p) => el("button", {
      class: "btn", type: "button", dataset: { lag: p.id },
      onclick: () => tab.send({ kind: "lag", winner: p.id, ...startMembers(match, ps) }) }, named(t("lag_won", { name: p.name }))))));
  }
  fill(startPanel, kids);
}

export function renderPending(tab) {
  const { match, session, flow, named } = tab;
  const pend = match && match.rack && match.rack.pending;
  // The hub's choice, unless the referee has already answered it on this tablet (queued).
  const answered = session && session.queue().some((e) => e.command && e.command.kind === "decision");
  const show = !!pend && !answered;
  pendingPanel.classList.toggle("hidden", !show);
  if (!show) return;
  fill(pendingPanel,
    el("h3", { class: "section-title plain", id: "pending-title" }, named(t("decision_for", { name: playerName(match, pend.player) }))),
    flow.waiting === "decision" ? el("p", { class: "waiting", id: "pending-waiting", text: t("strokes_wait_for_choice", { n: session.queue().length }) }) : null,
    el("div", { class: "btnrow" }, (pend.options || []).map((o) => el("button", {
      class: "btn primary big", type: "button", dataset: { choice: o },
      onclick: () => tab.send({ kind: "decision", player: pend.player, choice: o }, { front: flow.waiting === "decision" }) },
    named(choiceText(match, o, pend))))));
}

export function renderHeld(tab) {
  const { session, flow } = tab;
  heldPanel.classList.toggle("hidden", !flow.held);
  if (!flow.held) return;
  fill(heldPanel,
    el("p", { text: t("held_body", { n: flow.held }) }),
    el("div", { class: "btnrow" },
      el("button", { type: "button", class: "btn primary", id: "held-send", text: t("held_send"), onclick: () => session.release() }),
      el("button", { type: "button", class: "btn danger", id: "held-discard", text: t("held_discard"), onclick: () => discardHeld(tab) })));
}

async function discardHeld(tab) {
  const { session, flow } = tab;
  if (!(await confirmDialog(t("confirm_discard_held", { n: flow.held })))) return;
  for (const env of session.discardHeld()) tab.logUpdate(env.id, { status: "removed", kind: "info" });
  tab.paintQueue();
  tab.render();
}

/** A pending choice's label. "pass" names who shoots then: the player whose stroke made the
 * decision (push-out, snooker, loss of chance), when that is not the one choosing. */
function choiceText(match, o, pend) {
  const by = match.last && match.last.player;
  if (o === "pass" && by && by !== pend.player && match.players.some((p) => p.id === by)) {
    return t("o_pass_to", { name: playerName(match, by) });
  }
  return tc("o", o);
}

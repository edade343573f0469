// The tablet's rack-by-rack panel (a match scored rack by rack, `options.scoring: "racks"`): "who
// won the rack" buttons, the win type first where the discipline has several, who pays where it
// names a payer. `tab` is the page's state and actions (tablet.js).
import { t, tc } from "./i18n.js";
import { el, fill, playerName } from "./ui.js";
import { matchTraits, racksScored } from "./disciplines.js";

export const DOUBLE_TAP_MS = 1000; // a second report (or stroke: tablet.js) this soon after one is a double tap

export const racksPanel = el("section", { class: "card racks hidden", id: "racks" });

let rackPick = { key: "", winType: "normal", winner: null }; // the choice being made, for this version
let rackSent = null; // {version, at} of the last rack reported here: a double tap on the same state is dropped

export function racksVisible(tab) {
  const m = tab.match;
  return !!(m && m.status === "live" && racksScored(m) && m.rack && ["break", "play"].includes(m.rack.phase) && !m.rack.pending);
}

export function renderRacks(tab) {
  const show = racksVisible(tab);
  racksPanel.classList.toggle("hidden", !show);
  if (!show) return;
  const { match, named } = tab;
  const r = match.rack;
  const traits = matchTraits(match);
  const key = `${match.id}:${match.version}`;
  if (rackPick.key !== key) rackPick = { key, winType: "normal", winner: null };
  const busy = !!tab.lock;
  const types = traits.win_types.length > 1 ? el("div", { class: "field" },
    el("span", { class: "label", text: t("rk_type") }),
    el("div", { class: "btnrow chips", id: "rack-types" }, traits.win_types.map((w) => el("button", {
      type: "button", class: `btn toggle${rackPick.winType === w ? " on" : ""}`, "aria-pressed": rackPick.winType === w ? "true" : "false",
      dataset: { winType: w }, text: tc("w", w), disabled: busy,
      onclick: () => { rackPick.winType = w; rackPick.winner = null; renderRacks(tab); } })))) : null;
  // a break and run is the rack's breaker's only (PROTOCOL.md section 17)
  const winners = el("div", { class: "btnrow winners" }, match.players.map((p) => el("button", {
    type: "button", class: `btn primary big${rackPick.winner === p.id ? " on" : ""}`, dataset: { winner: p.id },
    disabled: busy || (rackPick.winType === "big_gold" && p.id !== r.breaker),
    onclick: () => pickWinner(tab, p.id) }, named(t("rk_won", { name: p.name })))));
  const payer = rackPick.winner && traits.rack_paid_by ? el("div", { class: "field", id: "rack-payer" },
    el("span", { class: "label" }, named(t("rk_pays", { name: playerName(match, rackPick.winner) }))),
    el("div", { class: "btnrow" },
      match.players.filter((p) => p.id !== rackPick.winner).map((p) => el("button", {
        type: "button", class: "btn primary big", dataset: { paidBy: p.id }, disabled: busy,
        onclick: () => sendRack(tab, rackPick.winner, p.id) }, named(p.name))),
      el("button", { type: "button", class: "btn", id: "rack-payer-cancel", text: t("cancel"),
        onclick: () => { rackPick.winner = null; renderRacks(tab); } }))) : null;
  fill(racksPanel,
    el("h3", { class: "section-title plain", id: "racks-title", text: t("rk_title", { n: r.number }) }),
    types, winners, payer);
}

function pickWinner(tab, pid) {
  if (matchTraits(tab.match).rack_paid_by) { rackPick.winner = pid; renderRacks(tab); return; }
  sendRack(tab, pid, null);
}

function sendRack(tab, winner, paidBy) {
  // One report a rack: a second tap of a double tap finds the panel locked (online), or the same
  // match state a moment after the first (offline: the report waits in the queue).
  const { match, session } = tab;
  if (!racksVisible(tab) || tab.lock) return;
  if (rackSent && rackSent.version === match.version && Date.now() - rackSent.at < DOUBLE_TAP_MS) return;
  const cmd = { kind: "rack", winner };
  if (rackPick.winType !== "normal") cmd.win_type = rackPick.winType;
  if (paidBy) cmd.paid_by = paidBy;
  rackSent = { version: match.version, at: Date.now() };
  const online = session.ready && !session.queue().length;
  const env = tab.queueCommand(cmd);
  if (online) tab.lock = { id: env.id };
  rackPick = { key: "", winType: "normal", winner: null };
  tab.render();
}

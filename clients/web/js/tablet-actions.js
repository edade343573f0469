// The tablet's action buttons: extension, pause or resume, timeout, stalemate, undo, a called foul,
// a penalty, a concession (of the rack or the match), for the player chosen beside them. What a
// discipline offers comes from its traits (disciplines.js). `tab` is the page's state and actions
// (tablet.js).
import { t, tc, inParens } from "./i18n.js";
import { serverNow } from "./live.js";
import { el, fill, playerName } from "./ui.js";
import { calledFouls } from "./stroke_form.js";
import { traitsOf, racksScored } from "./disciplines.js";

export const actionsPanel = el("section", { class: "card actions hidden", id: "actions" });

export function renderActions(tab) {
  const { match, session } = tab;
  const show = !!match;
  actionsPanel.classList.toggle("hidden", !show);
  if (!show) return;
  const r = match.rack || {};
  const d = match.discipline;
  const traits = traitsOf(d);
  const turn = r.shooter || (r.pending && r.pending.player) || null;
  const live = match.status === "live";
  const shooterP = match.players.find((p) => p.id === r.shooter);
  const paused = tab.isPaused();
  const known = tab.knowsTheTurn();
  const judged = !racksScored(match); // strokes, fouls, stalemates and the shot clock: a judged match's

  const playerSel = el("select", { id: "act-player" }, match.players.map((p) =>
    el("option", { value: p.id, text: p.name, selected: p.id === turn })));
  const penaltySel = el("select", { id: "act-penalty" }, traits.penalty_types.map((p) => el("option", { value: p, text: tc("pen", p) })));
  // a called foul with no stroke: never weak_break (judged on the break stroke itself: RULES.md "Also settled")
  const foulSel = el("select", { id: "act-foul" }, calledFouls(d, false, !!match.doubles).map((c) => el("option", { value: c, text: tc("f", c) })));
  const sel = () => playerSel.value;
  const btn = (id, label, onclick, opts = {}) => el("button", { type: "button", class: `btn ${opts.cls || ""}`, id, text: label, disabled: !!opts.disabled, onclick });
  const turnPlayer = () => (known ? r.shooter : undefined);

  fill(actionsPanel,
    el("h3", { class: "section-title", text: t("actions") }),
    el("div", { class: "btnrow" },
      !judged ? null : btn("act-extension", `${t("extension")}${shooterP && shooterP.extensions_left !== undefined ? inParens(shooterP.extensions_left) : ""}`,
        () => tab.send({ kind: "extension", player: turnPlayer(), entered_at: Math.round(serverNow()) }),
        { disabled: !live || (known && (!r.shooter || r.phase !== "play" || (shooterP && shooterP.extensions_left === 0))) || !(match.clock && match.clock.shot) }),
      paused
        ? btn("act-resume", t("resume"), () => tab.send({ kind: "resume" }), { cls: "primary", disabled: !live })
        : btn("act-pause", t("pause"), () => tab.send({ kind: "pause" }), { disabled: !live }),
      judged && traits.timeout_race_to !== null ? btn("act-timeout", t("timeout"), () => tab.send({ kind: "timeout", player: sel() }), { disabled: !live }) : null,
      !judged ? null : btn("act-stalemate", t("stalemate"), () => tab.send({ kind: "stalemate" }, { confirmText: t("confirm_stalemate") }), { disabled: !live }),
      btn("act-undo", t("undo"), tab.undoClicked, { cls: "danger", disabled: !match.version && !(session && session.lastUnsent()) })),
    el("div", { class: "btnrow" },
      el("label", { class: "label", text: t("player") }), playerSel),
    !judged ? null : el("div", { class: "btnrow" },
      foulSel,
      btn("act-foul-btn", t("call_foul"), () => tab.send({ kind: "foul", player: sel(), reason: foulSel.value, entered_at: Math.round(serverNow()) }), { disabled: !live })),
    el("div", { class: "btnrow" },
      penaltySel,
      btn("act-penalty-btn", t("penalty"), () => tab.send({ kind: "penalty", player: sel(), type: penaltySel.value },
        { confirmText: t("confirm_penalty", { name: playerName(match, sel()), type: tc("pen", penaltySel.value) }) }), { cls: "danger", disabled: !live })),
    el("div", { class: "btnrow" },
      btn("act-concede-rack", t("concede_rack"), () => tab.send({ kind: "concede", player: sel(), scope: "rack" },
        { confirmText: t("confirm_concede", { name: playerName(match, sel()), scope: t("scope_rack") }) }), { disabled: !live }),
      !traits.concede_scopes.includes("match") ? null : btn("act-concede-match", t("concede_match"), () => tab.send({ kind: "concede", player: sel(), scope: "match" },
        { confirmText: t("confirm_concede", { name: playerName(match, sel()), scope: t("scope_match") }) }), { cls: "danger", disabled: !live })));
}

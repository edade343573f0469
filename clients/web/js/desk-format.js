// Step "format": the discipline and the match format of every match of the draw: the length
// (race to N, N racks, or N minutes with the match clock's timeouts), who breaks, the shot clock
// (PROTOCOL.md section 1). Kept in this browser until the draw is made (desk-setup.js).
import { t, tc } from "./i18n.js";
import { el, fill } from "./ui.js";
import { deskDisciplines, defaultSetup, kindsOf, loadSetup, saveSetup, matchBody, setupText } from "./desk-setup.js";
import { traitsOf } from "./disciplines.js";
import { field, nextStep } from "./desk-ui.js";

export function formatView(ctx) {
  let root = null;
  let setup = loadSetup(ctx.tid);
  let shownMade = null;

  function set(key, value) {
    setup = { ...setup, [key]: value };
    saveSetup(ctx.tid, setup);
  }

  function num(key, { min = 1, max = 999, id }) {
    const input = el("input", { type: "number", id, min, max, value: String(setup[key]), inputmode: "numeric" });
    input.addEventListener("input", () => { set(key, input.value); paintSummary(); });
    return input;
  }

  function radio(name, value, checked, label, onPick, extra = {}) {
    const input = el("input", { type: "radio", name, value, id: `${name}-${value}`, checked, ...extra });
    input.addEventListener("change", () => { if (input.checked) onPick(value); });
    return el("label", { class: `choice${checked ? " on" : ""}`, for: `${name}-${value}` }, input, el("span", { text: label }));
  }

  /** The name of a game the hub does not judge (snooker, straight pool...): sent as format.game. */
  function gameInput() {
    const input = el("input", { type: "text", id: "fmt-game", maxlength: 64, value: String(setup.game || ""), autocomplete: "off",
      placeholder: t("dk_game_ph") });
    input.addEventListener("input", () => { set("game", input.value); paintSummary(); });
    return input;
  }

  const summary = el("p", { class: "setup-summary", id: "format-summary" });
  function paintSummary() { summary.textContent = setupText(matchBody(setup)); }

  function paint() {
    if (!root) return;
    const tour = ctx.tournament();
    const made = tour && tour.draw;
    shownMade = Boolean(made);
    const d = setup.discipline;
    const traits = traitsOf(d);
    const kinds = kindsOf(d);
    const scoring = traits.scorings.includes(setup.scoring) ? setup.scoring : traits.scorings[0];
    const byRacks = scoring === "racks"; // the players report who won each rack: no stroke, no shot clock
    const lengthRow = el("div", { class: "row" },
      kinds.length > 1 ? el("fieldset", { class: "choices" }, el("legend", { text: t("dk_length") }),
        kinds.map((k) => radio("kind", k, setup.kind === k, t(`dk_kind_${k}`), (v) => { set("kind", v); paint(); }))) : null,
      setup.kind === "race_to" ? field("dk_race_to", num("race_to", { id: "fmt-race-to", max: 99 })) : null,
      setup.kind === "racks" ? field("dk_racks", num("racks", { id: "fmt-racks", max: 99 })) : null,
      setup.kind === "minutes" ? field("dk_minutes", num("minutes", { id: "fmt-minutes", max: 600 })) : null);
    const clockBox = el("input", { type: "checkbox", id: "fmt-shot-clock", checked: Boolean(setup.shot_clock) });
    clockBox.addEventListener("change", () => { set("shot_clock", clockBox.checked); paint(); });
    fill(root,
      el("h2", { text: t("step_format") }),
      made ? el("p", { class: "notice info", id: "format-made", text: t("dk_format_made", { setup: setupText(made.match) }) }) : null,
      el("fieldset", { class: "choices discipline" }, el("legend", { text: t("dk_discipline") }),
        deskDisciplines().map((x) => radio("discipline", x, d === x, tc("d", x), (v) => {
          const keep = { shot_clock: setup.shot_clock, shot_s: setup.shot_s, brk: setup.brk };
          setup = { ...defaultSetup(v), ...keep };
          saveSetup(ctx.tid, setup);
          paint();
        }))),
      traits.players === 3 ? el("p", { class: "muted small", text: t("dk_chase_note", { name: tc("d", d) }) }) : null,
      traits.named_game ? el("div", { class: "row" }, field("dk_game", gameInput())) : null,
      lengthRow,
      setup.kind === "minutes" ? el("div", { class: "row" },
        field("dk_timeout_every", num("timeout_every_racks", { id: "fmt-timeout-every", max: 99 })),
        field("dk_timeout_s", num("timeout_s", { id: "fmt-timeout-s", min: 0, max: 3600 }))) : null,
      traits.scorings.length > 1 ? el("fieldset", { class: "choices", id: "fmt-scoring" }, el("legend", { text: t("dk_scoring") }),
        traits.scorings.map((x) => radio("scoring", x, scoring === x, t(`dk_scoring_${x}`), (v) => { set("scoring", v); paint(); }))) : null,
      traits.breaks.length > 1 ? el("fieldset", { class: "choices" }, el("legend", { text: t("dk_break") }),
        traits.breaks.map((b) => radio("brk", b, (setup.brk === "alternate") === (b === "alternate"), t(`dk_break_${b}`),
          (v) => { set("brk", v); paint(); }))) : null,
      byRacks ? null : el("label", { class: "choice check" }, clockBox, el("span", { text: t("dk_shot_clock") })),
      setup.shot_clock && !byRacks ? el("div", { class: "row clock-row" },
        field("dk_shot_s", num("shot_s", { id: "fmt-shot-s", max: 600 })),
        field("dk_extension_s", num("extension_s", { id: "fmt-extension-s", min: 0, max: 600 })),
        field("dk_extensions", num("extensions_per_rack", { id: "fmt-extensions", min: 0, max: 9 })),
        field("dk_break_s", (() => {
          const input = el("input", { type: "number", id: "fmt-break-s", min: 1, max: 600, value: String(setup.break_s), placeholder: t("dk_same_as_shot") });
          input.addEventListener("input", () => { set("break_s", input.value); paintSummary(); });
          return input;
        })())) : null,
      summary,
      nextStep(ctx.tid, "players", "step_players"));
    paintSummary();
  }

  return {
    mount(node) {
      root = el("section", { class: "card wizard", id: "step-format" });
      node.append(root);
      paint();
    },
    update() { if (Boolean(ctx.tournament() && ctx.tournament().draw) !== shownMade) paint(); }, // the draw made or undone elsewhere
    paint,
    unmount() { root = null; },
  };
}

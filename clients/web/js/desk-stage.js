// The draw step's "next stage" (PROTOCOL.md section 11): after a round robin (the best N of each
// group) or a double elimination (the last N players, half from each side), a knockout, with its
// own race length and the final's. Builds the draw body's `then`; kept with the draw step's choice.
import { t } from "./i18n.js";
import { el } from "./ui.js";
import { field } from "./desk-ui.js";

export const STAGE_TYPES = ["round_robin", "double_elimination"];

/** The length field of a format ("race_to", "racks" or "minutes") and its value. */
function lengthKey(format) {
  return ["race_to", "racks", "minutes"].find((k) => format && format[k] !== undefined) || "race_to";
}

/** The `then` of the draw body, or undefined (no next stage, or a draw type that takes none). */
export function thenBody(choice, match) {
  if (choice.then !== "knockout" || !STAGE_TYPES.includes(choice.type)) return undefined;
  const then = { type: "single_elimination", advance: Math.floor(Number(choice.then_advance)) || 0 };
  const key = lengthKey(match.format);
  const length = String(choice.then_length ?? "").trim();
  const final = String(choice.then_final ?? "").trim();
  if (length !== "" || final !== "") {
    const format = { ...match.format };
    if (length !== "") format[key] = Math.floor(Number(length));
    then.match = { discipline: match.discipline, format, options: match.options };
    if (final !== "") then.match.by_round = { final: { format: { [key]: Math.floor(Number(final)) } } };
  }
  return then;
}

/** The fieldset of the draw step; `set(k, v)` stores a choice (and returns the whole choice now),
 * `repaint()` draws the step again. */
export function stageFields(choice, set, repaint, match) {
  if (!STAGE_TYPES.includes(choice.type)) return null;
  const groups = choice.type === "round_robin";
  const on = choice.then === "knockout";
  function radio(value, label) {
    const input = el("input", { type: "radio", name: "then", value, id: `then-${value}`, checked: (choice.then || "none") === value });
    input.addEventListener("change", () => { if (input.checked) { set("then", value); repaint(); } });
    return el("label", { class: `choice${input.checked ? " on" : ""}`, for: `then-${value}` }, input, el("span", { text: label }));
  }
  const mine = { ...choice }; // what this fieldset shows, kept up to date as the organiser types
  function num(key, id, min, max, placeholder = "") {
    const input = el("input", { type: "number", id, min, max, value: String(choice[key] ?? ""), inputmode: "numeric", placeholder });
    input.addEventListener("input", () => {
      const now = set(key, input.value);
      mine[key] = input.value;
      const line = document.getElementById("draw-then-summary");
      if (line) line.textContent = stageText(mine);
      showRaces(now, match);
    });
    return input;
  }
  const unit = lengthKey(match && match.format);
  return el("fieldset", { class: "choices", id: "draw-then" }, el("legend", { text: t("dk_then") }),
    radio("none", t("dk_then_none")),
    radio("knockout", t("dk_then_knockout")),
    on ? el("div", { class: "row" },
      field(groups ? "dk_then_advance_groups" : "dk_then_advance_de", num("then_advance", "then-advance", groups ? 1 : 4, groups ? 99 : 512)),
      field(`dk_then_length_${unit}`, num("then_length", "then-length", 1, 999, t("dk_then_same"))),
      field(`dk_then_final_${unit}`, num("then_final", "then-final", 1, 999, t("dk_then_same")))) : null,
    on ? el("p", { class: "muted small", id: "then-help", text: t(groups ? "dk_then_help_groups" : "dk_then_help_de") }) : null);
}

/** Race lengths per side of the first stage (`match.by_round`): the losers bracket and the final of
 * an elimination; blank fields keep the format step's length. */
export function roundsBody(choice, match) {
  if (!["single_elimination", "double_elimination"].includes(choice.type)) return match;
  const key = lengthKey(match.format);
  const byRound = {};
  const losers = String(choice.race_losers ?? "").trim();
  const final = String(choice.race_final ?? "").trim();
  if (choice.type === "double_elimination" && losers !== "") byRound.losers = { format: { [key]: Math.floor(Number(losers)) } };
  // a double elimination stopped for a knockout has no grand final: the knockout's final is set below
  const stopped = choice.type === "double_elimination" && choice.then === "knockout";
  if (final !== "" && !stopped) byRound.final = { format: { [key]: Math.floor(Number(final)) } };
  return Object.keys(byRound).length ? { ...match, by_round: byRound } : match;
}

export function roundFields(choice, set, match) {
  if (!["single_elimination", "double_elimination"].includes(choice.type)) return null;
  const unit = lengthKey(match && match.format);
  const stopped = choice.type === "double_elimination" && choice.then === "knockout";
  function num(key, id) {
    const input = el("input", { type: "number", id, min: 1, max: 999, value: String(choice[key] ?? ""), inputmode: "numeric", placeholder: t("dk_then_same") });
    input.addEventListener("input", () => showRaces(set(key, input.value), match));
    return input;
  }
  return el("div", { class: "row", id: "draw-rounds-race" },
    choice.type === "double_elimination" ? field(`dk_race_losers_${unit}`, num("race_losers", "race-losers")) : null,
    stopped ? null : field(choice.type === "double_elimination" ? `dk_race_gf_${unit}` : `dk_then_final_${unit}`, num("race_final", "race-final")));
}

/** "then a knockout of the best 2 of each group" for the draw's summary, or "". */
export function stageText(choice) {
  if (choice.then !== "knockout" || !STAGE_TYPES.includes(choice.type)) return "";
  const n = Math.floor(Number(choice.then_advance)) || 0;
  return t(choice.type === "round_robin" ? "dk_then_summary_groups" : "dk_then_summary_de", { n });
}

/** "Losers bracket: race to 7 · Knockout: race to 9 · Final: race to 11" for the draw's summary:
 * the lengths that differ from the format step's, or "". */
export function raceText(choice, match) {
  const unit = lengthKey(match && match.format);
  const v = (k) => String(choice[k] ?? "").trim();
  const elimination = ["single_elimination", "double_elimination"].includes(choice.type);
  const knockout = choice.then === "knockout" && STAGE_TYPES.includes(choice.type);
  const stopped = choice.type === "double_elimination" && knockout;
  const parts = [];
  if (choice.type === "double_elimination" && v("race_losers")) parts.push([`dk_race_losers_${unit}`, v("race_losers")]);
  if (elimination && !stopped && v("race_final")) {
    parts.push([choice.type === "double_elimination" ? `dk_race_gf_${unit}` : `dk_then_final_${unit}`, v("race_final")]);
  }
  if (knockout && v("then_length")) parts.push([`dk_then_length_${unit}`, v("then_length")]);
  if (knockout && v("then_final")) parts.push([`dk_then_final_${unit}`, v("then_final")]);
  // "race to 7", "抢7": no space after a Chinese label, as in the format's own text
  return parts.map(([label, n]) => `${t(label)}${/[\u3000-\u9fff]$/.test(t(label)) ? "" : " "}${n}`).join(" · ");
}

/** The summary's line of race lengths (`#draw-race-summary`), kept up to date as the organiser types. */
function showRaces(choice, match) {
  const line = document.getElementById("draw-race-summary");
  if (!line) return;
  line.textContent = raceText(choice, match);
  line.hidden = !line.textContent;
}

// The draw step's "next stage" (PROTOCOL.md section 11): after a format that takes one (the hub's
// GET /api/draw-formats says which: a round robin's best N of each group, a double elimination's last
// N players, half from each side), a knockout, with its own race length and the final's. Builds the
// draw body's `then`, and the first stage's race lengths per side; kept with the draw step's choice.
// `fmt` is the chosen format as the hub describes it.
import { t } from "./i18n.js";
import { el } from "./ui.js";
import { field } from "./desk-ui.js";

/** The sides of a first stage the desk offers a race length for (the winners side plays the format step's). */
const RACE_SIDES = ["losers", "final"];

/** Whether a knockout is chosen after a format that takes one. */
function knockout(choice, fmt) {
  return choice.then === "knockout" && Boolean(fmt && fmt.then);
}

/** The first stage's sides as it will be played: with a knockout after it, the stage's own (a double
 * elimination stopped for one has no grand final). */
function sidesOf(choice, fmt) {
  if (!fmt) return [];
  return knockout(choice, fmt) ? fmt.then.race_sides : fmt.race_sides;
}

/** The final's label: a grand final where it follows a losers bracket, else the final. */
function finalLabel(fmt, unit) {
  return fmt.race_sides.includes("losers") ? `dk_race_gf_${unit}` : `dk_then_final_${unit}`;
}

/** The length field of a format ("race_to", "racks" or "minutes") and its value. */
function lengthKey(format) {
  return ["race_to", "racks", "minutes"].find((k) => format && format[k] !== undefined) || "race_to";
}

/** The `then` of the draw body, or undefined (no next stage, or a draw type that takes none). */
export function thenBody(choice, match, fmt) {
  if (!knockout(choice, fmt)) return undefined;
  const then = { type: fmt.then.types[0], advance: Math.floor(Number(choice.then_advance)) || 0 };
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
export function stageFields(choice, set, repaint, match, fmt) {
  if (!fmt || !fmt.then) return null;
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
      if (line) line.textContent = stageText(mine, fmt);
      showRaces(now, match, fmt);
    });
    return input;
  }
  const unit = lengthKey(match && match.format);
  const advance = fmt.then.advance;
  return el("fieldset", { class: "choices", id: "draw-then" }, el("legend", { text: t("dk_then") }),
    radio("none", t("dk_then_none")),
    radio("knockout", t("dk_then_knockout")),
    on ? el("div", { class: "row" },
      field(`dk_then_advance_${fmt.name}`, num("then_advance", "then-advance", advance.minimum, advance.maximum)),
      field(`dk_then_length_${unit}`, num("then_length", "then-length", 1, 999, t("dk_then_same"))),
      field(`dk_then_final_${unit}`, num("then_final", "then-final", 1, 999, t("dk_then_same")))) : null,
    on ? el("p", { class: "muted small", id: "then-help", text: t(`dk_then_help_${fmt.name}`) }) : null);
}

/** Race lengths per side of the first stage (`match.by_round`): the losers bracket and the final of
 * an elimination; blank fields keep the format step's length. */
export function roundsBody(choice, match, fmt) {
  const sides = sidesOf(choice, fmt);
  const key = lengthKey(match.format);
  const byRound = {};
  for (const side of RACE_SIDES) {
    const value = String(choice[`race_${side}`] ?? "").trim();
    if (sides.includes(side) && value !== "") byRound[side] = { format: { [key]: Math.floor(Number(value)) } };
  }
  return Object.keys(byRound).length ? { ...match, by_round: byRound } : match;
}

export function roundFields(choice, set, match, fmt) {
  if (!fmt || !RACE_SIDES.some((side) => fmt.race_sides.includes(side))) return null;
  const unit = lengthKey(match && match.format);
  const sides = sidesOf(choice, fmt);
  function num(key, id) {
    const input = el("input", { type: "number", id, min: 1, max: 999, value: String(choice[key] ?? ""), inputmode: "numeric", placeholder: t("dk_then_same") });
    input.addEventListener("input", () => showRaces(set(key, input.value), match, fmt));
    return input;
  }
  return el("div", { class: "row", id: "draw-rounds-race" },
    sides.includes("losers") ? field(`dk_race_losers_${unit}`, num("race_losers", "race-losers")) : null,
    sides.includes("final") ? field(finalLabel(fmt, unit), num("race_final", "race-final")) : null);
}

/** "then a knockout of the best 2 of each group" for the draw's summary, or "". */
export function stageText(choice, fmt) {
  if (!knockout(choice, fmt)) return "";
  const n = Math.floor(Number(choice.then_advance)) || 0;
  return t(`dk_then_summary_${fmt.name}`, { n });
}

/** "Losers bracket: race to 7 · Knockout: race to 9 · Final: race to 11" for the draw's summary:
 * the lengths that differ from the format step's, or "". */
export function raceText(choice, match, fmt) {
  const unit = lengthKey(match && match.format);
  const v = (k) => String(choice[k] ?? "").trim();
  const sides = sidesOf(choice, fmt);
  const parts = [];
  if (sides.includes("losers") && v("race_losers")) parts.push([`dk_race_losers_${unit}`, v("race_losers")]);
  if (sides.includes("final") && v("race_final")) parts.push([finalLabel(fmt, unit), v("race_final")]);
  if (knockout(choice, fmt) && v("then_length")) parts.push([`dk_then_length_${unit}`, v("then_length")]);
  if (knockout(choice, fmt) && v("then_final")) parts.push([`dk_then_final_${unit}`, v("then_final")]);
  // "race to 7", "抢7": no space after a Chinese label, as in the format's own text
  return parts.map(([label, n]) => `${t(label)}${/[\u3000-\u9fff]$/.test(t(label)) ? "" : " "}${n}`).join(" · ");
}

/** The summary's line of race lengths (`#draw-race-summary`), kept up to date as the organiser types. */
function showRaces(choice, match, fmt) {
  const line = document.getElementById("draw-race-summary");
  if (!line) return;
  line.textContent = raceText(choice, match, fmt);
  line.hidden = !line.textContent;
}

// The stroke form: what the referee saw, as facts for the hub to judge (PROTOCOL.md `shot`).
//
// A fact whose default alone would decide the verdict is asked, never assumed: with nothing
// pocketed after a contact the referee answers "A ball reached a rail" or "No rail" (not after a
// scratch: a foul whatever the rail); on a break
// the count (crossings / balls to a rail) is one tap on its number. "Enter stroke" with a question
// open highlights it, and the answer then enters the stroke (no third tap).
//
// The call (a call-shot discipline, after the break, not on a push-out) is one tap: the ball that
// went in as called. One ball pocketed is the call by that tap itself; with several, a tap on the
// called one (asked, never guessed: it decides who shoots next); "No call" for a safety, a missed
// call or the ball in another pocket (`called: null`).
//
// What the shot was meant to be (`intent`: pot, safety or kick, PROTOCOL.md section 12) is one
// optional tap after the break, never asked: it changes no verdict, it only feeds the players'
// pot and safety success.
import { t, tc } from "./i18n.js";
import { el, ball } from "./ui.js";
import { traitsOf, calledFoulsOf } from "./disciplines.js";

const COUNT_CHIPS = 11; // 0..10 as one-tap chips; the stepper goes further
const INTENTS = ["pot", "safety", "kick"];

// PROTOCOL.md section 15: in a doubles match a stroke by the member not due is a called foul too.
export const OUT_OF_TURN = "out_of_turn";

/** The called fouls the form offers (the discipline's traits): on a break, or on any other stroke;
 * in a doubles match (`match.doubles`) also out_of_turn, before `other`. */
export function calledFouls(discipline, isBreak, doubles = false) {
  const codes = calledFoulsOf(discipline, isBreak);
  if (!doubles) return codes;
  const at = codes.includes("other") ? codes.indexOf("other") : codes.length;
  return [...codes.slice(0, at), OUT_OF_TURN, ...codes.slice(at)];
}

/**
 * The first contact to preselect, or undefined (the referee must choose). A preselection is a
 * ball whose choice among its peers changes no verdict: the ball-on where it is the lowest ball; in
 * a game of groups on a break any ball, on a closed table any ball of the shooter's group (the
 * black once it is cleared). On an open table the group of the first ball decides: no default.
 */
export function preselect(ctx) {
  const on = ctx.onTable || [];
  if (!on.length) return undefined;
  const d = traitsOf(ctx.discipline);
  if (d.ball_on === "lowest") return Math.min(...on);
  if (d.ball_on !== "group") return undefined;
  if (ctx.phase === "break") return Math.min(...on);
  if (!ctx.group) return undefined;
  const mine = on.filter((n) => (ctx.group === "solids" ? n >= 1 && n <= 7 : n >= 9 && n <= 15));
  if (mine.length) return Math.min(...mine);
  return on.includes(d.win_ball) ? d.win_ball : undefined;
}

export function newForm(ctx) {
  return {
    first_contact: ctx ? preselect(ctx) : undefined, // undefined: not chosen yet; null: no contact
    pocketed: new Set(),
    off_table: new Set(),
    cue_ball: "table",
    rail: undefined, // asked: true / false once answered
    breakCount: undefined, // asked on a break: a number once answered
    called: new Set(),
    call: undefined, // the ball that went in as called: undefined (not said), null (no call) or a number
    break_position: false,
    push_out: false,
    snooker: false,
    rail_safety: false,
    isBreak: ctx ? ctx.phase === "break" : false,
    intent: null, // "pot" | "safety" | "kick" when the referee tapped it; null: not said
    touched: false, // the referee changed something since the form was made
    asking: false, // "Enter stroke" was tapped with a question open: its answer enters the stroke
  };
}

/** A stored (or refused) stroke back on the form, for correction. */
export function formFromShot(d, ctx) {
  const f = newForm(ctx);
  f.first_contact = "first_contact" in d ? d.first_contact : f.first_contact;
  f.pocketed = new Set(d.pocketed || []);
  f.off_table = new Set(d.off_table || []);
  f.cue_ball = d.cue_ball || "table";
  f.rail = d.rail === true ? true : d.rail === false ? false : undefined;
  const traits = traitsOf(ctx && ctx.discipline);
  if (ctx && ctx.phase === "break" && traits.break_count) f.breakCount = d[traits.break_count];
  f.called = new Set(d.called_fouls || []);
  if (traits.call_shot && "called" in d) f.call = d.called;
  for (const flag of ["push_out", ...traits.break_flags, ...traits.play_flags]) f[flag] = !!d[flag];
  f.intent = INTENTS.includes(d.intent) ? d.intent : null;
  f.touched = true;
  return f;
}

function phaseOf(form, ctx) { return ctx.phaseKnown === false ? (form.isBreak ? "break" : "play") : ctx.phase; }

/** Whether the stroke carries a call: a call-shot discipline, after the break, not a push-out. */
function callable(form, ctx) {
  return traitsOf(ctx.discipline).call_shot && phaseOf(form, ctx) !== "break" && !form.push_out;
}

/** The call as entered: the ball tapped (still pocketed), "no call" (null), else the only ball
 * pocketed; undefined while several went in and none was tapped. */
export function callOf(form) {
  if (form.call === null) return null;
  if (form.call !== undefined && form.pocketed.has(form.call)) return form.call;
  if (form.pocketed.size === 1) return [...form.pocketed][0];
  return form.pocketed.size ? undefined : null;
}

/** The question the referee still has to answer before the stroke can be entered, or null. */
export function openQuestion(form, ctx) {
  if (form.first_contact === undefined) return "first_contact";
  const phase = phaseOf(form, ctx);
  if (callable(form, ctx) && callOf(form) === undefined) return "call";
  if (phase === "break") {
    // Balls across the head string count with the balls pocketed: asked whatever went down.
    const needed = traitsOf(ctx.discipline).break_count === "break_crossings" || form.pocketed.size === 0;
    return needed && form.breakCount === undefined ? "break_count" : null;
  }
  // Nothing pocketed after a contact: the rail is a fact of the stroke the hub judges (no_rail),
  // so it is asked even when a called foul is marked. Not with a scratch (or the cue ball off the
  // table): that is a foul whatever the rail, and the stroke is one foul either way.
  const railMatters = form.first_contact !== null && form.pocketed.size === 0 && !form.push_out && !cueBallGone(form);
  return railMatters && form.rail === undefined ? "rail" : null;
}

function cueBallGone(form) { return form.cue_ball === "pocketed" || form.cue_ball === "off_table"; }

/** The `shot` command for the form (without `player` and `entered_at`: the page adds them). */
export function toCommand(form, ctx) {
  const phase = phaseOf(form, ctx);
  const cmd = {
    kind: "shot",
    first_contact: form.first_contact,
    pocketed: [...form.pocketed].sort((a, b) => a - b),
    off_table: [...form.off_table].sort((a, b) => a - b),
    cue_ball: form.cue_ball,
    // a scratch's rail, not asked, is not made a second foul ("no rail") the referee never called
    rail: form.rail === true || (form.rail === undefined && cueBallGone(form)),
    called_fouls: [...form.called],
  };
  const d = traitsOf(ctx.discipline);
  if (phase === "break") {
    if (d.break_count) cmd[d.break_count] = form.breakCount || 0;
    for (const flag of d.break_flags) cmd[flag] = !!form[flag];
  }
  if (d.push_out && form.push_out) cmd.push_out = true;
  for (const flag of d.play_flags) cmd[flag] = !!form[flag];
  if (callable(form, ctx)) cmd.called = callOf(form) ?? null;
  if (phase !== "break" && form.intent) cmd.intent = form.intent;
  return cmd;
}

/** "Went in as called": the pocketed balls and "No call", one tap. */
function callRow(f, asked, change) {
  const call = callOf(f);
  const pick = (v) => change(() => { f.call = v; }, { answers: "call" });
  return el("div", { class: `field question${asked === "call" ? " ask" : ""}${call === undefined ? " open" : ""}`, id: "call-row" },
    el("span", { class: "label", text: t("called_ball") }),
    el("div", { class: "btnrow" },
      [...f.pocketed].sort((a, b) => a - b).map((n) => ballBtn(n, call === n, pick(n), "call", { call: n })),
      toggleBtn(t("call_none"), call === null, pick(null), { dataset: { call: "none" } })));
}

function toggleBtn(label, on, onclick, attrs = {}) {
  return el("button", { type: "button", class: `btn toggle ${on ? "on" : ""} ${attrs.extra || ""}`, "aria-pressed": on ? "true" : "false",
    onclick, text: label, ...attrs, extra: null });
}

function ballBtn(n, on, onclick, extra = "", data = {}) {
  const b = el("button", { type: "button", class: `ballbtn ${on ? "on" : ""} ${extra}`, "aria-pressed": on ? "true" : "false", dataset: { ball: n, ...data }, onclick });
  b.append(ball(n));
  return b;
}

/**
 * The form's nodes. `view`: {form, ctx, title, note (text or nodes: names isolated), locked, lockLabel, onChange(), onEnter(), onClear()}.
 * ctx: {discipline, phase, phaseKnown, onTable, pushOutAllowed, group}.
 */
export function strokeFormNodes(view) {
  const { form: f, ctx } = view;
  const d = ctx.discipline;
  const traits = traitsOf(d);
  const phase = phaseOf(f, ctx);
  const isBreak = phase === "break";
  const on = ctx.onTable || [];
  const question = openQuestion(f, ctx);
  const asked = f.asking ? question : null;
  const change = (fn, { answers = null } = {}) => () => {
    if (view.locked) return;
    fn();
    f.touched = true;
    // The answer to the question "Enter stroke" raised enters the stroke at once.
    if (f.asking && answers && answers === asked && !openQuestion(f, ctx)) { view.onEnter(); return; }
    view.onChange();
  };

  const fcRow = el("div", { class: `ballgrid ${asked === "first_contact" ? "ask" : ""}`, id: "fc-grid" },
    ballBtn(0, f.first_contact === null, change(() => { f.first_contact = null; }, { answers: "first_contact" }), "none-btn"),
    on.map((n) => ballBtn(n, f.first_contact === n, change(() => { f.first_contact = n; }, { answers: "first_contact" }))));
  fcRow.firstChild.querySelector(".num").textContent = t("none");
  fcRow.firstChild.dataset.ball = "none";

  const setToggle = (set, n, other) => change(() => { if (set.has(n)) set.delete(n); else { set.add(n); other.delete(n); } });
  const pkRow = el("div", { class: "ballgrid", id: "pk-grid" },
    on.map((n) => ballBtn(n, f.pocketed.has(n), setToggle(f.pocketed, n, f.off_table))));
  const offRow = el("div", { class: "ballgrid", id: "off-grid" },
    on.map((n) => ballBtn(n, f.off_table.has(n), setToggle(f.off_table, n, f.pocketed))));
  const cueRow = el("div", { class: "btnrow", id: "cue-ball" }, ["table", "pocketed", "off_table"].map((v) =>
    toggleBtn(t(`cue_${v}`), f.cue_ball === v, change(() => { f.cue_ball = v; }), { dataset: { cue: v } })));

  const rows = [];
  if (ctx.phaseKnown === false) {
    rows.push(el("div", { class: "field flags" }, toggleBtn(t("offline_is_break"), f.isBreak, change(() => { f.isBreak = !f.isBreak; }), { id: "flag-break" })));
  }
  if (isBreak && traits.break_count) {
    const key = traits.break_count;
    const set = (n) => change(() => { f.breakCount = Math.max(0, Math.min(100, n)); }, { answers: "break_count" });
    const value = f.breakCount === undefined ? "–" : String(f.breakCount);
    rows.push(el("div", { class: `field question ${asked === "break_count" ? "ask" : ""}`, id: "break-question" },
      el("span", { class: "label", text: t(key) }),
      el("div", { class: "countrow" },
        el("div", { class: "chips counts", id: "break-counts" }, Array.from({ length: COUNT_CHIPS }, (_, n) =>
          toggleBtn(String(n), f.breakCount === n, set(n), { dataset: { count: n }, extra: "count" }))),
        el("div", { class: "stepper", id: "break-count" },
          el("button", { type: "button", class: "btn", id: "break-minus", text: "−", onclick: set((f.breakCount ?? 1) - 1) }),
          el("span", { class: "value", id: "break-value", text: value }),
          el("button", { type: "button", class: "btn", id: "break-plus", text: "+", onclick: set((f.breakCount ?? 0) + 1) })))));
  } else if (!isBreak) {
    rows.push(el("div", { class: `field question ${asked === "rail" ? "ask" : ""} ${question === "rail" ? "open" : ""}${cueBallGone(f) ? " hidden" : ""}`, id: "rail-question" },
      el("span", { class: "label", text: t("rail_question") }),
      el("div", { class: "btnrow" },
        toggleBtn(t("rail"), f.rail === true, change(() => { f.rail = f.rail === true ? undefined : true; }, { answers: "rail" }), { id: "flag-rail" }),
        toggleBtn(t("no_rail_btn"), f.rail === false, change(() => { f.rail = f.rail === false ? undefined : false; }, { answers: "rail" }), { id: "flag-no-rail" }))));
  }
  // The discipline's own facts of a stroke (traits: break_flags, play_flags, push_out), one toggle each.
  const flagBtn = (flag) => toggleBtn(t(flag), !!f[flag], change(() => { f[flag] = !f[flag]; }), { id: `flag-${flag.replace(/_/g, "-")}` });
  const flags = isBreak ? traits.break_flags.map(flagBtn)
    : [...(traits.push_out && ctx.pushOutAllowed ? [flagBtn("push_out")] : []), ...traits.play_flags.map(flagBtn)];
  const calledRow = el("div", { class: "btnrow chips", id: "called-fouls" }, calledFouls(d, isBreak, !!ctx.doubles).map((c) =>
    toggleBtn(tc("f", c), f.called.has(c), change(() => { if (f.called.has(c)) f.called.delete(c); else f.called.add(c); }), { dataset: { foul: c } })));

  const hint = asked ? t(`ask_${asked}`) : view.note || "";
  return [
    el("h3", { class: "section-title plain", id: "stroke-title" }, view.title),
    hint ? el("p", { class: `stroke-hint ${asked ? "ask" : "muted"}`, id: "stroke-ask", role: asked ? "alert" : null }, hint) : null,
    el("div", { class: "field" }, el("span", { class: "label", text: t("first_contact") }), fcRow),
    el("div", { class: "field" }, el("span", { class: "label", text: t("pocketed") }), pkRow),
    callable(f, ctx) && f.pocketed.size ? callRow(f, asked, change) : null,
    el("div", { class: "field" }, el("span", { class: "label", text: t("off_table") }), offRow),
    el("div", { class: "field" }, el("span", { class: "label", text: t("cue_ball") }), cueRow),
    rows,
    flags.length ? el("div", { class: "field flags" }, flags) : null,
    el("div", { class: "field" }, el("span", { class: "label", text: t("called_fouls") }), calledRow),
    isBreak ? null : el("div", { class: "field intent" }, el("span", { class: "label", text: t("intent") }),
      el("div", { class: "btnrow chips", id: "intent-row" }, INTENTS.map((i) =>
        toggleBtn(t(`intent_${i}`), f.intent === i, change(() => { f.intent = f.intent === i ? null : i; }), { dataset: { intent: i } })))),
    el("div", { class: "btnrow submit" },
      el("button", { type: "button", class: "btn", id: "clear-stroke", text: t("clear_stroke"), disabled: !!view.locked, onclick: view.onClear }),
      el("button", { type: "button", class: `btn primary big ${question ? "incomplete" : ""}`, id: "enter-stroke",
        disabled: !!view.locked, "aria-busy": view.locked ? "true" : null,
        text: view.locked ? view.lockLabel : t("enter_stroke"), onclick: view.onEnter })),
  ];
}

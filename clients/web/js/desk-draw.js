// Step "draw": the draw type and its settings (the formats the hub makes, the disciplines each takes
// and their settings, from GET /api/draw-formats: single or double elimination, round robin with
// groups, chase groups...) and the seeding (by seed, or random with a seed: the same seed, the same
// draw), a summary of what will be made, and Start: POST /api/tournaments/{tid}/draw; the hub calls
// the first matches to the free tables at once and the desk moves on to running the event.
import { t, tc } from "./i18n.js";
import { el, fill } from "./ui.js";
import { hub } from "./desk-api.js";
import { loadSetup, matchBody, setupText } from "./desk-setup.js";
import { field, say, noticeLine, busy, ask, errorText } from "./desk-ui.js";
import { savedPaste, parsePlayers } from "./desk-players.js";
import { raceText, roundFields, roundsBody, stageFields, stageText, thenBody } from "./desk-stage.js";
import { teamPreset, withPreset } from "./desk-teams.js";

const enc = encodeURIComponent;
const KEY = (tid) => `cuehub.desk.draw.${tid}`;

// GET /api/draw-formats, the same for the page's life: asked for as the desk loads (it is public), so
// the draw step has it when it opens; asked again then if that failed.
let catalogue = null;
let asking = null;
function loadFormats() {
  if (!asking) asking = hub.drawFormats().then((got) => (catalogue = got), (e) => { asking = null; throw e; });
  return asking;
}
loadFormats().catch(() => { /* said by the draw step, which asks again */ });

/** The choice kept in this browser, over the defaults: the hub's first format. Each format's settings
 * are kept apart (`settings[format][name]`: two formats' "rounds" may differ in meaning and default). */
function loadChoice(tid, formats) {
  const first = formats.formats.find((f) => f.name === formats.default) || formats.formats[0];
  const base = { type: first.name, seeding: "random", seed: "", settings: {}, then: "none",
    then_advance: first.then ? first.then.advance.default : "", then_length: "", then_final: "", race_losers: "", race_final: "" };
  try { return { ...base, ...JSON.parse(localStorage.getItem(KEY(tid)) || "{}") }; } catch (_) {
    return base;
  }
}

export function drawView(ctx) {
  let root = null;
  let formats = catalogue;
  let choice = formats ? loadChoice(ctx.tid, formats) : null;
  const message = noticeLine("draw-message");

  const save = () => { try { localStorage.setItem(KEY(ctx.tid), JSON.stringify(choice)); } catch (_) { /* page memory is enough */ } };
  const set = (k, v) => { choice = { ...choice, [k]: v }; save(); return choice; };
  /** A setting of the chosen format as typed, else its default. */
  const setting = (p) => {
    const mine = (choice.settings || {})[choice.type] || {};
    return p.name in mine ? mine[p.name] : p.default;
  };

  const formatOf = (type) => formats.formats.find((f) => f.name === type);

  function allowed(type, discipline) {
    const f = formatOf(type);
    return Boolean(f) && f.disciplines.includes(discipline);
  }

  /** The type to offer for a discipline the chosen one does not take: the hub's first, else the first that fits. */
  function fitting(discipline) {
    if (allowed(formats.default, discipline)) return formats.default;
    const f = formats.formats.find((x) => x.disciplines.includes(discipline));
    return f ? f.name : formats.default;
  }

  function radio(name, value, checked, label, onPick, disabled = false) {
    const input = el("input", { type: "radio", name, value, id: `${name}-${value}`, checked, disabled });
    input.addEventListener("change", () => { if (input.checked) onPick(value); });
    return el("label", { class: `choice${checked ? " on" : ""}${disabled ? " off" : ""}`, for: `${name}-${value}` }, input, el("span", { text: label }));
  }

  function body(setup) {
    const fmt = formatOf(choice.type);
    const b = { type: choice.type, seeding: choice.seeding, match: roundsBody(choice, matchBody(setup), fmt) };
    if (String(choice.seed).trim() !== "") b.seed = Math.floor(Number(choice.seed));
    // each setting of the format: left to the hub's default when it is that, or blank, or below its least
    for (const p of fmt.params) {
      const v = Math.floor(Number(setting(p)));
      if (Number.isFinite(v) && v >= p.minimum && v !== p.default) b[p.name] = v;
    }
    const then = thenBody(choice, matchBody(setup), fmt);
    if (then) b.then = then;
    return withPreset(ctx.tid, b); // a team event chosen on the teams step: its type, race and rubbers
  }

  async function start(button, redraw) {
    const tour = ctx.tournament();
    const setup = loadSetup(ctx.tid);
    if (redraw && !(await ask(t("dk_redraw_confirm")))) return;
    await busy(button, message, async () => {
      await hub.makeDraw(ctx.tid, { ...body(setup), ...(redraw ? { redraw: true } : {}) });
      await ctx.reload();
      ctx.navigate(`/desk/${enc(ctx.tid)}/run`);
      ctx.say(t("dk_started", { name: tour ? tour.name : "" }), "ok");
    });
  }

  /** The input of a setting of the chosen format (`draw-groups`, `draw-rounds`...), within its bounds. */
  function settingInput(p) {
    const input = el("input", { type: "number", id: `draw-${p.name}`, min: p.minimum, max: p.maximum, value: String(setting(p)), inputmode: "numeric" });
    input.addEventListener("input", () => {
      const settings = choice.settings || {};
      set("settings", { ...settings, [choice.type]: { ...(settings[choice.type] || {}), [p.name]: input.value } });
    });
    return input;
  }

  let shown = "";
  function signature() {
    const tour = ctx.tournament() || {};
    const d = tour.draw;
    const started = d ? d.matches.filter((m) => m.status === "finished" || (m.status === "called" && isLive(tour, m))).length : -1;
    return JSON.stringify([(tour.players || []).filter((p) => p.status === "active").length, (tour.tables || []).length,
      d ? [d.type, d.seed, d.seeding, started > 0, Boolean(d.stale)] : null]);
  }

  function paint() {
    if (!root) return;
    if (!formats) {
      fill(root, el("h2", { text: t("step_draw") }), el("p", { class: "muted", id: "draw-loading", text: t("loading") }), message);
      return;
    }
    shown = signature();
    const tour = ctx.tournament() || {};
    const setup = loadSetup(ctx.tid);
    const d = setup.discipline;
    if (!allowed(choice.type, d)) choice = { ...choice, type: fitting(d) };
    const fmt = formatOf(choice.type);
    const active = (tour.players || []).filter((p) => p.status === "active").length;
    const tables = (tour.tables || []).length;
    const made = tour.draw;
    const startButton = el("button", { class: "btn primary big", id: "start-draw", type: "button", text: t(made ? "dk_redraw" : "dk_start") });
    startButton.addEventListener("click", () => start(startButton, Boolean(made)));
    const need = fmt.min_players;
    const problems = [];
    if (active < need) problems.push(t("dk_need_players", { n: need }));
    if (!tables) problems.push(t("dk_need_tables"));
    startButton.disabled = problems.length > 0;
    // Names typed on the players step and not added yet (kept in this browser): said before a draw without them.
    const unsent = parsePlayers(savedPaste(ctx.tid), tour.players || []).rows.length;
    const seedInput = el("input", { type: "number", id: "draw-seed", min: 0, value: String(choice.seed), placeholder: t("dk_seed_auto"), inputmode: "numeric" });
    seedInput.addEventListener("input", () => set("seed", seedInput.value));
    const started = made && made.matches.some((m) => m.status === "finished" || (m.status === "called" && isLive(tour, m)));
    fill(root,
      el("h2", { text: t("step_draw") }),
      made && made.stale ? el("p", { class: "notice warn", id: "draw-stale", text: t("dk_stale_draw") }) : null,
      made ? el("div", { class: "notice info", id: "draw-made" },
        el("p", { text: t("dk_draw_made", { type: tc("dt", made.type), seeding: t(`dk_seeding_${made.seeding}`), seed: made.seed }) }),
        el("p", { text: setupText(made.match) }),
        el("a", { class: "btn primary", href: `/desk/${enc(ctx.tid)}/run`, "data-nav": true, id: "go-run", text: t("dk_go_run") })) : null,
      el("fieldset", { class: "choices types" }, el("legend", { text: t("dk_draw_type") }),
        formats.formats.map(({ name: x }) => radio("draw-type", x, choice.type === x, tc("dt", x), (v) => { set("type", v); paint(); }, !allowed(x, d)))),
      el("p", { class: "muted small", text: t(`dk_about_${choice.type}`) }),
      fmt.params.map((p) => el("div", { class: "row" }, field(`dk_${p.name}`, settingInput(p)))),
      roundFields(choice, set, matchBody(setup), fmt),
      stageFields(choice, set, paint, matchBody(setup), fmt),
      el("fieldset", { class: "choices" }, el("legend", { text: t("dk_seeding") }),
        radio("seeding", "random", choice.seeding === "random", t("dk_seeding_random"), (v) => { set("seeding", v); paint(); }),
        radio("seeding", "seeded", choice.seeding === "seeded", t("dk_seeding_seeded"), (v) => { set("seeding", v); paint(); })),
      el("p", { class: "muted small", text: t(choice.seeding === "seeded" ? "dk_seeded_help" : "dk_random_help") }),
      el("div", { class: "row" }, field("dk_seed", seedInput)),
      el("div", { class: "summary-box", id: "draw-summary" },
        el("p", {}, el("strong", { text: t("dk_summary") })),
        el("ul", {},
          el("li", {}, el("span", { text: `${t("step_format")}: ${setupText(matchBody(setup))} ` }),
            el("a", { href: `/desk/${enc(ctx.tid)}/format`, "data-nav": true, text: t("dk_change") })),
          stageText(choice, fmt) ? el("li", { id: "draw-then-summary", text: stageText(choice, fmt) }) : null,
          teamPreset(ctx.tid) ? el("li", { id: "draw-team-summary", text: t(`tm_preset_${teamPreset(ctx.tid).name}`) }) : null,
          el("li", { id: "draw-race-summary", text: raceText(choice, matchBody(setup), fmt), hidden: !raceText(choice, matchBody(setup), fmt) }),
          el("li", {}, el("span", { text: `${t("dk_active_players", { n: active })} ` }),
            el("a", { href: `/desk/${enc(ctx.tid)}/players`, "data-nav": true, text: t("dk_change") })),
          el("li", {}, el("span", { text: `${t("dk_n_tables", { n: tables })} ` }),
            el("a", { href: `/desk/${enc(ctx.tid)}/tables`, "data-nav": true, text: t("dk_change") }))),
        problems.map((p) => el("p", { class: "notice err need", text: p })),
        unsent ? el("p", { class: "notice warn", id: "draw-unsent" }, el("span", { text: `${t("dk_unsent_names", { n: unsent })} ` }),
          el("a", { href: `/desk/${enc(ctx.tid)}/players`, "data-nav": true, text: t("dk_unsent_go") })) : null),
      started ? el("p", { class: "notice info", text: t("dk_no_redraw") }) : el("div", { class: "next-row" }, startButton),
      message);
  }

  function isLive(tour, m) {
    const table = (tour.tables || []).find((x) => x.id === m.table_id);
    return table && table.match && table.match.id === m.match_id && table.match.status !== "scheduled";
  }

  return {
    mount(node) {
      root = el("section", { class: "card wizard", id: "step-draw" });
      node.append(root);
      paint();
      if (!formats) {
        loadFormats().then((got) => {
          formats = got;
          choice = loadChoice(ctx.tid, formats);
          paint();
        }, (e) => say(message, errorText(e), "err"));
      }
    },
    update() { if (formats && signature() !== shown) paint(); }, // not on every stroke: only what this step shows
    paint,
    unmount() { root = null; },
    say: (text, kind) => say(message, text, kind),
  };
}

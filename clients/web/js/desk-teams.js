// Step "teams" (PROTOCOL.md section 15): a team event in a few steps. Pick a team event (the hub's
// presets, GET /api/team-presets: the draw step merges the chosen one into its body), add the teams
// (a name and its members, one a line, the first the captain), and name the lineups of the team
// matches in play (desk-lineups.js: each rubber's players, hidden from everyone else until both
// teams have named theirs), one by one or all in order at once.
import { t } from "./i18n.js";
import { el, fill } from "./ui.js";
import { api } from "./desk-api.js";
import { field, say, noticeLine, busy } from "./desk-ui.js";
import { lineupsPanel } from "./desk-lineups.js";

const enc = encodeURIComponent;
const KEY = (tid) => `cuehub.desk.team.${tid}`;

let presets = null;
let asking = null;
function loadPresets() {
  if (!asking) asking = api("GET", "/api/team-presets").then((got) => (presets = got.presets), (e) => { asking = null; throw e; });
  return asking;
}
loadPresets().catch(() => { /* the step asks again */ });

/** The team event chosen for a tournament (kept in this browser), or null: players, not teams. */
export function teamPreset(tid) {
  let name = null;
  try { name = localStorage.getItem(KEY(tid)); } catch (_) { /* none */ }
  return (presets || []).find((p) => p.name === name) || null;
}

/** The draw body with the chosen team event laid over it: its type, its race over the format, its rubbers. */
export function withPreset(tid, body) {
  const p = teamPreset(tid);
  if (!p) return body;
  const match = { ...body.match, format: { ...(body.match.format || {}), ...(p.format || {}) } };
  if (p.team) match.team = p.team;
  if (p.doubles) match.doubles = true;
  return { ...body, type: p.type, match };
}

/** Names typed one a line ("Name" or "Name, Club") as the members of a team. */
export function parseMembers(text) {
  return String(text || "").split("\n").map((line) => line.trim()).filter(Boolean).map((line) => {
    const [name, club] = line.split(",").map((x) => x.trim());
    return club ? { name, club } : { name };
  });
}

export function teamsView(ctx) {
  let root = null;
  const message = noticeLine("teams-message");
  const typed = { name: "", members: "" }; // kept across repaints (the tournament changes while one types)
  let shown = "";

  function choose(name) {
    try { if (name) localStorage.setItem(KEY(ctx.tid), name); else localStorage.removeItem(KEY(ctx.tid)); } catch (_) { /* page memory */ }
    paint();
  }

  function presetChoices() {
    const chosen = teamPreset(ctx.tid);
    const radio = (value, label) => {
      const input = el("input", { type: "radio", name: "team-preset", value, id: `team-preset-${value || "none"}`, checked: (chosen ? chosen.name : "") === value });
      input.addEventListener("change", () => { if (input.checked) choose(value); });
      return el("label", { class: `choice${input.checked ? " on" : ""}`, for: input.id }, input, el("span", { text: label }));
    };
    return el("fieldset", { class: "choices", id: "team-presets" }, el("legend", { text: t("tm_presets") }),
      radio("", t("tm_preset_none")), (presets || []).map((p) => radio(p.name, t(`tm_preset_${p.name}`))));
  }

  function addForm() {
    const name = el("input", { type: "text", id: "team-name", maxlength: 100, value: typed.name });
    const members = el("textarea", { id: "team-members", rows: 5 });
    members.value = typed.members;
    name.addEventListener("input", () => { typed.name = name.value; });
    members.addEventListener("input", () => { typed.members = members.value; });
    const button = el("button", { class: "btn primary", id: "add-team", type: "button", text: t("tm_add_team") });
    button.addEventListener("click", () => busy(button, message, async () => {
      const list = parseMembers(members.value);
      await api("POST", `/api/tournaments/${enc(ctx.tid)}/players`, { name: name.value.trim(), members: list, captain: 0 });
      typed.name = ""; typed.members = "";
      await ctx.reload();
      paint();
    }));
    return el("div", { class: "card-sub", id: "team-form" },
      el("h3", { text: t("tm_add_team") }), field("tm_team_name", name), field("tm_member_lines", members), button);
  }

  function teamList(tour) {
    const teams = (tour.players || []).filter((p) => p.members);
    return el("ul", { class: "team-list", id: "team-list" }, teams.map((p) => el("li", { dataset: { team: p.id } },
      el("strong", {}, el("bdi", { text: p.name })), " · ",
      p.members.map((m, i) => [i ? ", " : "", el("bdi", { text: m.name }), i === p.captain ? ` (${t("tm_captain")})` : ""]))));
  }

  /** What this step shows of the tournament: it repaints only when that changed, not on every stroke. */
  function signature() {
    const tour = ctx.tournament() || {};
    const teams = (tour.players || []).filter((p) => p.members).map((p) => [p.id, p.name, p.members.length]);
    const matches = ((tour.draw && tour.draw.matches) || []).filter((m) => m.team).map((m) => [m.key, m.status, m.team]);
    const live = (tour.tables || []).map((tb) => (tb.match ? [tb.match.id, tb.match.status] : null));
    return JSON.stringify([teams, matches, live, Boolean(tour.draw)]);
  }

  function paint() {
    if (!root) return;
    shown = signature();
    const tour = ctx.tournament() || {};
    fill(root, el("h2", { text: t("step_teams") }), presetChoices(), tour.draw ? null : addForm(), teamList(tour),
      lineupsPanel(ctx, message, paint), message);
  }

  return {
    mount(node) {
      root = el("section", { class: "card wizard", id: "step-teams" });
      node.append(root);
      paint();
      if (!presets) loadPresets().then(paint, () => { /* the choices stay empty */ });
    },
    update() { if (signature() !== shown) paint(); },
    paint,
    unmount() { root = null; },
    say: (text, kind) => say(message, text, kind),
  };
}

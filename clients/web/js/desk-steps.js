// The steps of an event, in the order an organiser takes them: the format of the
// matches, the players, the tables, the draw, running it, and the table cards. Each step is a view
// {mount(node), update() (the tournament changed), paint() (the language changed), unmount()}.
import { tablesView } from "./desk-tables.js";
import { cardsView } from "./desk-cards.js";
import { formatView } from "./desk-format.js";
import { playersView } from "./desk-players.js";
import { drawView } from "./desk-draw.js";
import { runView } from "./desk-run.js";
import { entriesView } from "./desk-entries.js";
import { teamsView } from "./desk-teams.js";

export const STEPS = [
  { key: "format", title: "step_format", numbered: true, view: formatView },
  { key: "players", title: "step_players", numbered: true, view: playersView },
  { key: "tables", title: "step_tables", numbered: true, view: tablesView },
  { key: "draw", title: "step_draw", numbered: true, view: drawView },
  { key: "run", title: "step_run", numbered: true, view: runView },
  { key: "cards", title: "step_cards", numbered: false, view: cardsView },
  { key: "entries", title: "step_entries", numbered: false, view: entriesView }, // sign-up and check-in (section 14)
  { key: "teams", title: "step_teams", numbered: false, view: teamsView }, // a team event: PROTOCOL.md section 15
];

/** Where a new tournament starts. */
export const FIRST_STEP = "format";

/** Where an opened tournament starts: running it once it has a draw, else the first step. */
export function startStep(tour) {
  if (tour && tour.draw) return "run";
  if (tour && (tour.players || []).length) return "draw";
  return FIRST_STEP;
}

// The steps of an event, in the order an organiser takes them (issue 14): the format of the
// matches, the players, the tables, the draw, running it, and the table cards. A step whose
// `view` is null is shown as a placeholder saying what it will hold: those are the screens of
// the draw engine (PROTOCOL.md section 7), filled in by the next round.
import { t } from "./i18n.js";
import { el } from "./ui.js";
import { tablesView } from "./desk-tables.js";
import { cardsView } from "./desk-cards.js";

export const STEPS = [
  { key: "format", title: "step_format", about: "step_format_about", numbered: true, view: null },
  { key: "players", title: "step_players", about: "step_players_about", numbered: true, view: null },
  { key: "tables", title: "step_tables", numbered: true, view: tablesView },
  { key: "draw", title: "step_draw", about: "step_draw_about", numbered: true, view: null },
  { key: "run", title: "step_run", about: "step_run_about", numbered: true, view: null },
  { key: "cards", title: "step_cards", numbered: false, view: cardsView },
];

/** Where a new or opened tournament starts. */
export const FIRST_STEP = "tables";

export function placeholderView(step) {
  let root = null;
  const paint = () => {
    if (!root) return;
    root.replaceChildren(
      el("h2", { text: t(step.title) }),
      el("p", { text: t(step.about) }),
      el("p", { class: "muted", text: t("step_soon") }));
  };
  return {
    mount(node) {
      root = el("section", { class: "card placeholder", id: `step-${step.key}`, dataset: { placeholder: step.key } });
      node.append(root);
      paint();
    },
    paint,
    unmount() { root = null; },
  };
}

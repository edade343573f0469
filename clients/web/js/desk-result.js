// "Enter result": a score typed at the desk for a called, live or finished match (a table without
// a referee, a dead tablet, players reporting their frames): POST /api/matches/{mid}/result with
// {winner, score: {pid: n}, reason}. The score counts racks, or points where the discipline's
// traits say so. The winner follows the best score until the organiser picks one (a ranked
// discipline: "No winner" when two share the top score). What the hub would refuse (the winner's score is not the best, a
// race not reached, chase points not summing to 0) is said in the page's language before sending;
// the hub has the last word (422, or 409 result_used once a match fed by this one has started)
// and its answer is said in plain words on the run view.
//
// The form is one node kept across the run view's live repaints (every stroke repaints it), so
// what is being typed and the focus stay where they are.
import { t } from "./i18n.js";
import { el } from "./ui.js";
import { traitsOf } from "./disciplines.js";

/** What the hub would refuse, said in the page's language before anything is sent (the hub
 * checks again): the winner's score is the best, a race's winner reached the race and nobody
 * passed it, chase points sum to zero. `format` is the match's (set when the desk has read it). */
export function resultProblem(body, players, discipline, format) {
  const s = body.score;
  const name = (pid) => (players.find((p) => p.id === pid) || {}).name || pid;
  const best = Math.max(...Object.values(s));
  if (traitsOf(discipline).ranked) {
    if (Object.values(s).reduce((a, b) => a + b, 0) !== 0) return t("dk_res_chase_sum");
    const top = Object.keys(s).filter((pid) => s[pid] === best);
    if (body.winner === null) return top.length > 1 ? null : t("dk_res_chase_top", { name: name(top[0]) });
  }
  const races = format && format.race_to;
  if (races && typeof races === "object") return handicapProblem(s, body.winner, races, name);
  const others = Object.entries(s).filter(([pid]) => pid !== body.winner).map(([, n]) => n);
  const n = s[body.winner];
  if (others.some((x) => x > n)) return t("dk_res_not_best", { name: name(body.winner), n, best });
  if (others.some((x) => x === n)) return t("dk_res_level", { n });
  const race = format && format.race_to;
  if (race && Object.values(s).some((x) => x > race)) return t("dk_res_over_race", { race });
  if (race && n !== race) return t("dk_res_race", { race, name: name(body.winner), n });
  return null;
}

/** A handicapped race (a race per player, PROTOCOL.md section 13): nobody passed their own race,
 * the winner reached theirs and nobody else did; the best score need not be the winner's. */
function handicapProblem(s, winner, races, name) {
  for (const [pid, n] of Object.entries(s)) {
    if (races[pid] !== undefined && n > races[pid]) return t("dk_res_over_own_race", { name: name(pid), race: races[pid] });
  }
  if (s[winner] !== races[winner]) return t("dk_res_race", { race: races[winner], name: name(winner), n: s[winner] });
  const other = Object.keys(s).find((pid) => pid !== winner && s[pid] === races[pid]);
  return other ? t("dk_res_other_reached", { name: name(other), race: races[other] }) : null;
}

/** players: [{id, name, score}]; onSubmit(body, button) -> promise; onRefuse(text): a score the
 * hub would refuse; onCancel(). The form's setFormat(f) gives it the match's format. */
export function resultForm({ key, players, discipline, format = null, onSubmit, onRefuse, onCancel }) {
  const ranked = traitsOf(discipline).ranked; // net points that sum to zero; a shared top has no winner
  let fmt = format;
  let picked = null; // a winner chosen by hand; until then the best score wins
  const inputs = players.map((p) => el("input", {
    type: "number", class: "res-score", min: ranked ? -999 : 0, max: 999, step: 1,
    inputmode: "numeric", value: String(p.score ?? 0), dataset: { player: p.id }, "aria-label": p.name,
  }));
  // ranked: a top score shared by two players has no winner (the hub takes winner: null).
  const winner = el("select", { class: "res-winner" }, players.map((p) => el("option", { value: p.id, text: p.name })),
    ranked ? el("option", { value: "", text: t("dk_res_no_winner") }) : null);
  const reason = el("input", { type: "text", class: "res-reason", maxlength: 200, autocomplete: "off", placeholder: t("dk_res_reason_ph") });
  const submit = el("button", { class: "btn small primary", type: "submit", dataset: { action: "result-go" }, text: t("dk_res_save") });
  const cancel = el("button", { class: "btn small", type: "button", dataset: { action: "result-cancel" }, text: t("cancel") });

  const scores = () => Object.fromEntries(players.map((p, i) => [p.id, Math.trunc(Number(inputs[i].value) || 0)]));
  function follow() {
    if (picked !== null) return;
    const s = scores();
    const best = Math.max(...Object.values(s));
    const top = players.filter((p) => s[p.id] === best);
    if (top.length === 1) winner.value = top[0].id;
    else if (ranked) winner.value = "";
  }
  inputs.forEach((i) => i.addEventListener("input", follow));
  winner.addEventListener("change", () => { picked = winner.value; });
  cancel.addEventListener("click", () => onCancel());
  follow();

  const form = el("form", { class: "chooser result-form", dataset: { chooser: "result", key: key || "" } },
    el("strong", { class: "res-title", text: t("dk_res_title", { key: key || "" }) }),
    el("div", { class: "res-scores" }, players.map((p, i) => el("label", { class: "res-player" },
      el("bdi", { class: "res-name", text: p.name }), inputs[i]))),
    el("span", { class: "muted small", text: t(traitsOf(discipline).score === "points" ? "dk_res_points" : "dk_res_racks") }),
    el("label", { class: "res-field" }, el("span", { class: "muted small", text: t("dk_res_winner") }), winner),
    el("label", { class: "res-field wide" }, el("span", { class: "muted small", text: t("dk_res_reason") }), reason),
    el("div", { class: "res-actions" }, submit, cancel));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const body = { winner: winner.value || null, score: scores() };
    if (reason.value.trim()) body.reason = reason.value.trim();
    const problem = resultProblem(body, players, discipline, fmt);
    if (problem && onRefuse) onRefuse(problem);
    else onSubmit(body, submit);
  });
  form.setFormat = (f) => {
    fmt = f || null;
    if (fmt && fmt.race_to) form.dataset.race = typeof fmt.race_to === "object" ? Object.values(fmt.race_to).join("-") : String(fmt.race_to);
  };
  return form;
}

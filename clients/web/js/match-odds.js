// The ratings and chances line of a two-player match (the commentator screen, PROTOCOL.md section
// 13): each player's rating and their chance to win the match from the score, read from
// GET /api/matches/{id}/odds again whenever the score, the players or the status change (rack by
// rack), never per stroke.
import { t } from "./i18n.js";
import { getJSON } from "./live.js";
import { el } from "./ui.js";

let shownFor = null;  // the key the current answer is for
let answer = null;
let asked = null;

function keyOf(match) {
  return [match.id, match.status, ...(match.players || []).map((p) => `${p.id}:${p.racks_won ?? p.score ?? 0}`)].join("|");
}

/** The line for `match` now (or null); `rerender` is called when a fresher answer arrives. */
export function oddsLine(match, rerender) {
  if (!match || (match.players || []).length !== 2) return null;
  const key = keyOf(match);
  if (key !== asked) {
    asked = key;
    getJSON(`/api/matches/${encodeURIComponent(match.id)}/odds`).then((data) => {
      if (asked !== key) return;
      answer = data;
      shownFor = key;
      rerender();
    }).catch(() => { /* no odds: the line stays as it was */ });
  }
  if (!answer || answer.match_id !== match.id) return null;
  return el("div", { class: "odds", id: "odds", dataset: { fresh: String(shownFor === key) } },
    answer.players.map((p) => {
      const r = p.rating;
      return el("div", { class: "odds-p", dataset: { player: p.player_id } },
        el("span", { class: `odds-rating${r && r.provisional ? " provisional" : ""}`,
          text: r ? t("rt_rating_n", { value: r.value }) : t("rt_unrated") }),
        p.chance === null || p.chance === undefined ? null
          : el("span", { class: "odds-chance", text: t("rt_chance", { pct: Math.round(p.chance * 100) }) }));
    }));
}

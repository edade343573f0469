// The lineups of the team matches in play (PROTOCOL.md section 15): each rubber's players, named
// by the desk (POST .../draw/{key}/lineup), hidden from everyone else until both teams have named
// theirs; one rubber at a time or every one left at once, members in turn. Shown by the teams step
// and by the run step (where the desk is on the day: a team match due whose lineups are missing).
import { t } from "./i18n.js";
import { el } from "./ui.js";
import { api } from "./desk-api.js";
import { say, busy, nameOf } from "./desk-ui.js";
import { rubberList } from "./team-view.js";
import { drawContext } from "./draw-view.js";

const enc = encodeURIComponent;

/** Team matches ready or called (in play), and those of them with a rubber whose lineups are missing. */
export function teamMatchesInPlay(tour) {
  const draw = tour.draw;
  return draw ? (draw.matches || []).filter((m) => m.team && (m.status === "ready" || m.status === "called")) : [];
}

export function lineupsMissing(m) {
  return m.team.rubbers.some((r) => r.status === "waiting");
}

/** What a lineups panel shows: repaint it only when this changed (a repaint resets the choices). */
export function lineupsSignature(tour) {
  return JSON.stringify(teamMatchesInPlay(tour).map((m) => [m.key, m.status, m.team.rubbers.map((r) => [r.status, r.named])]));
}

/**
 * The lineups panel: `ctx` the desk's (tid, tournament(), reload()), `message` the step's notice
 * line, `after` what repaints the step once a lineup is in. `due`: only the team matches with a
 * rubber whose lineups are missing (the run step), with a heading that says so. Null when none.
 */
export function lineupsPanel(ctx, message, after, { due = false } = {}) {
  const tour = ctx.tournament() || {};
  const playing = teamMatchesInPlay(tour).filter((m) => !due || lineupsMissing(m));
  if (!playing.length) return null;

  async function nameLineup(key, rubber, team, members) {
    await api("POST", `/api/tournaments/${enc(ctx.tid)}/draw/${enc(key)}/lineup`, { rubber, team, members });
  }

  /** Every rubber not named yet, each team's members in turn (the captain can change one before it is called). */
  async function nameAll(m) {
    let turn = 0;
    for (const r of m.team.rubbers) {
      if (r.status !== "waiting") continue;
      for (const team of m.players) {
        if ((r.named || []).includes(team)) continue;
        const members = ((ctx.tournament().players || []).find((p) => p.id === team) || { members: [] }).members;
        const n = r.kind === "doubles" ? 2 : 1;
        const chosen = Array.from({ length: n }, (_, i) => members[(turn + i) % members.length].id);
        await nameLineup(m.key, r.rubber, team, chosen);
      }
      turn += 1;
    }
  }

  function rubberForm(m, r, team) {
    const p = (tour.players || []).find((x) => x.id === team) || { members: [] };
    const n = r.kind === "doubles" ? 2 : 1;
    const selects = Array.from({ length: n }, (_, i) => el("select", { dataset: { slot: String(i) } },
      p.members.map((x, j) => el("option", { value: x.id, text: x.name, selected: j === i }))));
    const button = el("button", { class: "btn small", type: "button", text: t("tm_name_lineup") });
    button.addEventListener("click", () => busy(button, message, async () => {
      await nameLineup(m.key, r.rubber, team, selects.map((s) => s.value));
      await ctx.reload();
      say(message, t("tm_lineup_saved", { n: r.rubber }), "ok");
      after();
    }));
    return el("span", { class: "lineup-form", dataset: { rubber: String(r.rubber), team } },
      el("bdi", { text: nameOf(tour, team) }), " ", selects, button);
  }

  const ctxView = drawContext(tour);
  return el("div", { id: due ? "lineups-due" : "lineups", class: due ? "card lineups-due" : null },
    el("h3", { text: t(due ? "tm_lineups_due" : "tm_lineups") }),
    el("p", { class: "muted small", text: t("tm_hidden") }),
    playing.map((m) => {
      const all = el("button", { class: "btn", type: "button", id: `name-all-${m.key}`, text: t("tm_name_all") });
      all.addEventListener("click", () => busy(all, message, async () => { await nameAll(m); await ctx.reload(); after(); }));
      const open = m.team.rubbers.filter((r) => r.status === "waiting");
      return el("section", { class: "team-match", dataset: { key: m.key } },
        el("h4", {}, el("bdi", { text: nameOf(tour, m.players[0]) }), " v ", el("bdi", { text: nameOf(tour, m.players[1]) }), ` · ${m.key}`),
        open.length ? all : null,
        el("ul", { class: "lineup-forms" }, open.slice(0, 3).flatMap((r) => m.players.filter((team) => !(r.named || []).includes(team))
          .map((team) => el("li", {}, el("span", { text: `${t("tm_rubber_n", { n: r.rubber })} · ${t(`tm_kind_${r.kind}`)} · ` }),
            rubberForm(m, r, team))))),
        due ? null : rubberList(m, ctxView));
    }));
}

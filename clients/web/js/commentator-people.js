// The commentator's people side (PROTOCOL.md section 12): both players' statistics in this match
// (GET /api/matches/{mid}/stats, read again as the match moves on), in this event
// (GET /api/tournaments/{tid}/stats) and over their career (GET /api/people/{id}), head-to-head
// (GET /api/people/{a}/versus/{b}), and the players' names leading to their profiles. The hub keeps
// all of it (a projection by the keeper, the match's own folded once per version); this module only
// reads, at most once a second for the match and every 30 s (or when the match ends) for the rest.
import { t } from "./i18n.js";
import { getJSON } from "./live.js";
import { el, fill } from "./ui.js";
import { personName, statRows, toProfile } from "./people-view.js";

const MATCH_EVERY_MS = 1000;
const REST_EVERY_MS = 30000;
// the rows the commentator shows, in this order (the profile shows every one)
const ROWS = ["breaks", "break_balls", "dry", "break_fouls", "break_and_runs", "table_runs", "golden_breaks",
  "loss_of_chance", "fouls", "stroke_time", "pot", "safety", "racks", "matches"];

export class PeopleStats {
  /** `onNames()`: the players' people became known (the page links their names again). */
  constructor(onNames = () => {}) {
    this.onNames = onNames;
    this.box = el("section", { class: "card cm-people", id: "people-stats" });
    this.mid = null;
    this.match = null; // the match projection shown
    this.live = null; // GET /api/matches/{mid}/stats
    this.event = null; // GET /api/tournaments/{tid}/stats
    this.career = new Map(); // person -> profile stats
    this.versus = null;
    this.askedVersion = -1;
    this.restAt = 0;
    this.finishedSeen = false;
    this.timer = null;
    setInterval(() => { if (this.match && document.visibilityState !== "hidden") this.schedule(true); }, REST_EVERY_MS);
  }

  schedule(rest = false) {
    if (rest) this.restAt = 0;
    if (this.timer === null) this.timer = setTimeout(() => { this.timer = null; this.refresh(); }, this.askedVersion < 0 ? 0 : MATCH_EVERY_MS);
  }

  /** The person of a player of the match, once the hub has said it (null before). */
  personOf(pid) {
    const p = this.live && (this.live.players || []).find((x) => x.player_id === pid);
    return (p && p.person) || null;
  }

  /** The match shown changed (a new event, or another match on the table). */
  show(match) {
    if (!match) return;
    if (match.id !== this.mid) {
      this.mid = match.id;
      this.live = null; this.event = null; this.versus = null; this.career = new Map();
      this.askedVersion = -1; this.restAt = 0; this.finishedSeen = false;
    }
    const moved = !this.match || match.version !== this.match.version || match.id !== this.match.id;
    this.match = match;
    if (match.version !== this.askedVersion || (match.status === "finished" && !this.finishedSeen)) this.schedule();
    if (moved) this.paint();
  }

  async refresh() {
    const m = this.match;
    if (!m) return;
    const mid = m.id;
    const ended = m.status === "finished" && !this.finishedSeen;
    if (m.version !== this.askedVersion) {
      this.askedVersion = m.version;
      try {
        const live = await getJSON(`/api/matches/${encodeURIComponent(mid)}/stats`);
        if (mid !== this.mid) return;
        const known = (this.live && this.live.players || []).map((p) => p.person).join();
        this.live = live;
        if ((live.players || []).map((p) => p.person).join() !== known) this.onNames();
      } catch (_) { /* the next event asks again */ }
    }
    if (ended || Date.now() - this.restAt > REST_EVERY_MS) {
      this.finishedSeen = this.finishedSeen || m.status === "finished";
      this.restAt = Date.now();
      await this.refreshRest(mid, m);
    }
    this.paint();
  }

  async refreshRest(mid, m) {
    const people = ((this.live && this.live.players) || []).map((p) => p.person).filter(Boolean);
    const asks = [];
    if (m.tournament_id) {
      asks.push(getJSON(`/api/tournaments/${encodeURIComponent(m.tournament_id)}/stats`).then((e) => { if (mid === this.mid) this.event = e; }));
    }
    for (const person of people) {
      asks.push(getJSON(`/api/people/${encodeURIComponent(person)}`).then((p) => { if (mid === this.mid && p.stats) this.career.set(person, p.stats.total); }));
    }
    if (people.length === 2) {
      asks.push(getJSON(`/api/people/${encodeURIComponent(people[0])}/versus/${encodeURIComponent(people[1])}`)
        .then((v) => { if (mid === this.mid) this.versus = v; }));
    }
    await Promise.allSettled(asks);
  }

  /** The players' names in `node` (a scoreline: `.pl[data-player] > .name`) as links to their profiles. */
  linkNames(node) {
    for (const name of node.querySelectorAll("[data-player] > .name")) {
      const person = this.personOf(name.parentElement.dataset.player);
      if (person && !(name.parentElement instanceof HTMLAnchorElement)) name.replaceWith(toProfile(person, name.cloneNode(true)));
    }
  }

  scopeRows(title, scope, summaries, games) {
    const perPlayer = summaries.map((s) => new Map(statRows(s, games).map(([id, label, value]) => [id, [label, value]])));
    const ids = ROWS.filter((id) => perPlayer.some((rows) => rows.has(id)));
    if (!ids.length) return [];
    return [el("tr", { class: "cm-scope", dataset: { scope } }, el("th", { colspan: String(summaries.length + 1), text: title })),
      ids.map((id) => el("tr", { dataset: { scope, stat: id } },
        el("th", { text: (perPlayer.find((r) => r.has(id)).get(id))[0] }),
        perPlayer.map((rows) => el("td", { class: "num", text: rows.has(id) ? rows.get(id)[1] : "–" }))))];
  }

  headToHead(players) {
    const v = this.versus;
    if (!v || players.length !== 2) return null;
    const tot = v.total || {};
    if (!tot.matches) return el("p", { class: "cm-h2h muted", id: "cm-h2h", text: `${t("pp_cm_h2h")}: ${t("pp_cm_first")}` });
    // from the first player of the match's side: the hub answered for the first person asked
    return el("div", { class: "cm-h2h", id: "cm-h2h" },
      el("span", { class: "muted", text: `${t("pp_cm_h2h")}: ` }),
      personName(v.a.name, v.a.id), el("b", { class: "cm-h2h-score", text: ` ${tot.a_wins} – ${tot.b_wins} ` }), personName(v.b.name, v.b.id),
      el("span", { class: "muted", text: ` · ${t("pp_cm_h2h_racks", { ar: tot.a_racks, br: tot.b_racks })}` }));
  }

  paint() {
    const m = this.match;
    if (!m) { this.box.replaceChildren(); return; }
    const players = m.players || [];
    const game = m.discipline ? [m.discipline] : [];
    const statsOf = (list, pid) => { const r = ((list && list.players) || []).find((x) => x.player_id === pid); return r && r.stats && r.stats.total; };
    const match = players.map((p) => statsOf(this.live, p.id));
    const event = players.map((p) => statsOf(this.event, p.id));
    const career = players.map((p) => this.career.get(this.personOf(p.id)));
    document.body.dataset.peopleStats = this.live ? String(this.live.version) : "";
    fill(this.box, el("h3", { class: "section-title", text: t("pp_cm_stats") }),
      this.headToHead(players),
      el("table", { class: "grid cm-people-grid" },
        el("thead", {}, el("tr", {}, el("th", { text: "" }), players.map((p) => el("th", { class: "num" }, personName(p.name, this.personOf(p.id)))))),
        el("tbody", {},
          this.scopeRows(t("pp_cm_match"), "match", match, game),
          m.tournament_id ? this.scopeRows(t("pp_cm_event"), "event", event, game) : null,
          this.scopeRows(t("pp_cm_career"), "career", career, game))));
  }
}

// The overlay's statistics line (`?line=1`, PROTOCOL.md section 12): between racks (the rack not
// broken yet after one was won, or the match over), each player's line in this match (breaks, dry
// breaks, runs, fouls) under the score. Read from GET /api/matches/{id}/stats once per version of
// the match shown between racks (the hub folds a match once per version); nothing during a rack.
import { getJSON } from "./live.js";
import { el } from "./ui.js";
import { statsLine } from "./people-view.js";

/** Between racks: a rack is over and the next is not broken yet, or the match is finished. */
export function betweenRacks(m) {
  if (!m) return false;
  if (m.status === "finished") return true;
  const r = m.rack || {};
  return m.status === "live" && (m.racks || []).length > 0 && r.phase === "break" && !r.pending;
}

export class StatsLines {
  constructor(onChange) {
    this.onChange = onChange;
    this.key = ""; // "<match id>@<version>" of the lines held
    this.asked = "";
    this.lines = new Map(); // player id -> stats summary
  }

  /** The lines' nodes for `m` (null during a rack, or until the hub answered). */
  nodes(m) {
    if (!betweenRacks(m)) { document.body.dataset.statsLine = ""; return null; }
    const key = `${m.id}@${m.version}`;
    if (key !== this.key && key !== this.asked) this.fetch(m, key);
    if (!this.key.startsWith(`${m.id}@`) || !this.lines.size) return null;
    document.body.dataset.statsLine = this.key;
    return el("div", { class: "plines", id: "stat-lines" }, (m.players || []).map((p) => el("div", { class: "pline", dataset: { player: p.id } },
      el("bdi", { class: "pl-name", text: p.name }), el("span", { class: "pl-text", text: statsLine(this.lines.get(p.id)) }))));
  }

  async fetch(m, key) {
    this.asked = key;
    try {
      const answer = await getJSON(`/api/matches/${encodeURIComponent(m.id)}/stats`);
      if (this.asked !== key) return;
      this.lines = new Map((answer.players || []).map((p) => [p.player_id, p.stats && p.stats.total]));
      this.key = key;
      this.onChange();
    } catch (_) { this.asked = ""; }
  }
}

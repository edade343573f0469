// Commentator: /commentator/{match_id} — live stroke log with verdicts, balls, stats, racks.
import { t, tc, onLangChange } from "./i18n.js";
import { Watch, getJSON } from "./live.js";
import {
  el, fill, pathId, header, setConn, scoreline, ball, bihText, paintShotClock, formatLabel,
  statusText, resultText, rackHistory, playerName, noteText,
} from "./ui.js";

const mid = pathId();
header("commentator_title");
const app = document.getElementById("app");
const left = el("div", { class: "col" });
const right = el("div", { class: "col" });
const top = el("section", { class: "card", id: "match" }, el("p", { class: "muted", text: t("loading") }));
const statsBox = el("section", { class: "card", id: "stats" });
const historyBox = el("section", { class: "card", id: "history" });
const logBox = el("section", { class: "card", id: "log-box" });
left.append(top, statsBox, historyBox);
right.append(logBox);
app.append(left, right);

let match = null;
let clockNode = null;
const entries = []; // oldest first: {version, kind, at, player, data, last, rack, scores, voided}
let backfilled = false;

const watch = new Watch({ onStatus: (s) => { setConn(s); document.body.dataset.conn = s; } });
watch.subscribe(`match:${mid}`, (data, msg) => {
  if (msg.type === "update" && msg.event) addEntry(msg.event, data);
  else if (msg.type === "snapshot" && !entries.length && !backfilled && data && data.version > 0) backfill(data);
  if (!match || (data && data.version >= match.version)) match = data;
  render();
}, { replay: true });
// With `since: 0` the hub replays the stored events, and sends nothing at all for a match with
// none yet (version 0: nothing to catch up on). Draw the projection from REST meanwhile.
getJSON(`/api/matches/${encodeURIComponent(mid)}`).then((data) => {
  if (!match && data) { match = data; render(); }
}).catch(() => { /* the socket will bring it */ });

function addEntry(ev, proj) {
  if (entries.some((e) => e.version === ev.version)) return;
  if (ev.kind === "undo") {
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i];
      if (!e.voided && e.kind !== "undo" && e.kind !== "match_time_expired") { e.voided = true; break; }
    }
  }
  const last = proj && proj.last && proj.last.version === ev.version ? proj.last : null;
  entries.push({
    version: ev.version, kind: ev.kind, at: ev.at, data: ev.data || {}, voided: !!ev.voided, last,
    player: (ev.data && ev.data.player) || (last && last.player) || null,
    rack: proj && proj.rack ? proj.rack.number : null,
    scores: proj ? (proj.players || []).map((p) => p.score) : null,
    names: proj ? (proj.players || []).map((p) => p.name) : null,
  });
  entries.sort((a, b) => a.version - b.version);
}

async function backfill(proj) {
  // The hub no longer keeps the replay: list the stored events without their verdicts.
  backfilled = true;
  try {
    const { events } = await getJSON(`/api/matches/${encodeURIComponent(mid)}/events?since=0`);
    for (const ev of events || []) {
      if (!entries.some((e) => e.version === ev.version)) {
        entries.push({ version: ev.version, kind: ev.kind, at: ev.at, data: ev.data || {}, voided: !!ev.voided,
          last: proj.last && proj.last.version === ev.version ? proj.last : null,
          player: (ev.data && ev.data.player) || null, rack: null, scores: null });
      }
    }
    entries.sort((a, b) => a.version - b.version);
    render();
  } catch (_) { /* the live log still works */ }
}

function strokeSummary(e) {
  const d = e.data || {};
  const bits = [];
  if (e.kind === "shot") {
    if ("first_contact" in d) bits.push(d.first_contact === null ? t("no_hit") : t("first_hit", { n: d.first_contact }));
    if (d.pocketed && d.pocketed.length) bits.push(t("potted", { list: d.pocketed.join(", ") }));
    if (d.off_table && d.off_table.length) bits.push(t("off", { list: d.off_table.join(", ") }));
    if (d.cue_ball && d.cue_ball !== "table") bits.push(`${t("cue_ball")}: ${t(`cue_${d.cue_ball}`)}`);
    // Stored strokes may carry both counts, zero when they do not apply: show the discipline's own.
    const gn = match && match.discipline === "golden_nine";
    if (gn && d.break_crossings > 0) bits.push(`${t("break_crossings")} ${d.break_crossings}`);
    if (!gn && d.break_rails > 0) bits.push(`${t("break_rails")} ${d.break_rails}`);
    if (d.push_out) bits.push(t("push_out"));
    if (d.snooker) bits.push(t("snooker"));
    if (d.rail_safety) bits.push(t("rail_safety"));
  } else if (e.kind === "decision") bits.push(tc("o", d.choice));
  else if (e.kind === "penalty") bits.push(tc("pen", d.type));
  else if (e.kind === "foul") bits.push(tc("f", d.reason));
  else if (e.kind === "concede") bits.push(t(`scope_${d.scope}`, {}, d.scope || ""));
  else if (e.kind === "start" && d.breaker) bits.push(t("breaks_first", { name: playerName(match, d.breaker) }));
  return bits.join(" · ");
}

function verdict(e) {
  const l = e.last;
  if (!l) return null;
  const box = el("div", { class: "verdict" });
  if (l.foul || (l.fouls && l.fouls.length)) {
    box.append(el("span", { class: "badge foul", text: t("foul") }), " ",
      el("span", { class: "fouls", text: (l.fouls || []).map((f) => tc("f", f)).join(", ") }));
  } else if (e.kind === "shot") {
    box.append(el("span", { class: "badge ok", text: t("legal") }));
  }
  for (const n of l.notes || []) box.append(el("div", { class: "note", text: noteText(match, n) }));
  return box;
}

function render() {
  if (!match) return;
  document.body.dataset.version = String(match.version);
  const r = match.rack || {};
  clockNode = el("span", { class: "shotclock", id: "shot-clock" });
  const res = resultText(match);
  fill(top,
    el("div", { class: "meta muted", text: [tc("d", match.discipline), formatLabel(match)].filter(Boolean).join(" · ") }),
    scoreline(match),
    el("div", { class: "badges" },
      el("span", { class: "badge", id: "phase", text: statusText(match) }),
      r.ball_in_hand && match.status === "live" ? el("span", { class: "badge bih", id: "bih", text: bihText(r) }) : null,
      r.pending ? el("span", { class: "badge", text: `${t("decision_for", { name: playerName(match, r.pending.player) })}: ${(r.pending.options || []).map((o) => tc("o", o)).join(" / ")}` }) : null,
      el("span", { class: "spacer" }), clockNode),
    res ? el("div", { class: "result", text: res }) : null,
    r.on_table ? el("div", { class: "ontable", id: "on-table" }, el("div", { class: "section-title", text: t("balls_on_table") }),
      el("span", { class: "balls" }, r.on_table.map((n) => ball(n)))) : null);
  paintShotClock(clockNode, (match.clock || {}).shot);

  const statKeys = ["break_and_runs", "table_runs", "golden_breaks", "fouls"];
  if (match.discipline === "golden_nine") statKeys.push("loss_of_chance");
  fill(statsBox, el("h3", { class: "section-title", text: t("stats") }),
    el("table", { class: "grid" },
      el("thead", {}, el("tr", {}, el("th", { text: "" }), (match.players || []).map((p) => el("th", { class: "num", text: p.name })))),
      el("tbody", {},
        statKeys.map((k) => el("tr", {}, el("th", { text: t(`st_${k}`) }),
          (match.players || []).map((p) => el("td", { class: "num", text: String(((p.stats || {})[k]) ?? 0) })))),
        el("tr", {}, el("th", { text: t("fouls_in_rack") }), (match.players || []).map((p) => el("td", { class: "num", text: String(p.fouls_in_rack ?? 0) }))),
        el("tr", {}, el("th", { text: t("warnings") }), (match.players || []).map((p) => el("td", { class: "num", text: String(p.warnings ?? 0) }))))));

  fill(historyBox, el("h3", { class: "section-title", text: t("rack_history") }), rackHistory(match));

  fill(logBox, el("h3", { class: "section-title", text: t("stroke_log") }),
    entries.length ? el("ol", { class: "strokes", id: "strokes" }, entries.slice().reverse().map((e) =>
      el("li", { class: `${e.voided ? "voided" : ""} ${e.last && e.last.foul ? "is-foul" : ""}`, dataset: { version: e.version } },
        el("div", { class: "line1" },
          el("span", { class: "v muted", text: `#${e.version}` }),
          e.rack ? el("span", { class: "muted", text: t("rack_n", { n: e.rack }) }) : null,
          el("span", { class: "kind", text: tc("k", e.kind) }),
          e.player ? el("span", { class: "who", text: playerName(match, e.player) }) : null,
          e.voided ? el("span", { class: "badge", text: t("voided") }) : null,
          el("span", { class: "spacer" }),
          e.scores ? el("span", { class: "sc", text: e.scores.join(" : ") }) : null),
        el("div", { class: "line2", text: strokeSummary(e) }),
        verdict(e))))
      : el("p", { class: "muted", text: t("nothing_yet") }));
}

setInterval(() => { if (match && clockNode) paintShotClock(clockNode, (match.clock || {}).shot); }, 200);
onLangChange(render);

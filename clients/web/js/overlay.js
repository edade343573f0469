// Stream overlay: /overlay/{table_id} — a transparent score bug for OBS (a browser source).
// Options in the URL, since a browser source cannot be clicked:
//   ?lang=en|zh-CN
//   ?position=bottom-left (default) | bottom-right | bottom-center | top-left | top-right | top-center
//   ?scale=1.5            (0.5 to 4; 1 follows the source's width)
//   ?title=Final          (a line above the score; "auto": the tournament and table names)
//   ?line=1               (between racks, under the score, each player's line in this match: breaks,
//                          dry breaks, runs, fouls; PROTOCOL.md section 12, GET /api/matches/{id}/stats)
import { t, tc, langSwitch, onLangChange } from "./i18n.js";
import { Watch } from "./live.js";
import { el, fill, pathId, bihText, paintShotClock, formatLabel, matchNames, drawText, membersLine } from "./ui.js";
import { inPoints, racksScored } from "./disciplines.js";
import { StatsLines } from "./overlay-line.js";

const tableId = pathId();
const params = new URLSearchParams(location.search);
const POSITIONS = ["bottom-left", "bottom-right", "bottom-center", "top-left", "top-right", "top-center"];
const position = POSITIONS.includes(params.get("position")) ? params.get("position") : "bottom-left";
const scale = Math.min(4, Math.max(0.5, Number(params.get("scale")) || 1));
const titleParam = (params.get("title") || "").slice(0, 80);
const statsLines = params.get("line") === "1" ? new StatsLines(() => render()) : null;

const app = document.getElementById("app");
const bug = el("div", { class: `bug hidden pos-${position}`, id: "bug" });
bug.style.setProperty("--scale", String(scale));
const sw = langSwitch();
sw.classList.add("overlay-switch");
app.append(bug);
document.body.append(sw);

let match = null;
let names = null;
let clockNode = null;
let found = true;

const watch = new Watch({ onStatus: (s) => { if (found) document.body.dataset.conn = s; } });
watch.subscribe(`table:${tableId}`, (data) => {
  if (data && (!match || data.id !== match.id)) {
    names = null;
    matchNames(data).then((n) => { if (match && match.id === data.id) { names = n; render(); } });
  }
  match = data;
  render();
}, { onError: (code) => { if (code === "unknown_channel") notFound(); } });

function notFound() {
  found = false;
  watch.close();
  document.body.dataset.conn = "not-found";
  bug.classList.remove("hidden");
  bug.classList.add("notfound");
  fill(bug, el("div", { class: "rows" }, el("div", { class: "row msg", id: "not-found", text: `${t("not_found")}: ${tableId}` })));
}

/** The line above the score: with "auto", the tournament's and the table's names (each in a <bdi>)
 * and the draw round; else the title given, isolated whole (it may be a name). */
function titleNodes() {
  if (titleParam !== "auto") return titleParam ? [el("bdi", { text: titleParam })] : [];
  const parts = [names && names.tournament, names && names.table].filter(Boolean).map((n) => el("bdi", { text: n }));
  const round = drawText(match, names);
  return [...parts, round].filter(Boolean).flatMap((p, i) => (i ? [" · ", p] : [p]));
}

/** The ball the last stroke went in with as called (a call-shot game), or null. */
function calledBall(m) {
  const last = m && m.last;
  return last && last.called !== undefined && last.called !== null ? last.called : null;
}

function render() {
  if (!found) return;
  if (!match) { bug.classList.add("hidden"); return; }
  bug.classList.remove("hidden");
  document.body.dataset.version = String(match.version);
  const r = match.rack || {};
  const active = (racksScored(match) ? null : r.shooter) || (r.pending && r.pending.player) || null; // by racks: nobody at the table
  const showRacks = inPoints(match);
  const three = (match.players || []).length === 3;
  bug.className = `bug pos-${position} d-${match.discipline} ${showRacks ? "with-racks" : ""} ${three ? "three" : ""}`;
  clockNode = el("div", { class: "shotclock", id: "shot-clock" });
  const title = titleNodes();
  fill(bug,
    title.length ? el("div", { class: "title", id: "bug-title" }, title) : null,
    el("div", { class: "body" },
      el("div", { class: "rows" }, (match.players || []).map((p) => el("div", {
        class: `row ${match.status === "live" && p.id === active ? "at-table" : ""} ${match.winner === p.id ? "winner" : ""}`, dataset: { player: p.id } },
        el("span", { class: "marker" }),
        // The winner's star after the name, outside its isolation (inside, a right-to-left name
        // would put it on the name's left).
        el("span", { class: "nm" }, el("bdi", { class: "name", text: p.name }),
          match.winner === p.id ? el("span", { class: "nm-mark", "aria-hidden": "true", text: "★" }) : null,
          membersLine(p, match.status === "live" ? r.member : null)),
        // Every discipline has the same columns, so the score never lands in a narrow one.
        el("span", { class: "racks", text: showRacks ? String(p.racks_won ?? 0) : p.group ? t(p.group) : "" }),
        el("span", { class: "score", text: String(p.score ?? 0) })))),
      el("div", { class: "side" },
        el("div", { class: "fmt", text: [formatLabel(match), r.number ? t("rack_n", { n: r.number }) : ""].filter(Boolean).join(" · ") }),
        match.status === "live" && r.ball_in_hand ? el("div", { class: "bih", id: "bih", text: bihText(r) }) : null,
        match.status === "live" && calledBall(match) !== null ? el("div", { class: "called", id: "called", text: t("called_n", { n: calledBall(match) }) }) : null,
        match.status === "finished" ? el("div", { class: "fin", text: tc("s", "finished") }) : null,
        clockNode)),
    statsLines ? statsLines.nodes(match) : null);
  paintShotClock(clockNode, (match.clock || {}).shot);
}

setInterval(() => { if (match && clockNode) paintShotClock(clockNode, (match.clock || {}).shot); }, 200);
onLangChange(render);

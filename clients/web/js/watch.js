// Spectator page: /watch/{match_id} — a phone-sized live view of one match.
import { t, tc, onLangChange } from "./i18n.js";
import { Watch } from "./live.js";
import {
  el, fill, pathId, header, setConn, scoreline, ball, bihText, paintShotClock, formatLabel,
  statusText, resultText, lastText, rackHistory,
} from "./ui.js";

const mid = pathId();
header("watch_title");
const app = document.getElementById("app");
const top = el("section", { class: "card", id: "match" }, el("p", { class: "muted", text: t("loading") }));
const history = el("section", { class: "card", id: "history" });
app.append(top, history);

let match = null;
let clockNode = null;

new Watch({ onStatus: (s) => { setConn(s); document.body.dataset.conn = s; } })
  .subscribe(`match:${mid}`, (data) => { match = data; render(); });

function render() {
  if (!match) return;
  document.body.dataset.version = String(match.version);
  document.title = `${(match.players || []).map((p) => p.name).join(" – ")} · cuehub`;
  const r = match.rack || {};
  clockNode = el("span", { class: "shotclock", id: "shot-clock" });
  const badges = el("div", { class: "badges" },
    el("span", { class: "badge", id: "phase", text: statusText(match) }),
    r.ball_in_hand && match.status === "live" ? el("span", { class: "badge bih", id: "bih", text: bihText(r) }) : null,
    match.last && match.last.foul && match.status === "live" ? el("span", { class: "badge foul", text: t("foul") }) : null,
    el("span", { class: "spacer" }), clockNode);
  const res = resultText(match);
  fill(top,
    el("div", { class: "meta muted", text: [tc("d", match.discipline), formatLabel(match)].filter(Boolean).join(" · ") }),
    scoreline(match, { compact: true }),
    badges,
    res ? el("div", { class: "result", id: "result", text: res }) : null,
    r.on_table && match.status === "live"
      ? el("div", { class: "ontable" }, el("div", { class: "section-title", text: t("balls_on_table") }), el("span", { class: "balls" }, r.on_table.map((n) => ball(n))))
      : null,
    match.last ? el("div", { class: "last", id: "last" }, el("span", { class: "muted", text: `${t("last_event")}: ` }), lastText(match)) : null);
  fill(history, el("h3", { class: "section-title", text: t("rack_history") }), rackHistory(match));
  paintShotClock(clockNode, (match.clock || {}).shot);
}

setInterval(() => { if (match && clockNode) paintShotClock(clockNode, (match.clock || {}).shot); }, 200);
onLangChange(render);

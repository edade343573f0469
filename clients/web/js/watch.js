// Spectator page: /watch/{match_id} — a phone-sized live view of one match; /watch/table/{table_id}
// follows whatever match is on that table (the next one when it starts).
import { t, onLangChange } from "./i18n.js";
import { Watch } from "./live.js";
import {
  el, fill, pathId, header, setConn, scoreline, ball, bihText, paintShotClock,
  statusText, resultText, lastText, rackHistory, notFoundCard, matchNames, metaText, isolated, playerName,
} from "./ui.js";

const id = pathId();
const followTable = location.pathname.split("/").filter(Boolean)[1] === "table";
header("watch_title");
const app = document.getElementById("app");
const top = el("section", { class: "card", id: "match" }, el("p", { class: "muted", text: t("loading") }));
const history = el("section", { class: "card", id: "history" });
app.append(top, history);

let match = null;
let names = null;
let waiting = false; // following a table that has no match yet
let clockNode = null;
let found = true;

const watch = new Watch({ onStatus: (s) => { if (!found) return; setConn(s); document.body.dataset.conn = s; } });
watch.subscribe(followTable ? `table:${id}` : `match:${id}`, (data) => {
  waiting = !data;
  if (data && (!match || data.id !== match.id)) { names = null; loadNames(data); }
  match = data || match;
  render();
}, { onError: (code) => { if (code === "unknown_channel") notFound(); } });

function loadNames(m) {
  matchNames(m).then((n) => { if (match && match.id === m.id) { names = n; render(); } });
}

function notFound() {
  found = false;
  watch.close();
  fill(app, notFoundCard(followTable ? "no_such_table" : "no_such_match", id));
}

function render() {
  if (!found) return;
  if (!match) {
    fill(top, el("p", { class: "muted", id: "waiting", text: waiting ? t("next_match_soon") : t("loading") }));
    return;
  }
  document.body.dataset.version = String(match.version);
  document.body.dataset.match = match.id;
  document.title = `${(match.players || []).map((p) => p.name).join(" – ")} · cuehub`;
  const r = match.rack || {};
  const live = match.status === "live";
  clockNode = el("span", { class: "shotclock", id: "shot-clock" });
  const badges = el("div", { class: "badges" },
    el("span", { class: `badge status-${match.status}`, id: "phase", text: statusText(match) }),
    r.ball_in_hand && live ? el("span", { class: "badge bih", id: "bih", text: bihText(r) }) : null,
    match.last && match.last.foul && live ? el("span", { class: "badge foul", text: t("foul") }) : null,
    live && match.link && match.link.lost ? el("span", { class: "badge", id: "link-lost", text: t("link_lost_badge") }) : null,
    el("span", { class: "spacer" }), clockNode);
  const res = resultText(match);
  fill(top,
    el("div", { class: "meta muted", id: "meta", text: metaText(match, names) }),
    scoreline(match, { compact: true }),
    badges,
    res ? el("div", { class: "result", id: "result" }, isolated(res, match.winner && playerName(match, match.winner))) : null,
    res && !followTable && match.table_id
      ? el("a", { class: "follow", id: "follow-table", href: `/watch/table/${encodeURIComponent(match.table_id)}` },
        isolated(t("follow_table", { name: (names && names.table) || t("table") }), names && names.table)) : null,
    r.on_table && live
      ? el("div", { class: "ontable" }, el("div", { class: "section-title", text: t("balls_on_table") }), el("span", { class: "balls" }, r.on_table.map((n) => ball(n))))
      : null,
    match.last ? el("div", { class: "last", id: "last" }, el("span", { class: "muted", text: `${t("last_event")}: ` }), lastText(match)) : null);
  fill(history, el("h3", { class: "section-title", text: t("rack_history") }), rackHistory(match));
  paintShotClock(clockNode, (match.clock || {}).shot);
}

setInterval(() => { if (match && clockNode) paintShotClock(clockNode, (match.clock || {}).shot); }, 200);
onLangChange(render);

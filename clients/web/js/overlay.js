// Stream overlay: /overlay/{table_id} — a transparent lower-third score bug for OBS.
// ?lang=en|zh-CN picks the language for a browser source that cannot be clicked.
import { t, tc, langSwitch, onLangChange } from "./i18n.js";
import { Watch } from "./live.js";
import { el, fill, pathId, bihText, paintShotClock, formatLabel } from "./ui.js";

const tableId = pathId();
const app = document.getElementById("app");
const bug = el("div", { class: "bug hidden", id: "bug" });
const sw = langSwitch();
sw.classList.add("overlay-switch");
app.append(bug);
document.body.append(sw);

let match = null;
let clockNode = null;

new Watch({ onStatus: (s) => { document.body.dataset.conn = s; } })
  .subscribe(`table:${tableId}`, (data) => { match = data; render(); });

function render() {
  if (!match) { bug.classList.add("hidden"); return; }
  bug.classList.remove("hidden");
  document.body.dataset.version = String(match.version);
  const r = match.rack || {};
  const active = r.shooter || (r.pending && r.pending.player) || null;
  const showRacks = match.discipline === "golden_nine" || match.discipline === "chase_nine";
  clockNode = el("div", { class: "shotclock", id: "shot-clock" });
  fill(bug,
    el("div", { class: "rows" }, (match.players || []).map((p) => el("div", {
      class: `row ${match.status === "live" && p.id === active ? "at-table" : ""} ${match.winner === p.id ? "winner" : ""}`, dataset: { player: p.id } },
      el("span", { class: "marker" }),
      el("span", { class: "name", text: p.name }),
      showRacks ? el("span", { class: "racks", text: String(p.racks_won ?? 0) }) : null,
      el("span", { class: "score", text: String(p.score ?? 0) })))),
    el("div", { class: "side" },
      el("div", { class: "fmt", text: [formatLabel(match), r.number ? t("rack_n", { n: r.number }) : ""].filter(Boolean).join(" · ") }),
      match.status === "live" && r.ball_in_hand ? el("div", { class: "bih", id: "bih", text: bihText(r) }) : null,
      match.status === "finished" ? el("div", { class: "fin", text: tc("s", "finished") }) : null,
      clockNode));
  paintShotClock(clockNode, (match.clock || {}).shot);
}

setInterval(() => { if (match && clockNode) paintShotClock(clockNode, (match.clock || {}).shot); }, 200);
onLangChange(render);

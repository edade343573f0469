// Venue scoreboard: /board/{tournament_id} — every table of the tournament on one screen.
import { t, tc, onLangChange } from "./i18n.js";
import { Watch } from "./live.js";
import { el, fill, pathId, header, setConn, bihText, paintShotClock, formatLabel, resultText, notFoundCard } from "./ui.js";

const tid = pathId();
header("board_title", [el("span", { class: "tname", id: "tournament-name" })]);
const app = document.getElementById("app");
const grid = el("div", { class: "board", id: "board" });
app.append(grid);

let tournament = null;
const full = new Map(); // table id -> full match projection from the table: channel
const cells = new Map(); // table id -> {node, clock}

let found = true;
const watch = new Watch({ onStatus: (s) => { if (!found) return; setConn(s); document.body.dataset.conn = s; } });

function notFound() {
  found = false;
  watch.close();
  fill(grid, notFoundCard("no_such_tournament", tid));
}

watch.subscribe(`tournament:${tid}`, (data) => {
  tournament = data;
  document.getElementById("tournament-name").textContent = data.name || "";
  document.title = `${data.name || ""} · cuehub`;
  const ids = new Set((data.tables || []).map((tb) => tb.id));
  for (const tb of data.tables || []) {
    if (!full.has(tb.id)) {
      full.set(tb.id, null);
      watch.subscribe(`table:${tb.id}`, (m) => { full.set(tb.id, m); renderCell(tb.id); });
    }
  }
  for (const id of [...full.keys()]) {
    if (!ids.has(id)) { full.delete(id); watch.unsubscribe(`table:${id}`); }
  }
  render();
}, { onError: (code) => { if (code === "unknown_channel") notFound(); } });

function layout(n) {
  const cols = n <= 1 ? 1 : n <= 2 ? 2 : n <= 3 ? 3 : n <= 4 ? 2 : n <= 6 ? 3 : n <= 8 ? 4 : n <= 9 ? 3 : 4;
  return { cols, rows: Math.max(1, Math.ceil(n / cols)) };
}

function render() {
  if (!found) return;
  const tables = (tournament && tournament.tables) || [];
  const { cols, rows } = layout(tables.length);
  grid.style.setProperty("--cols", cols);
  grid.style.setProperty("--rows", rows);
  if (!tables.length) {
    fill(grid, el("div", { class: "empty", text: t("no_live") }));
    cells.clear();
    return;
  }
  const keep = new Set();
  const nodes = tables.map((tb) => {
    keep.add(tb.id);
    let c = cells.get(tb.id);
    if (!c) { c = { node: el("article", { class: "cell", dataset: { table: tb.id } }), clock: null }; cells.set(tb.id, c); }
    return c.node;
  });
  for (const id of [...cells.keys()]) if (!keep.has(id)) cells.delete(id);
  fill(grid, nodes);
  for (const tb of tables) renderCell(tb.id);
}

/** The match to draw for a table: the full projection when it is the same match. */
function matchFor(tb) {
  const short = tb.match;
  const f = full.get(tb.id);
  if (f && (!short || f.id === short.id)) {
    if (short && typeof short.version === "number" && typeof f.version === "number" && short.version > f.version) {
      return { ...f, ...short, rack: { ...f.rack, ...short.rack } };
    }
    return f;
  }
  return short;
}

function renderCell(tableId) {
  const c = cells.get(tableId);
  if (!c || !tournament) return;
  const tb = (tournament.tables || []).find((x) => x.id === tableId);
  if (!tb) return;
  const m = matchFor(tb);
  const node = c.node;
  const head = el("div", { class: "cell-head" },
    el("span", { class: "tbl", text: tb.name }),
    m ? el("span", { class: "fmt", text: [tc("d", m.discipline), formatLabel(m), m.rack && m.rack.number ? t("rack_n", { n: m.rack.number }) : ""].filter(Boolean).join(" · ") }) : null);
  if (!m) {
    c.clock = null;
    fill(node, head, el("div", { class: "cell-empty", text: t("no_match") }));
    node.className = "cell idle";
    return;
  }
  const r = m.rack || {};
  const active = r.shooter || (r.pending && r.pending.player) || null;
  const showRacks = m.discipline === "golden_nine" || m.discipline === "chase_nine";
  const players = el("div", { class: `players n${(m.players || []).length}` }, (m.players || []).map((p) => {
    const at = m.status === "live" && p.id === active;
    return el("div", { class: `pl-row ${at ? "at-table" : ""} ${m.winner === p.id ? "winner" : ""}`, dataset: { player: p.id } },
      el("span", { class: "marker", text: at ? "▶" : "" }),
      el("span", { class: "name", text: p.name }),
      showRacks ? el("span", { class: "racks", text: String(p.racks_won ?? 0) })
        : p.group ? el("span", { class: `grp ${p.group}`, text: t(p.group) }) : null,
      el("span", { class: "score", text: String(p.score ?? 0) }));
  }));
  const foot = el("div", { class: "cell-foot" });
  if (m.status === "finished") foot.append(el("span", { class: "status done", text: resultText(m) }));
  else if (m.status === "scheduled") foot.append(el("span", { class: "status", text: tc("s", "scheduled") }));
  else {
    if (r.ball_in_hand) foot.append(el("span", { class: "badge bih", text: bihText(r) }));
    if (r.phase === "break") foot.append(el("span", { class: "status", text: t("p_break") }));
    if (r.pending) foot.append(el("span", { class: "status", text: tc("p", "decision") }));
    if (m.last && m.last.foul) foot.append(el("span", { class: "badge foul", text: t("foul") }));
    if (m.link && m.link.lost) foot.append(el("span", { class: "badge linklost", text: t("link_lost_badge") }));
  }
  foot.append(el("span", { class: "spacer" }));
  const clockNode = el("span", { class: "shotclock" });
  foot.append(clockNode);
  c.clock = { node: clockNode, get: () => (m.clock || {}).shot };
  node.className = `cell ${m.status}`;
  fill(node, head, players, foot);
  paintShotClock(clockNode, (m.clock || {}).shot);
}

setInterval(() => {
  for (const c of cells.values()) if (c.clock) paintShotClock(c.clock.node, c.clock.get());
}, 200);

onLangChange(render);

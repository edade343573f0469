// Every tablet of every table on the desk's tables view (PROTOCOL.md section 16): online or not and
// since when, read every 1.5 s (GET /api/tournaments/{tid}/tablets), so a tablet that drops off shows
// within 5 s; a table that has had tablets and has none online now is marked. The boxes are filled
// in place (a rename being typed is not repainted away).
import { t } from "./i18n.js";
import { el, fill } from "./ui.js";
import { api } from "./desk-api.js";

const enc = encodeURIComponent;
export const LINKS_POLL_MS = 1500;

function clock(ms) {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

function ago(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? t("dk_tb_secs", { n: s }) : t("dk_tb_mins", { n: Math.floor(s / 60) });
}

/** A poller of the tournament's tablets; `box(tableId)` is the node a table row shows them in. */
export function tabletLinks(tid) {
  let last = null; // the latest answer
  let timer = null;
  const boxes = new Map(); // table id -> node

  function paintBox(tableId) {
    const node = boxes.get(tableId);
    const row = node && node.closest(".table-row");
    const table = last && last.tables.find((x) => x.id === tableId);
    if (!node || !table) return;
    if (row) row.classList.toggle("tablet-dropped", table.dropped);
    node.dataset.dropped = table.dropped ? "yes" : "no";
    fill(node,
      table.dropped ? el("strong", { class: "tb-dropped", text: t("dk_tb_dropped") }) : null,
      table.tablets.length ? el("ul", { class: "tb-list" }, table.tablets.map((tb, i) => el("li", {
        class: `tb ${tb.online ? "on" : "off"}`, dataset: { tablet: tb.id, online: tb.online ? "yes" : "no" } },
      el("span", { class: "tb-dot", "aria-hidden": "true" }),
      el("span", { class: "tb-name", text: t("dk_tb_name", { n: i + 1 }) }), " ",
      el("span", { class: "tb-state", text: t(tb.online ? "dk_tb_online" : "dk_tb_offline",
        { time: clock(tb.since), ago: ago(last.server_time - tb.since) }) }))))
        : el("span", { class: "muted small", text: t("dk_tb_none") }));
  }

  async function poll() {
    try {
      last = await api("GET", `/api/tournaments/${enc(tid)}/tablets`);
      for (const id of boxes.keys()) paintBox(id);
    } catch (_) { /* the next poll tries again */ }
  }

  return {
    box(tableId) {
      const node = el("div", { class: "t-links", dataset: { links: tableId } });
      boxes.set(tableId, node);
      queueMicrotask(() => paintBox(tableId));
      return node;
    },
    start() { if (!timer) { poll(); timer = setInterval(poll, LINKS_POLL_MS); } },
    stop() { clearInterval(timer); timer = null; boxes.clear(); },
  };
}

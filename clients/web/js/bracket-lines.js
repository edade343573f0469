// What makes the bracket page's columns read as a bracket (clients/web/js/bracket-draw.js draws
// them): the connector lines from each match to the match its winner goes to (an SVG behind the
// cards of each bracket, redrawn after every render and resize), the round tabs (role="tab": a
// tab scrolls its round into view, and shows which round is in view), the scroll cue at the edge a
// round is hidden behind, and folding a round by its title.
const SVG = "http://www.w3.org/2000/svg";

/** Lines of one bracket's canvas: winner_to links between cards that are both shown, and the
 * grand final to its reset. Each path names the round it leads into (data-round). */
export function drawLines(canvas, byKey) {
  const old = canvas.querySelector(":scope > svg.lines");
  if (old) old.remove();
  const cards = new Map();
  for (const c of canvas.querySelectorAll(".round:not(.folded) .bm")) cards.set(c.dataset.key, c);
  if (!cards.size) return 0;
  const base = canvas.getBoundingClientRect();
  const box = new Map();
  for (const [key, c] of cards) {
    const r = c.getBoundingClientRect();
    box.set(key, { l: r.left - base.left, r: r.right - base.left, y: (r.top + r.bottom) / 2 - base.top });
  }
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "lines");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("width", String(canvas.scrollWidth));
  svg.setAttribute("height", String(canvas.scrollHeight));
  const links = [];
  for (const key of cards.keys()) {
    const m = byKey.get(key);
    if (m && m.winner_to && cards.has(m.winner_to)) links.push([m, m.winner_to]);
  }
  const gf = byKey.get("GF");
  if (gf && cards.has("GF") && cards.has("GF2") && gf.winner_to !== "GF2") links.push([gf, "GF2"]);
  for (const [m, to] of links) {
    const a = box.get(m.key);
    const b = box.get(to);
    if (b.l <= a.r) continue; // not side by side (a narrow screen stacks nothing, but be safe)
    const mid = Math.round(a.r + (b.l - a.r) / 2);
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", `M${Math.round(a.r)} ${Math.round(a.y)}H${mid}V${Math.round(b.y)}H${Math.round(b.l)}`);
    const decided = m.status === "finished" || m.status === "walkover" || m.status === "bye";
    path.setAttribute("class", `conn${decided ? " done" : ""}`);
    path.dataset.from = m.key;
    path.dataset.to = to;
    path.dataset.round = (byKey.get(to) || {}).round || "";
    svg.append(path);
  }
  canvas.prepend(svg);
  return links.length;
}

function columns(scroller) { return [...scroller.querySelectorAll(".round")]; }

/** The round whose column is at the scroller's left edge (the one a phone shows). */
function inView(scroller) {
  const cols = columns(scroller);
  if (!cols.length) return null;
  const x = scroller.scrollLeft + 4;
  const first = cols[0].offsetLeft;
  let best = cols[0];
  for (const c of cols) if (c.offsetLeft - first <= x) best = c;
  // scrolled to the end: the last column the fan can see whole
  if (scroller.scrollLeft + scroller.clientWidth >= scroller.scrollWidth - 2) {
    const right = scroller.scrollLeft + scroller.clientWidth;
    const whole = cols.filter((c) => c.offsetLeft - first >= scroller.scrollLeft - 2 && c.offsetLeft - first + c.offsetWidth <= right + 2);
    if (whole.length && !whole.includes(best)) best = whole[0];
  }
  return best;
}

/** Is the column wholly inside the scroller's box? */
function whole(scroller, col) {
  const a = scroller.getBoundingClientRect();
  const b = col.getBoundingClientRect();
  return b.left >= a.left - 2 && b.right <= a.right + 2;
}

function markTabs(section, scroller) {
  // the round whose tab was chosen, while it stays in view; else the one at the left edge
  const wanted = scroller.dataset.want && scroller.querySelector(`.round[data-round='${CSS.escape(scroller.dataset.want)}']`);
  const settling = performance.now() - (scroller.wantAt || 0) < 1500; // a smooth scroll on its way there
  if (scroller.dataset.want && !(wanted && (settling || whole(scroller, wanted)))) delete scroller.dataset.want;
  const cur = scroller.dataset.want ? wanted : inView(scroller);
  const wrap = scroller.parentElement;
  wrap.dataset.more = scroller.scrollLeft + scroller.clientWidth < scroller.scrollWidth - 4 ? "right" : "";
  wrap.dataset.less = scroller.scrollLeft > 4 ? "left" : "";
  section.dataset.overflow = scroller.scrollWidth > scroller.clientWidth + 2 ? "yes" : "no";
  for (const tab of section.querySelectorAll("[role='tab']")) {
    const on = cur && tab.dataset.round === cur.dataset.round;
    tab.setAttribute("aria-selected", on ? "true" : "false");
    tab.tabIndex = on ? 0 : -1;
  }
  const sel = section.querySelector("[role='tab'][aria-selected='true']");
  if (sel && sel.parentElement.scrollWidth > sel.parentElement.clientWidth) {
    const bar = sel.parentElement;
    if (sel.offsetLeft < bar.scrollLeft || sel.offsetLeft + sel.offsetWidth > bar.scrollLeft + bar.clientWidth) {
      bar.scrollLeft = sel.offsetLeft - 8;
    }
  }
}

export function scrollToRound(scroller, round, smooth = true) {
  const cols = columns(scroller);
  const col = cols.find((c) => c.dataset.round === round);
  if (!col) return;
  scroller.scrollTo({ left: col.offsetLeft - cols[0].offsetLeft, behavior: smooth ? "smooth" : "auto" });
}

/**
 * Wires one rendered body: lines, tabs, cue, folding. `view.folded` / `view.opened` keep the
 * fan's choices across renders; `rerender()` draws again after one.
 */
export function wireBracket(root, byKey, view, rerender) {
  let lines = 0;
  for (const section of root.querySelectorAll(".br-section")) {
    const scroller = section.querySelector(".rounds");
    if (!scroller) continue;
    lines += drawLines(scroller.querySelector(".rounds-canvas"), byKey);
    const tabs = [...section.querySelectorAll("[role='tab']")];
    for (const tab of tabs) {
      tab.addEventListener("click", () => {
        const key = `${tab.dataset.section}:${tab.dataset.round}`;
        const col = scroller.querySelector(`.round[data-round='${CSS.escape(tab.dataset.round)}']`);
        if (col && col.classList.contains("folded")) {
          view.folded.delete(key); view.opened.add(key); view.goto = { scroll: tab.dataset.section, round: tab.dataset.round };
          rerender();
          return;
        }
        scroller.dataset.want = tab.dataset.round;
        scroller.wantAt = performance.now();
        scrollToRound(scroller, tab.dataset.round);
        markTabs(section, scroller);
      });
      tab.addEventListener("keydown", (ev) => {
        const i = tabs.indexOf(tab);
        const j = ev.key === "ArrowRight" ? i + 1 : ev.key === "ArrowLeft" ? i - 1 : ev.key === "Home" ? 0 : ev.key === "End" ? tabs.length - 1 : -1;
        if (j < 0 || j >= tabs.length || j === i) return;
        ev.preventDefault();
        tabs[j].focus();
        tabs[j].click();
      });
    }
    let queued = false;
    scroller.addEventListener("scroll", () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => { queued = false; markTabs(section, scroller); });
    }, { passive: true });
    const cue = section.querySelector(".scroll-cue");
    if (cue) {
      cue.addEventListener("click", () => {
        const cols = columns(scroller);
        const cur = inView(scroller);
        const next = cols[cols.indexOf(cur) + 1];
        if (next) scrollToRound(scroller, next.dataset.round);
      });
    }
    for (const title of section.querySelectorAll(".round-title[data-fold]")) {
      title.addEventListener("click", () => {
        const key = title.dataset.fold;
        const folded = title.getAttribute("aria-expanded") === "false";
        if (folded) { view.folded.delete(key); view.opened.add(key); } else { view.opened.delete(key); view.folded.add(key); }
        rerender();
      });
    }
    markTabs(section, scroller);
  }
  return lines;
}

/** After a render: mark the tabs again (the scroll positions were restored by the page). */
export function refreshTabs(root) {
  for (const section of root.querySelectorAll(".br-section")) {
    const scroller = section.querySelector(".rounds");
    if (scroller) markTabs(section, scroller);
  }
}

// What makes the bracket page's columns read as a bracket (clients/web/js/bracket-draw.js draws
// them): the connector lines from each match to the match its winner goes to (an SVG behind the
// cards of each bracket, redrawn after every render and resize), the round tabs (role="tab": a
// tab scrolls its round into view, and shows which round is in view), the scroll cue at the edge a
// round is hidden behind, and folding a round by its title.
const SVG = "http://www.w3.org/2000/svg";

/** Where the lines of one bracket's canvas go (layout reads only): winner_to links between cards
 * that are both shown, and the grand final to its reset. */
function measureLines(canvas, byKey) {
  const cards = new Map();
  for (const c of canvas.querySelectorAll(".round:not(.folded) .bm")) cards.set(c.dataset.key, c);
  const plan = { canvas, width: 0, height: 0, paths: [] };
  if (!cards.size) return plan;
  const base = canvas.getBoundingClientRect();
  const box = new Map();
  for (const [key, c] of cards) {
    const r = c.getBoundingClientRect();
    box.set(key, { l: r.left - base.left, r: r.right - base.left, y: (r.top + r.bottom) / 2 - base.top });
  }
  plan.width = canvas.scrollWidth;
  plan.height = canvas.scrollHeight;
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
    if (b.l <= a.r) continue; // not side by side
    const mid = Math.round(a.r + (b.l - a.r) / 2);
    const decided = m.status === "finished" || m.status === "walkover" || m.status === "bye";
    plan.paths.push({ d: `M${Math.round(a.r)} ${Math.round(a.y)}H${mid}V${Math.round(b.y)}H${Math.round(b.l)}`,
      cls: `conn${decided ? " done" : ""}`, from: m.key, to, round: (byKey.get(to) || {}).round || "" });
  }
  return plan;
}

/** The SVG of a measured canvas (DOM writes only); each path names the round it leads into. */
function paintLines(plan) {
  const old = plan.canvas.querySelector(":scope > svg.lines");
  if (old) old.remove();
  if (!plan.paths.length) return 0;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "lines");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("width", String(plan.width));
  svg.setAttribute("height", String(plan.height));
  for (const p of plan.paths) {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", p.d);
    path.setAttribute("class", p.cls);
    path.dataset.from = p.from;
    path.dataset.to = p.to;
    path.dataset.round = p.round;
    svg.append(path);
  }
  plan.canvas.prepend(svg);
  return plan.paths.length;
}

/** Lines of every canvas given: all measured first, then all painted (one layout, not one each). */
export function drawLines(canvases, byKey) {
  const plans = [...canvases].map((c) => measureLines(c, byKey));
  return plans.reduce((n, plan) => n + paintLines(plan), 0);
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

/** What the tabs and the cue of a bracket should show (layout reads only). */
function readTabs(section, scroller) {
  // the round whose tab was chosen, while it stays in view; else the one at the left edge
  const wanted = scroller.dataset.want && scroller.querySelector(`.round[data-round='${CSS.escape(scroller.dataset.want)}']`);
  const settling = performance.now() - (scroller.wantAt || 0) < 1500; // a smooth scroll on its way there
  const keep = Boolean(scroller.dataset.want && wanted && (settling || whole(scroller, wanted)));
  const cur = keep ? wanted : inView(scroller);
  const tab = cur && section.querySelector(`[role='tab'][data-round='${CSS.escape(cur.dataset.round)}']`);
  const bar = tab && tab.parentElement;
  let barLeft = null;
  if (bar && bar.scrollWidth > bar.clientWidth) {
    // the tab's place in the bar's own scrolled content (offsetLeft counts from the bar's positioned
    // ancestor, not from the bar)
    const at = tab.getBoundingClientRect().left - bar.getBoundingClientRect().left + bar.scrollLeft;
    if (at < bar.scrollLeft || at + tab.offsetWidth > bar.scrollLeft + bar.clientWidth) barLeft = Math.max(0, at - 8);
  }
  return { section, scroller, keep, round: cur ? cur.dataset.round : null, bar, barLeft,
    more: scroller.scrollLeft + scroller.clientWidth < scroller.scrollWidth - 4 ? "right" : "",
    less: scroller.scrollLeft > 4 ? "left" : "",
    overflow: scroller.scrollWidth > scroller.clientWidth + 2 ? "yes" : "no" };
}

function writeTabs(st) {
  if (!st.keep) delete st.scroller.dataset.want;
  const wrap = st.scroller.parentElement;
  wrap.dataset.more = st.more;
  wrap.dataset.less = st.less;
  st.section.dataset.overflow = st.overflow;
  for (const tab of st.section.querySelectorAll("[role='tab']")) {
    const on = tab.dataset.round === st.round;
    tab.setAttribute("aria-selected", on ? "true" : "false");
    tab.tabIndex = on ? 0 : -1;
  }
  if (st.barLeft !== null) st.bar.scrollLeft = st.barLeft;
}

function markTabs(section, scroller) { writeTabs(readTabs(section, scroller)); }

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
  const lines = drawLines(root.querySelectorAll(".rounds-canvas"), byKey);
  const wired = [];
  for (const section of root.querySelectorAll(".br-section")) {
    const scroller = section.querySelector(".rounds");
    if (!scroller) continue;
    wired.push([section, scroller]);
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
  }
  wired.map(([section, scroller]) => readTabs(section, scroller)).forEach(writeTabs);
  return lines;
}

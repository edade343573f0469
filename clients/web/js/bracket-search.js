// The bracket page's "Find a player": a search box over the projection's players; choosing one
// highlights every match of theirs, scrolls to the next one (their last once they are out) and
// links to their page (/player/{tid}/{pid}). The choice is kept in the URL (?player=pid) so a
// shared link opens highlighted, and it survives every live redraw.
import { t } from "./i18n.js";
import { el, fill, foldName, isolated } from "./ui.js";
import { isMatch, nextMatch, playerMatches } from "./draw-view.js";
import { sectionOf } from "./bracket-draw.js";

const MAX_RESULTS = 8;

/** Players whose name or club holds `query`, both folded by foldName (ui.js: width, case and
 * whitespace, the ideographic space too: "ＹＡＮＧ fan" finds "Yang Fan", "李明" finds "李　明"),
 * or whose seed it is ("#3", "3"); a name that starts with it first, then the seeds' order. */
export function findPlayers(players, query) {
  const q = foldName(query);
  if (!q) return [];
  const hits = [];
  for (const p of players) {
    const name = foldName(p.name);
    const at = name.indexOf(q);
    const club = p.club ? foldName(p.club).indexOf(q) : -1;
    const seed = /^#?\d+$/.test(q) && p.seed === Number(q.replace("#", ""));
    if (at >= 0 || club >= 0 || seed) hits.push({ p, rank: seed ? -1 : at === 0 ? 0 : at > 0 ? 1 : 2 });
  }
  return hits.sort((a, b) => a.rank - b.rank || (a.p.seed ?? 1e9) - (b.p.seed ?? 1e9)).map((h) => h.p);
}

/**
 * new PlayerSearch({tid, getProj, getCtx, onReveal}): `node` is the box; `apply(root)` marks the
 * chosen player's cards after each render; `onReveal(key)` must make that match's card shown
 * (unfold its round) and return it.
 */
export class PlayerSearch {
  constructor({ tid, getProj, getCtx, onReveal }) {
    this.tid = tid;
    this.getProj = getProj;
    this.getCtx = getCtx;
    this.onReveal = onReveal;
    this.selected = new URLSearchParams(location.search).get("player") || null;
    this.pendingScroll = Boolean(this.selected);
    this.input = el("input", { type: "search", id: "player-search", class: "search-input", autocomplete: "off",
      enterkeyhint: "search", "aria-controls": "search-results", "aria-autocomplete": "list" });
    this.results = el("ul", { class: "search-results", id: "search-results", role: "listbox" });
    this.chosen = el("div", { class: "search-chosen hidden", id: "search-chosen", "aria-live": "polite" });
    this.node = el("section", { class: "card br-search", role: "search", id: "br-search" },
      el("label", { class: "search-label", for: "player-search" }, el("span", { class: "sr-only", "data-i18n": "br_find_player" })),
      this.input, this.results, this.chosen);
    this.input.addEventListener("input", () => this.showResults());
    this.input.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter") {
        const first = this.hits()[0];
        if (first) { ev.preventDefault(); this.choose(first.id); }
      } else if (ev.key === "Escape") { this.input.value = ""; this.showResults(); }
    });
    this.relabel();
  }

  relabel() {
    this.input.placeholder = t("br_find_player");
    this.input.setAttribute("aria-label", t("br_find_player"));
    this.node.querySelector(".sr-only").textContent = t("br_find_player");
  }

  hits() { return findPlayers(((this.getProj() || {}).players) || [], this.input.value).slice(0, MAX_RESULTS); }

  showResults() {
    const q = this.input.value;
    const hits = this.hits();
    fill(this.results, q && !hits.length ? el("li", { class: "muted no-hit", text: t("br_no_player", { q }) }) : null,
      hits.map((p) => el("li", { role: "option", "aria-selected": p.id === this.selected ? "true" : "false" },
        el("button", { type: "button", class: "hit", dataset: { player: p.id }, onclick: () => this.choose(p.id) },
          p.seed ? el("span", { class: "seed", text: String(p.seed) }) : null,
          el("bdi", { class: "name", text: p.name }),
          p.club ? el("bdi", { class: "club", text: p.club }) : null))));
  }

  choose(pid) {
    this.selected = pid;
    this.input.value = "";
    fill(this.results);
    const url = new URL(location.href);
    url.searchParams.set("player", pid);
    history.replaceState(null, "", url);
    this.pendingScroll = true;
    this.apply(document.getElementById("bracket"));
  }

  clear() {
    this.selected = null;
    const url = new URL(location.href);
    url.searchParams.delete("player");
    history.replaceState(null, "", url);
    this.apply(document.getElementById("bracket"));
  }

  /** Marks the chosen player's cards (after every render) and, once per choice, scrolls to the next. */
  apply(root) {
    for (const n of root.querySelectorAll(".bm.hl, .round.hl")) n.classList.remove("hl", "hl-next");
    for (const n of root.querySelectorAll(".bm-p.me")) n.classList.remove("me");
    const proj = this.getProj();
    const ctx = this.getCtx();
    const p = this.selected && ctx ? ctx.players.get(this.selected) : null;
    if (!p) { this.chosen.classList.add("hidden"); fill(this.chosen); document.body.dataset.found = ""; return; }
    const nxt = proj && proj.draw ? nextMatch(proj, ctx, p.id) : null;
    const mine = playerMatches(proj, p.id);
    const target = nxt ? nxt.m.key : mine.length ? mine[mine.length - 1].key : null;
    for (const row of root.querySelectorAll(`.bm-p[data-player='${CSS.escape(p.id)}']`)) {
      row.classList.add("me");
      row.closest(".bm").classList.add("hl");
    }
    // a match of theirs in a folded round: the round's strip is marked instead
    for (const m of mine) {
      const c = root.querySelector(`.bm[data-key='${CSS.escape(m.key)}']`);
      if (c && c.offsetParent !== null) continue;
      const col = root.querySelector(`.round.folded[data-section='${CSS.escape(sectionOf(m))}'][data-round='${CSS.escape(m.round)}']`);
      if (col) col.classList.add("hl");
    }
    let card = target ? root.querySelector(`.bm[data-key='${CSS.escape(target)}']`) : null;
    if (card) card.classList.add("hl", "hl-next");
    document.body.dataset.found = p.id;
    fill(this.chosen,
      el("span", { class: "label", text: t("br_showing") }),
      el("bdi", { class: "name", id: "chosen-name", text: p.name }),
      el("span", { class: "muted", id: "chosen-count", text: t("br_n_matches", { n: mine.filter(isMatch).length }) }),
      nxt ? el("span", { class: "chosen-next", id: "chosen-next" }, `${t("pl_next")}: `, isolated(nxt.text, nxt.table)) : null,
      target ? el("button", { type: "button", class: "btn small", id: "goto-next", text: nxt ? t("br_goto_next") : t("br_goto_last"),
        onclick: () => { this.pendingScroll = true; this.apply(root); } }) : null,
      el("a", { class: "btn small primary", id: "player-link", href: `/player/${encodeURIComponent(this.tid)}/${encodeURIComponent(p.id)}`,
        text: t("br_player_page") }),
      el("button", { type: "button", class: "btn small", id: "search-clear", "aria-label": t("br_clear"), text: "×", onclick: () => this.clear() }));
    this.chosen.classList.remove("hidden");
    if (this.pendingScroll && target) {
      this.pendingScroll = false;
      if (!card || card.offsetParent === null) card = this.onReveal(target) || card;
      if (card) card.scrollIntoView({ block: "center", inline: "center", behavior: "auto" });
    }
  }
}

// Step "run": running the event, live (the tournament: channel, desk-tournament.js): every table
// with its match and what comes next, the queue, every match of the draw by round. What the
// organiser can do here: call a ready match now, put it first in the queue, move a called match
// to a free table, send it back to the queue, give a walkover, cancel a match made by hand, pause
// and resume a table, give a table a new token, and correct things (PROTOCOL.md section 9): enter
// a result by hand on a called, live or finished match, and reopen a finished or walkover match
// (its result voided), which the hub allows while nothing fed by that result has started; a
// refusal names the match that has started since. A team match due whose lineups are missing shows
// above the tables with the lineup forms (desk-lineups.js): the desk names them here on the day.
import { t, tc, inParens, lang } from "./i18n.js";
import { el, fill } from "./ui.js";
import { hub } from "./desk-api.js";
import { forgetCodes } from "./desk-codes.js";
import { setupText } from "./desk-setup.js";
import { resultForm } from "./desk-result.js";
import { namesForIds } from "./entries.js";
import { calledEntryOf, isMatch, matchRoundName, raceList } from "./draw-view.js";
import { say, noticeLine, nameOf, busy, errorText, ask, named } from "./desk-ui.js";
import { isNoShow, noShowFlag } from "./desk-noshow.js";
import { lineupsPanel, lineupsSignature } from "./desk-lineups.js";

const enc = encodeURIComponent;

export function runView(ctx) {
  let root = null;
  let open = null; // {kind: "walkover" | "move" | "call" | "result", key, node?} of the chooser being shown
  const rotated = new Map(); // table id -> a new table token, shown on request
  const message = noticeLine("run-message");
  const head = el("div", { class: "run-head", id: "run-head" });
  const tablesBox = el("section", { class: "run-tables", id: "run-tables" });
  const queueBox = el("section", { class: "card run-queue", id: "run-queue" });
  const roundsBox = el("section", { class: "card run-rounds", id: "run-rounds" });
  const lineupsBox = el("div", { class: "run-lineups", id: "run-lineups" }); // team matches due without lineups
  let lineupsShown = null; // what lineupsBox shows: it repaints only when that changed (its choices stay)

  let pending = false;
  let ticker = null;
  let pressed = false;
  let frame = null;
  const release = () => { pressed = false; if (pending && !frame) frame = setTimeout(flush, 50); };
  const flush = () => { frame = null; if (pending && !pressed && root) { pending = false; paint(); } };
  const tour = () => ctx.tournament() || {};
  const draw = () => tour().draw;
  const entries = () => (draw() && draw().matches) || [];
  const entry = (key) => entries().find((m) => m.key === key);
  const tables = () => tour().tables || [];
  // A free table can be given a match whatever it last showed (its last match may be finished).
  const freeTables = (except) => tables().filter((x) => x.status === "free" && x.id !== except);
  const name = (pid) => nameOf(tour(), pid);
  const vs = (m) => (m.players || []).map(name).join(" – ");
  const keyAndNames = (key) => (entry(key) ? `${key}${inParens(vs(entry(key)))}` : key);

  function act(button, work, okText, { self = null, players = tour().players || [], texts = {} } = {}) {
    return busy(button, null, async () => {
      try {
        await work();
      } catch (e) {
        say(message, namesForIds(errorText(e, { self, label: keyAndNames, texts }), { players }), "err");
        return;
      }
      open = null;
      if (okText) say(message, okText, "ok");
      await ctx.reload();
    });
  }

  /** @param {any} label @param {(b: HTMLButtonElement) => void} onClick
   * @param {{cls?: string, action?: string, id?: string}} [options] */
  function button(label, onClick, { cls = "", action, id } = {}) {
    const b = el("button", { class: `btn small ${cls}`.trim(), type: "button", id, dataset: action ? { action } : undefined }, label);
    b.addEventListener("click", () => onClick(b));
    return b;
  }

  // --- choosers -------------------------------------------------------------------------------
  function walkoverChooser(m) {
    return el("div", { class: "chooser", dataset: { chooser: "walkover" } },
      el("span", { class: "muted small", text: t("dk_wo_pick") }),
      (m.players || []).filter((p) => p !== null).map((pid) => button(named(t("dk_wo_to", { name: name(pid) })), async (b) => {
        if (!(await ask(t("dk_wo_confirm", { key: m.key, name: name(pid) })))) return;
        act(b, () => hub.walkover(ctx.tid, m.key, pid), t("dk_wo_done", { key: m.key, name: name(pid) }));
      }, { cls: "danger", action: "walkover-to" })),
      button(t("cancel"), () => { open = null; paint(); }));
  }

  function tableChooser(kind, onPick, except = null) {
    const free = freeTables(except);
    if (!free.length) return el("div", { class: "chooser" }, el("span", { class: "muted small", text: t("dk_no_free_table") }),
      button(t("cancel"), () => { open = null; paint(); }));
    const select = el("select", { class: "table-select", dataset: { select: kind } }, free.map((x) => el("option", { value: x.id, text: x.name })));
    // Live repaints keep what was chosen.
    if (open && open.value && free.some((x) => x.id === open.value)) select.value = open.value;
    select.addEventListener("change", () => { if (open) open.value = select.value; });
    return el("div", { class: "chooser", dataset: { chooser: kind } }, select,
      button(t(kind === "move" ? "dk_move_here" : "dk_call_here"), (b) => onPick(select.value, b), { cls: "primary", action: `${kind}-go` }),
      button(t("cancel"), () => { open = null; paint(); }));
  }

  /** The result form of a match, kept as one node while it is open (see desk-result.js). */
  function resultChooser(key, mid, players, discipline) {
    if (open.node) return open.node;
    open.node = resultForm({
      key, players, discipline,
      onCancel: () => { open = null; paint(); },
      onRefuse: (text) => say(message, text, "err"),
      onSubmit: (body, b) => act(b, () => hub.enterResult(mid, body),
        t("dk_res_done", { key, names: players.map((p) => `${p.name} ${body.score[p.id]}`).join(" : ") }), { self: key, players }),
    });
    const node = open.node; // the match's own format (a race length per round or stage), for the form's checks
    hub.match(mid).then((m) => node.setFormat(m && m.format), () => {});
    return open.node;
  }

  const isOpen = (kind, key) => open && open.kind === kind && open.key === key;
  const toggle = (kind, key) => { open = isOpen(kind, key) ? null : { kind, key }; paint(); };

  // --- tables ---------------------------------------------------------------------------------
  function tableCard(tb) {
    const m = tb.match;
    const e = m && m.draw ? entry(m.draw.key) : null;
    // what the no-show flag reads: the draw match, or the rubber of a team match on this table
    const called = e || (m && m.draw ? calledEntryOf(entries(), m.draw.key, m) : null);
    const key = m && m.draw ? m.draw.key : m ? m.id : null;
    const scheduled = m && m.status === "scheduled";
    const label = m && m.draw ? m.draw.key : t("dk_by_hand");
    const acts = [];
    if (m && scheduled) {
      acts.push(button(t("dk_move"), () => toggle("move", key), { action: "move" }));
      acts.push(button(t("dk_res_enter"), () => toggle("result", key), { action: "result" }));
      if (e) {
        acts.push(button(t("dk_requeue"), (b) => act(b, () => hub.requeue(ctx.tid, e.key), t("dk_requeued", { key: e.key })), { action: "requeue" }));
        acts.push(button(t("dk_walkover"), () => toggle("walkover", key), { action: "walkover", cls: "danger" }));
      } else {
        acts.push(button(t("dk_cancel_match"), async (b) => {
          if (!(await ask(t("dk_cancel_confirm", { names: vs({ players: m.players.map((p) => p.id) }) })))) return;
          act(b, () => hub.cancelMatch(m.id), t("dk_cancelled"));
        }, { action: "cancel", cls: "danger" }));
      }
    } else if (m) { // live, or finished and still shown on its free table: a score typed at the desk
      acts.push(button(t(m.status === "finished" ? "dk_res_correct" : "dk_res_enter"), () => toggle("result", key), { action: "result" }));
    }
    const paused = tb.status === "paused";
    const tableActs = [];
    tableActs.push(button(t(paused ? "dk_resume" : "dk_pause"), (b) => act(b, () => (paused ? hub.resumeTable(tb.id) : hub.pauseTable(tb.id)),
      t(paused ? "dk_resumed" : "dk_paused", { name: tb.name })), { action: paused ? "resume" : "pause" }));
    tableActs.push(button(t("desk_rotate"), async (b) => {
      if (!(await ask(t("desk_rotate_confirm", { name: tb.name })))) return;
      busy(b, message, async () => {
        const out = await hub.rotateToken(tb.id);
        forgetCodes(tb.id);
        rotated.set(tb.id, out.token);
        say(message, t("desk_rotated", { name: tb.name, n: out.closed_sockets ?? 0 }), "ok");
        paint();
      });
    }, { action: "rotate" }));
    const token = rotated.get(tb.id);
    const nextKey = nextFor.get(tb.id);
    const next = nextKey ? entry(nextKey) : null;
    return el("article", { class: `run-table card st-${tb.status}${isNoShow(called, m) ? " no-show" : ""}`, dataset: { table: tb.id, status: tb.status } },
      el("div", { class: "rt-head" },
        el("h3", { class: "rt-name", text: tb.name }),
        el("span", { class: `pill st-${tb.status}`, text: t(`dk_ts_${tb.status}`) })),
      m ? el("div", { class: `rt-match ms-${m.status}`, dataset: { match: m.id, key: key || "" } },
        el("div", { class: "rt-meta muted small" },
          m.draw ? el("span", { class: "rt-key", text: `${m.draw.key}` }) : el("span", { text: t("dk_by_hand") }),
          el("span", { text: ` · ${m.status === "live" && m.rack ? t("rack_n", { n: m.rack.number }) : tc("s", m.status)}` }),
          raceList(m) ? el("span", { class: "rt-race", text: ` · ${t("race_each", { races: raceList(m).join(" – ") })}` }) : null,
          e && e.status === "finished" && (e.withdrawn || []).length
            ? el("span", { class: "rt-withdrew" }, named(` · ${t("withdrew", { name: e.withdrawn.map(name).join(", ") })}`)) : null),
        el("ul", { class: "rt-players" }, (m.players || []).map((p) => el("li", { class: m.winner === p.id ? "won" : "" },
          el("span", { class: "rt-pname", text: p.name }), el("span", { class: "rt-score", text: String(p.score ?? 0) })))),
        m.status !== "scheduled" ? el("a", { class: "small", href: `/watch/${enc(m.id)}`, target: "_blank", rel: "noopener", text: t("dk_watch") }) : null)
        : el("p", { class: "muted rt-empty", text: paused ? t("dk_table_paused_help") : t("dk_table_waiting") }),
      isNoShow(called, m) ? noShowFlag(ctx.tid, called, { name, act, button, match: m }) : null,
      next ? el("p", { class: "rt-next small" }, el("span", { class: "muted", text: t("dk_next_here") }), " ",
        el("strong", { text: next.key }), " ", el("span", {}, named(vs(next)))) : null,
      isOpen("walkover", key) && e ? walkoverChooser(e) : null,
      isOpen("move", key) ? tableChooser("move", (tableId, b) => act(b, () => hub.moveMatch(m.id, tableId),
        t("dk_moved_to", { key: label, name: (tables().find((x) => x.id === tableId) || {}).name || tableId })), tb.id) : null,
      m && isOpen("result", key) ? resultChooser(label, m.id, m.players || [], m.discipline) : null,
      acts.length ? el("div", { class: "rt-actions" }, acts) : null,
      el("div", { class: "rt-actions table-acts" }, tableActs),
      token ? el("details", { class: "new-token" }, el("summary", { text: t("desk_show_token") }), el("code", { class: "token-text", text: token })) : null);
  }

  /** Each table's likely next match: the queue's matches whose players are free (the hub passes
   * over a player still at another table) dealt to the tables in the order they should free up
   * (a free table first, then the live match nearest its end); a table with a match called to it,
   * or paused, takes none. */
  let nextFor = new Map();
  function dealNext(queue) {
    const busyPlayers = new Set(entries().filter((m) => m.status === "called").flatMap((m) => m.players || []));
    // a team match (callable: false) never takes a table as one: its rubbers do, lineups named
    const ready = queue.filter((k) => (entry(k) || {}).callable !== false && !((entry(k) || {}).players || []).some((p) => busyPlayers.has(p)));
    const waiting = tables().filter((tb) => tb.status !== "paused" && !(tb.match && tb.match.status === "scheduled"));
    const left = (tb) => (tb.status === "free" || !tb.match || tb.match.status !== "live" ? -1 : remaining(tb.match));
    waiting.sort((a, b) => left(a) - left(b));
    nextFor = new Map(waiting.slice(0, ready.length).map((tb, i) => [tb.id, ready[i]]));
  }

  /** How much of a live match is left, 0..1, from the draw's format (racks played of N, or the
   * leader's racks of the race). */
  function remaining(m) {
    const f = (draw() && draw().match && draw().match.format) || {};
    const won = (m.players || []).map((p) => Number(p.racks_won ?? p.score ?? 0));
    // each player's own race where the match has one (a handicapped race), else the draw's
    const races = (m.players || []).map((p) => Number(p.race_to || f.race_to || 0));
    if (races.every((r) => r > 0)) return 1 - Math.max(0, ...won.map((n, i) => n / races[i]));
    if (f.racks) return 1 - won.reduce((a, b) => a + b, 0) / f.racks;
    return 1;
  }

  // --- the queue ------------------------------------------------------------------------------
  function queueItem(key, i, queue) {
    const m = entry(key);
    if (!m) return null;
    return el("li", { class: "q-item", dataset: { key } },
      el("div", { class: "q-main" }, el("span", { class: "q-pos", text: String(i + 1) }), el("strong", { class: "q-key", text: key }),
        el("span", { class: "q-names" }, named(vs(m))), el("span", { class: "muted small", text: m.round })),
      el("div", { class: "q-actions" },
        i > 0 ? button(t("dk_first"), (b) => act(b, () => hub.orderQueue(ctx.tid, [key, ...queue.filter((k) => k !== key)]), t("dk_made_first", { key })), { action: "first" }) : null,
        // a team match is not called as one (its rubbers are): the hub marks it callable: false
        m.callable !== false ? button(t("dk_call"), () => toggle("call", key), { action: "call" }) : null,
        button(t("dk_walkover"), () => toggle("walkover", key), { action: "walkover", cls: "danger" })),
      isOpen("call", key) && m.callable !== false ? tableChooser("call", (tableId, b) => act(b, () => hub.callNow(ctx.tid, key, tableId), t("dk_called", { key }))) : null,
      isOpen("walkover", key) ? walkoverChooser(m) : null);
  }

  // --- every match by round -------------------------------------------------------------------
  /** Reopen a finished or walkover match: its result is voided and it is back on its table or in
   * the queue; the hub refuses once a match fed by it has started, naming that match. */
  async function reopen(m, b) {
    if (!(await ask(t("dk_reopen_confirm", { key: m.key, names: vs(m) })))) return;
    // a team match refused (409 team_match) is decided by its rubbers: say so, not the calling sentence
    await act(b, () => hub.reopen(ctx.tid, m.key), t("dk_reopened", { key: m.key }), { self: m.key, texts: { team_match: "team_match_reopen" } });
  }

  /** A decided match can be reopened (a bye cannot: nobody played). Whether the draw has moved
   * on is the hub's to say, with the match that blocks it. */
  const withdrawn = (pid) => ((tour().players || []).find((p) => p.id === pid) || {}).status === "withdrawn";
  // A walkover a withdrawal made is undone by reinstating the player (the players step), not here.
  // So is a match forfeited by a withdrawal: reinstating offers its reopen (the flow would forfeit it again).
  const reopenable = (m) => (m.status === "finished" && !(m.withdrawn || []).some(withdrawn))
    || (m.status === "walkover" && (m.players || []).filter(Boolean).length > 1 && !(m.players || []).some(withdrawn));

  /** A draw match's players with the score of its match, for the result form. */
  function entryPlayers(m) {
    const tb = tables().find((x) => x.match && x.match.id === m.match_id);
    const live = tb ? tb.match.players || [] : [];
    return (m.players || []).filter(Boolean).map((pid) => {
      const p = live.find((x) => x.id === pid);
      return { id: pid, name: name(pid), score: p ? p.score : m.scores && pid in m.scores ? m.scores[pid] : 0 };
    });
  }

  function resultOf(m) {
    if (m.status === "bye") return t("dk_es_bye");
    if (m.status === "walkover") return m.winner ? t("dk_wo_result", { name: name(m.winner) }) : t("dk_es_walkover");
    if (m.status === "finished") {
      const sc = m.scores ? (m.players || []).map((p) => (p in m.scores ? m.scores[p] : "")).join(" : ") : "";
      const gone = (m.withdrawn || []).map(name).join(", "); // forfeited: withdrawn from the event while it was played
      const who = gone ? (m.winner ? t("dk_won_withdrew", { name: name(m.winner), loser: gone }) : t("withdrew", { name: gone }))
        : m.winner ? t(m.entered ? "dk_won_entered" : "dk_won_by", { name: name(m.winner) }) : t("draw");
      return `${who}${sc ? inParens(sc) : ""}`;
    }
    if (m.status === "called") {
      const tb = tables().find((x) => x.id === m.table_id);
      return t("dk_on_table", { name: tb ? tb.name : m.table_id || "" });
    }
    return t(`dk_es_${m.status}`);
  }

  /** The slots a round's entry names: a bye's empty ones left out; a chase sit-out's "bye" slots
   * too (its result says "Bye" already); a bracket's "bye" slot is named ("p1 – Bye"). */
  function shownSlots(m) {
    const slots = m.players || [];
    return slots.filter((p) => (p !== null || m.status !== "bye") && !(p === "bye" && slots.length > 2));
  }

  function roundsList() {
    const byRound = new Map();
    for (const m of entries()) {
      const k = m.group ? `${m.group}|${m.round}` : m.round; // a round robin: group by group
      if (!byRound.has(k)) byRound.set(k, []);
      byRound.get(k).push(m);
    }
    // stage by stage (a knockout after the groups), a round robin group by group
    return [...byRound].sort((a, b) => (a[1][0].stage || 1) - (b[1][0].stage || 1) || (a[1][0].group || "").localeCompare(b[1][0].group || "")).map(([, ms]) => ms).map((ms) => [ms[0].round, ms]).map(([round, ms]) => el("div", { class: "round", dataset: { round } },
      el("h4", { text: roundName(round, ms[0]) }),
      el("ul", { class: "round-list" }, ms.map((m) => el("li", { class: `entry es-${m.status}`, dataset: { key: m.key, status: m.status } },
        el("span", { class: "e-key", text: m.key }),
        el("span", { class: "e-names" }, shownSlots(m).map((p, i) => [i ? el("span", { class: "muted", text: " – " }) : null,
          p === "bye" ? el("span", { class: "muted", text: t("dk_es_bye") }) : el("bdi", { class: m.winner && p === m.winner ? "won" : "", text: name(p) })])),
        el("span", { class: "e-result muted small" }, named(resultOf(m))),
        el("span", { class: "e-acts" },
          reopenable(m) ? button(t("dk_reopen"), (b) => reopen(m, b), { action: "reopen" }) : null,
          (m.status === "called" || m.status === "finished") && m.match_id
            ? button(t(m.status === "finished" ? "dk_res_correct" : "dk_res_enter"), () => toggle("result", `e:${m.key}`), { action: "result" }) : null),
        isOpen("result", `e:${m.key}`) ? resultChooser(m.key, m.match_id, entryPlayers(m), (draw().match || {}).discipline) : null)))));
  }

  function roundName(round, m) {
    const n = String(round).replace(/^[A-Z]+/, "");
    if (m.stage === 2) { // the knockout after the first stage: rounds K1, K2, ...
      const last = Math.max(...entries().filter((x) => x.stage === 2).map((x) => Number(String(x.round).replace(/^[A-Z]+/, "")) || 0));
      return Number(n) === last ? t("dk_r_knockout_final") : t("dk_r_knockout", { n });
    }
    if (m.group) return t("dk_r_group", { g: m.group, n });
    // a bracket's rounds are named as the bracket and the board head them ("Semi-finals", "Losers final")
    return matchRoundName(draw(), m) || t("dk_r_round", { n });
  }

  function standingsTable() {
    const st = tour().standings;
    if (!st || !st.length) return null;
    return el("table", { class: "grid standings", id: "run-standings" },
      el("thead", {}, el("tr", {}, ["#", t("dk_p_name"), t("dk_played"), t("dk_won"), t("dk_lost"), t("points")].map((h, i) => el("th", { class: i > 1 ? "num" : "", text: h })))),
      el("tbody", {}, st.map((s) => el("tr", {},
        el("td", { text: `${s.group ? `${s.group} ` : ""}${s.rank}` }), el("td", {}, el("bdi", { text: name(s.player) })),
        el("td", { class: "num", text: String(s.played) }), el("td", { class: "num", text: String(s.won) }),
        el("td", { class: "num", text: String(s.lost) }), el("td", { class: "num", text: String(s.points) })))));
  }

  function paint() {
    if (!root) return;
    // A repaint moves the open result form (the same node): what had the focus keeps it.
    const focused = /** @type {HTMLElement | null} */ (document.activeElement);
    paintAll();
    if (focused && focused !== document.activeElement && root && root.contains(focused)) focused.focus();
  }

  function paintAll() {
    const d = draw();
    if (!d) { // no draw yet: the tables still show (matches made by hand can be cancelled here)
      fill(root, el("section", { class: "card" }, el("h2", { text: t("step_run") }),
        el("p", { class: "muted", id: "run-no-draw", text: t("dk_run_no_draw") }),
        el("a", { class: "btn primary", href: `/desk/${enc(ctx.tid)}/draw`, "data-nav": true, text: t("step_draw") })),
      message, tablesBox);
      nextFor = new Map();
      fill(tablesBox, tables().map((tb) => tableCard(tb)));
      return;
    }
    if (!root.contains(head) || !root.contains(queueBox)) {
      fill(root, head, message, lineupsBox, tablesBox, el("div", { class: "run-lower" }, queueBox, roundsBox));
      lineupsShown = null;
    }
    if (lineupsSignature(tour()) !== lineupsShown) {
      lineupsShown = lineupsSignature(tour());
      fill(lineupsBox, lineupsPanel(ctx, message, paint, { due: true }));
    }
    // One match count everywhere (the bracket, the home page, draw.counts): a bye is no match.
    const all = entries().filter(isMatch);
    const decided = all.filter((m) => m.status === "finished" || m.status === "walkover").length;
    const queue = tour().queue || [];
    fill(head,
      d.stale ? el("p", { class: "notice warn", id: "run-stale" }, el("span", { text: `${t("dk_stale")} ` }),
        el("a", { href: `/desk/${enc(ctx.tid)}/draw`, "data-nav": true, text: t("dk_stale_redraw") })) : null,
      el("div", { class: "run-title" },
        el("h2", { text: `${t("step_run")} · ${tc("dt", d.type)}` }),
        el("span", { class: "muted", text: setupText(d.match) }),
        (d.stages || [])[1] ? el("span", { class: "muted", id: "run-then", text: t(`dk_then_summary_${d.type}`, { n: d.stages[1].advance }) }) : null),
      el("p", { class: "run-progress", id: "run-progress", dataset: { decided, total: all.length } },
        d.status === "finished"
          ? el("strong", { id: "run-champion" }, named(d.champion ? t("dk_champion", { name: name(d.champion) }) : t("dk_finished")))
          : el("span", { text: t("dk_progress", { n: decided, total: all.length }) }),
        " · ", el("a", { href: `/bracket/${enc(ctx.tid)}`, target: "_blank", rel: "noopener", text: t("dk_bracket") }),
        // the exports in the page's language (round names, a bye's word)
        " · ", el("a", { id: "run-csv", href: `/api/tournaments/${enc(ctx.tid)}/results.csv?lang=${enc(lang())}`, text: "CSV" }),
        " · ", el("a", { id: "run-json", href: `/api/tournaments/${enc(ctx.tid)}/results.json?lang=${enc(lang())}`, text: "JSON" })));
    dealNext(queue);
    fill(tablesBox, tables().map((tb) => tableCard(tb)));
    fill(queueBox, el("h3", { text: t("dk_queue", { n: queue.length }) }),
      queue.length ? el("ol", { class: "queue", id: "queue" }, queue.map((k, i) => queueItem(k, i, queue)))
        : el("p", { class: "muted", id: "queue-empty", text: t("dk_queue_empty") }),
      el("p", { class: "muted small", text: t("dk_queue_help") }));
    fill(roundsBox, el("h3", { text: t("dk_matches") }), standingsTable(), roundsList());
  }

  return {
    mount(node) {
      root = el("div", { class: "run", id: "step-run" });
      root.addEventListener("pointerdown", () => { pressed = true; });
      window.addEventListener("pointerup", release);
      window.addEventListener("pointercancel", release);
      node.append(root);
      paint();
      ticker = setInterval(() => { pending = true; if (!pressed && !frame) frame = requestAnimationFrame(flush); }, 5000); // a no-show flag comes with time, not with a change
    },
    // Live changes (every stroke changes a score) repaint at most once a frame, and never under a
    // finger or a mouse button that is down: a click must land on the button it started on.
    update() {
      pending = true;
      if (!pressed && !frame) frame = requestAnimationFrame(flush);
    },
    paint,
    unmount() {
      root = null;
      clearInterval(ticker);
      if (frame) { cancelAnimationFrame(frame); clearTimeout(frame); }
      frame = null;
      window.removeEventListener("pointerup", release);
      window.removeEventListener("pointercancel", release);
    },
    say: (text, kind) => say(message, text, kind),
  };
}


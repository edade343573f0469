// Step "players": type or paste the list (one a line: "name", or "name, club, seed"), or load a CSV
// file (name, club, seed; a header row in English or Chinese is recognised wherever it is, and its
// columns followed: headerColumns; UTF-8, UTF-16 or GBK/GB18030, desk-file.js);
// what was understood is shown before anything is sent. What was typed and not added yet is kept
// in this browser (localStorage per tournament) until it is added, so Next, a reload or a closed
// tab loses nothing. Then the players: rename, change club or seed (seed: before the draw only),
// remove (before the draw: gone from the list), withdraw (after it: a withdrawn player's unplayed
// matches go to the opponent as walkovers) and reinstate.
// After the draw, late entries are taken while no draw match has a result; the draw is then stale
// until it is made again (the draw step).
import { t, inParens } from "./i18n.js";
import { el, fill, foldName } from "./ui.js";
import { hub } from "./desk-api.js";
import { readTextFile } from "./desk-file.js";
import { namesForIds } from "./entries.js";
import { field, say, noticeLine, nextStep, busy, errorText, ask, named } from "./desk-ui.js";
import { PeopleFinder, linkCounts } from "./desk-people.js";
import { personHref } from "./people-view.js";

const MAX_NAME = 100;
// A header row, in either language, wherever it is (a second file loaded below the first brings
// its own): every cell one of these words, one of them a name's. It also says the order of the
// columns for the lines after it ("序号,姓名,种子,俱乐部"); a column it does not know is left out.
const HEADER_WORDS = {
  name: ["name", "names", "player", "players", "playername", "fullname", "姓名", "名字", "名称", "选手", "选手姓名", "球员", "参赛者", "参赛选手"],
  club: ["club", "team", "clubname", "俱乐部", "球会", "球队", "队伍", "代表队", "单位"],
  seed: ["seed", "seeding", "seedno", "种子", "种子号", "种子序号", "排位"],
  skip: ["#", "no", "no.", "number", "序号", "编号", "handicap", "让球"],
};
const DEFAULT_COLUMNS = { name: 0, club: 1, seed: 2 };

/** A cell as a header word: folded as names are (foldName: ＮＡＭＥ, "Player name"), no trailing colon. */
const headerWord = (cell) => foldName(cell).replace(/:$/, "");

/** The columns a header row names ({name, club?, seed?} -> cell index), or null when `cells` is no header.
 * @returns {Record<string, number> | null} */
export function headerColumns(cells) {
  /** @type {Record<string, number>} */
  const columns = {};
  let words = 0;
  for (const [i, cell] of cells.entries()) {
    const word = headerWord(cell);
    if (!word) continue;
    const kind = Object.keys(HEADER_WORDS).find((k) => HEADER_WORDS[k].includes(word));
    if (!kind) return null;
    words += 1;
    if (kind !== "skip" && !(kind in columns)) columns[kind] = i;
  }
  return words && "name" in columns ? columns : null;
}

const PASTE_KEY = (tid) => `cuehub.desk.paste.${tid}`;

/** What was typed and not added yet, kept per tournament in this browser (nothing secret). */
export function savedPaste(tid) {
  try { return localStorage.getItem(PASTE_KEY(tid)) || ""; } catch (_) { return ""; }
}

function keepPaste(tid, text) {
  try {
    if (text.trim()) localStorage.setItem(PASTE_KEY(tid), text);
    else localStorage.removeItem(PASTE_KEY(tid));
  } catch (_) { /* storage blocked: the page still has it */ }
}

/** The separator of a line: the first of tab, comma, Chinese comma, semicolon found outside quotes. */
function separatorOf(line) {
  let quoted = false;
  const seen = new Set();
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted) seen.add(ch);
  }
  return ["\t", ",", "，", ";", "；"].find((c) => seen.has(c)) || null;
}

/** Split one CSV line ("a","b ""c""",d) into cells. */
export function csvCells(line, sep) {
  const cells = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') { cur += '"'; i += 1; }
      else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"' && cur.trim() === "") { quoted = true; cur = ""; }
    else if (ch === sep) { cells.push(cur); cur = ""; }
    else cur += ch;
  }
  cells.push(cur);
  return cells.map((c) => c.trim());
}

/** The pasted text or a CSV file -> {rows: [{line, name, club, seed, dup}], problems: [{line, text, kind}]}.
 * A line without a usable name is left out (kind "err"); a bad or taken seed is said and the
 * player added without one (kind "warn"); every name met more than once is tagged. */
export function parsePlayers(text, existing = []) {
  const lines = String(text || "").replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const rows = [];
  const problems = [];
  const seeds = new Map(existing.filter((p) => p.seed).map((p) => [p.seed, p.name]));
  /** @type {Record<string, number>} */
  let columns = DEFAULT_COLUMNS;
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim() || raw.trim().startsWith("#")) return;
    const sep = separatorOf(raw);
    const cells = sep ? csvCells(raw, sep) : [raw.trim().replace(/^"(.*)"$/, "$1")];
    const header = headerColumns(cells);
    if (header) { columns = header; return; } // a header row: not a player; its columns from here on
    const cell = (kind) => (kind in columns ? cells[columns[kind]] || "" : "");
    const [name, club, seedText] = [cell("name"), cell("club"), cell("seed")];
    if (!name) { problems.push({ line, text: t("dk_p_no_name"), kind: "err" }); return; }
    if ([...name].length > MAX_NAME) { problems.push({ line, text: t("dk_p_long", { n: MAX_NAME }), kind: "err" }); return; }
    let seed = null;
    if (seedText) {
      const n = Number(seedText);
      if (!Number.isInteger(n) || n < 1 || n > 9999) problems.push({ line, text: t("dk_p_bad_seed", { seed: seedText }), kind: "warn" });
      else if (seeds.has(n)) problems.push({ line, text: t("dk_p_seed_taken", { seed: n, name: seeds.get(n) }), names: [seeds.get(n)], kind: "warn" });
      else { seed = n; seeds.set(n, name); }
    }
    rows.push({ line, name, club: club.slice(0, 100), seed, dup: false });
  });
  const count = new Map();
  for (const n of [...existing.map((p) => p.name), ...rows.map((r) => r.name)]) {
    const k = foldName(n); // "李明" and "李　明", "Han Yu" and "ＨＡＮ ＹＵ": the same name
    count.set(k, (count.get(k) || 0) + 1);
  }
  for (const r of rows) r.dup = count.get(foldName(r.name)) > 1;
  return { rows, problems };
}

export function playersView(ctx) {
  const signature = () => JSON.stringify([drawMade(), closed(), Boolean(drawMade() && tour().draw.stale)]);
  let root = null;
  let parsed = { rows: [], problems: [] };
  let editing = null; // player id being edited
  let shownMade = null;
  const text = el("textarea", { id: "players-text", rows: 8, spellcheck: "false", autocomplete: "off" });
  const file = el("input", { type: "file", id: "players-file", accept: ".csv,.txt,text/csv,text/plain", class: "file-input" });
  const addButton = el("button", { class: "btn primary big", id: "add-players", type: "button" });
  const preview = el("div", { class: "preview", id: "players-preview" });
  const message = noticeLine("players-message");
  const list = el("div", { id: "player-list-box" });
  // People (PROTOCOL.md section 12): what the last add did to each entry (pid -> "linked" | "created"),
  // the entry whose person is being changed and its finder, and the finder that adds someone known.
  const links = new Map();
  let relink = null; // {pid, finder}
  const noteLinks = (added) => { for (const p of added) if (p.link) links.set(p.id, p.link); };
  const finder = new PeopleFinder({ id: "people-find", labelKey: "pp_dk_find", exclude: () => players().map((p) => p.person),
    onPick: (person) => busy(null, message, async () => {
      noteLinks((await hub.addPlayers(ctx.tid, [{ person: person.id }])).players);
      say(message, t("pp_dk_added_person", { name: person.name }), "ok");
      await ctx.reload();
    }) });

  const tour = () => ctx.tournament();
  const players = () => (tour() && tour().players) || [];
  const drawMade = () => Boolean(tour() && tour().draw);
  /** Late entries: after the draw, while none of its matches has a result or a walkover (byes
   * aside); the hub has the last word (409 draw_used). */
  const decided = () => ((tour() && tour().draw && tour().draw.matches) || []).find((m) => m.status === "finished" || m.status === "walkover");
  const closed = () => drawMade() && (Boolean(decided()) || tour().draw.status === "finished");

  function reparse() {
    parsed = parsePlayers(text.value, players());
    paintPreview();
  }

  text.value = savedPaste(ctx.tid);
  text.addEventListener("input", () => { keepPaste(ctx.tid, text.value); reparse(); });
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    file.value = "";
    const read = await readTextFile(f);
    if (read.error) { say(message, t(read.error, { name: f.name }), "err"); return; }
    const content = read.text;
    text.value = text.value.trim() ? `${text.value.replace(/\s+$/, "")}\n${content}` : content;
    keepPaste(ctx.tid, text.value);
    say(message, t("dk_p_file_read", { name: f.name, encoding: t(`dk_enc_${read.encoding}`) }), "ok");
    reparse();
  });
  addButton.addEventListener("click", () => busy(addButton, message, async () => {
    if (!parsed.rows.length) { text.focus(); return; }
    const body = parsed.rows.map((r) => ({ name: r.name, ...(r.club ? { club: r.club } : {}), ...(r.seed ? { seed: r.seed } : {}) }));
    const out = await hub.addPlayers(ctx.tid, body);
    text.value = "";
    keepPaste(ctx.tid, "");
    parsed = { rows: [], problems: [] };
    noteLinks(out.players);
    say(message, `${t("dk_p_added", { n: out.players.length })} ${t("pp_dk_links", linkCounts(out.players))}`, "ok");
    await ctx.reload();
    paintPreview();
  }));

  function paintPreview() {
    const { rows, problems } = parsed;
    addButton.textContent = t("dk_p_add", { n: rows.length });
    addButton.disabled = !rows.length || closed();
    fill(preview,
      rows.length || problems.length ? el("p", { class: "muted", id: "players-parsed" }, el("span", { text: t("dk_p_parsed", { n: rows.length }) }),
        rows.length ? el("span", { class: "small", id: "players-kept", text: ` ${t("dk_p_kept")}` }) : null) : null,
      problems.length ? el("ul", { class: "problems", id: "players-problems" },
        problems.map((p) => el("li", { class: `notice ${p.kind || "err"}` }, named(t("dk_p_line", { line: p.line, text: p.text }), p.names || [])))) : null,
      rows.length ? el("table", { class: "grid preview-table" },
        el("thead", {}, el("tr", {}, el("th", { text: "#" }), el("th", { text: t("dk_p_name") }), el("th", { text: t("dk_p_club") }), el("th", { text: t("dk_p_seed") }))),
        el("tbody", {}, rows.map((r, i) => el("tr", { class: r.dup ? "dup" : "" },
          el("td", { class: "num", text: String(i + 1) }),
          el("td", {}, el("bdi", { text: r.name }), r.dup ? el("span", { class: "badge warn", text: t("dk_p_dup") }) : null),
          el("td", { text: r.club }),
          el("td", { class: "num", text: r.seed ? String(r.seed) : "" }))))) : null);
  }

  function editForm(p) {
    const name = el("input", { type: "text", class: "p-name-input", maxlength: MAX_NAME, value: p.name, autocomplete: "off" });
    const club = el("input", { type: "text", class: "p-club-input", maxlength: 100, value: p.club || "", autocomplete: "off" });
    const seed = el("input", { type: "number", class: "p-seed-input", min: 1, max: 9999, value: p.seed ? String(p.seed) : "", disabled: drawMade() });
    const eight = el("input", { type: "checkbox", class: "p-eight-input", checked: p.handicap === "eight" });
    const save = el("button", { class: "btn primary", type: "submit", text: t("desk_save") });
    return el("form", { class: "p-edit row", onsubmit: (e) => {
      e.preventDefault();
      const changes = {};
      if (name.value.trim() && name.value.trim() !== p.name) changes.name = name.value.trim();
      if (club.value.trim() !== (p.club || "")) changes.club = club.value.trim();
      const s = seed.value.trim() ? Number(seed.value) : null;
      if (!drawMade() && s !== (p.seed ?? null) && s !== null) changes.seed = s;
      if (eight.checked !== (p.handicap === "eight")) changes.handicap = eight.checked ? "eight" : null;
      busy(save, message, async () => {
        if (Object.keys(changes).length) await hub.updatePlayer(ctx.tid, p.id, changes);
        editing = null;
        await ctx.reload();
      });
    } },
    field("dk_p_name", name), field("dk_p_club", club), field("dk_p_seed", seed),
    el("label", { class: "choice check", title: t("dk_p_eight_help") }, eight, el("span", { text: t("dk_p_eight") })), save,
    el("button", { class: "btn", type: "button", text: t("cancel"), onclick: () => { editing = null; paintList(); } }));
  }

  /** The draw matches a player's withdrawal forfeited while they were played: they stay lost when
   * the player is reinstated, until the desk reopens them. */
  const forfeitedBy = (pid) => (((tour() || {}).draw || {}).matches || [])
    .filter((m) => m.status === "finished" && (m.withdrawn || []).includes(pid));

  /** After a reinstatement: the matches the withdrawal forfeited, each with its Reopen (it plays on
   * from where it stood). */
  function offerReopen(p, forfeited) {
    say(message, t("dk_p_reinstated_forfeited", { name: p.name, key: forfeited.map((m) => m.key).join(", ") }), "ok");
    for (const m of forfeited) {
      const b = el("button", { class: "btn small primary", type: "button", dataset: { action: "reopen-forfeited", key: m.key },
        text: t("dk_p_reopen_forfeited", { key: m.key }) });
      b.addEventListener("click", () => busy(b, message, async () => {
        await hub.reopen(ctx.tid, m.key);
        say(message, t("dk_reopened", { key: m.key }), "ok");
        await ctx.reload();
      }));
      message.append(" ", b);
    }
  }

  async function reinstate(p, button) {
    const forfeited = forfeitedBy(p.id);
    const question = forfeited.length
      ? t("dk_p_reinstate_forfeited", { name: p.name, keys: forfeited.map((m) => m.key).join(", ") })
      : t("dk_p_reinstate_confirm", { name: p.name });
    if (!(await ask(question))) return;
    busy(button, null, async () => {
      try {
        await hub.reinstatePlayer(ctx.tid, p.id);
      } catch (e) {
        const label = (key) => { // the match in the way, with its players
          const m = (((tour() || {}).draw || {}).matches || []).find((x) => x.key === key);
          return m ? `${key}${inParens((m.players || []).filter(Boolean).map((pid) => (players().find((x) => x.id === pid) || {}).name || pid).join(" – "))}` : key;
        };
        say(message, namesForIds(`${t("dk_p_reinstate_refused", { name: p.name })} ${errorText(e, { label })}`, { players: players() }), "err");
        return;
      }
      if (forfeited.length) offerReopen(p, forfeited);
      else say(message, t("dk_p_reinstated", { name: p.name }), "ok");
      await ctx.reload();
    });
  }

  async function withdraw(p, button) {
    if (!(await ask(t("dk_p_withdraw_confirm", { name: p.name })))) return;
    busy(button, message, async () => {
      await hub.withdrawPlayer(ctx.tid, p.id);
      say(message, t("dk_p_withdrawn", { name: p.name }), "ok");
      await ctx.reload();
    });
  }

  /** Before the draw a player is removed, not withdrawn: gone from the list (the hub refuses it
   * once the draw is made: 409 draw_made, said as any refusal). */
  async function remove(p, button) {
    if (!(await ask(t("dk_p_remove_confirm", { name: p.name })))) return;
    busy(button, message, async () => {
      await hub.removePlayer(ctx.tid, p.id);
      say(message, t("dk_p_removed", { name: p.name }), "ok");
      await ctx.reload();
    });
  }

  /** Remove before the draw; Withdraw (an active player) after it. */
  function leaveButton(p) {
    const before = !drawMade();
    if (!before && p.status !== "active") return null;
    const button = el("button", { class: "btn small danger", type: "button", dataset: { action: before ? "remove" : "withdraw" },
      text: t(before ? "dk_p_remove" : "dk_p_withdraw") });
    button.addEventListener("click", () => (before ? remove(p, button) : withdraw(p, button)));
    return button;
  }

  /** Change the person an entry is linked to (its history and statistics follow). */
  function relinkFinder(p) {
    return new PeopleFinder({ id: "relink-find", labelKey: "pp_dk_relink_find", exclude: () => [p.person],
      onPick: (person) => busy(null, message, async () => {
        await hub.updatePlayer(ctx.tid, p.id, { person: person.id });
        links.set(p.id, "linked");
        relink = null;
        say(message, t("pp_dk_relinked", { name: p.name, person: person.name }), "ok");
        await ctx.reload();
      }) });
  }

  function paintList() {
    const all = players();
    fill(list,
      el("h3", { text: t("dk_p_list", { n: all.length }) }),
      !all.length ? el("p", { class: "muted", id: "no-players", text: t("dk_p_none") })
        : el("ol", { class: "player-list", id: "player-list" }, all.map((p) => {
          return el("li", { class: `player-row status-${p.status}`, dataset: { player: p.id } },
            editing === p.id ? editForm(p) : el("div", { class: "p-main" },
              el("span", { class: "p-name", text: p.name }),
              p.club ? el("span", { class: "p-club muted", text: p.club }) : null,
              p.seed ? el("span", { class: "badge", text: t("dk_p_seed_n", { n: p.seed }) }) : null,
              p.handicap === "eight" ? el("span", { class: "badge", title: t("dk_p_eight_help"), text: t("dk_p_eight") }) : null,
              p.status !== "active" ? el("span", { class: `badge st-${p.status}`, text: t(`dk_ps_${p.status}`) }) : null,
              links.has(p.id) ? el("span", { class: `badge link-${links.get(p.id)}`, dataset: { link: links.get(p.id) }, text: t(`pp_dk_link_${links.get(p.id)}`) }) : null,
              p.person ? el("a", { class: "p-person small", href: personHref(p.person), target: "_blank", rel: "noopener", text: t("pp_dk_profile") }) : null),
            editing === p.id ? null : el("div", { class: "p-actions" },
              el("button", { class: "btn small", type: "button", dataset: { action: "edit" }, text: t("dk_p_edit"),
                onclick: () => { editing = p.id; paintList(); list.querySelector(".p-name-input")?.focus(); } }),
              el("button", { class: "btn small", type: "button", dataset: { action: "relink" }, text: t("pp_dk_relink"),
                onclick: () => { relink = relink && relink.pid === p.id ? null : { pid: p.id, finder: relinkFinder(p) }; paintList(); relink?.finder.input.focus(); } }),
              leaveButton(p),
              p.status === "withdrawn" ? (() => {
                const back = el("button", { class: "btn small", type: "button", dataset: { action: "reinstate" }, text: t("dk_p_reinstate") });
                back.addEventListener("click", () => reinstate(p, back));
                return back;
              })() : null),
            relink && relink.pid === p.id ? relink.finder.box : null);
        })));
  }

  function paint() {
    if (!root) return;
    text.placeholder = t("dk_p_placeholder");
    const made = drawMade();
    shownMade = signature();
    const late = decided();
    const stale = made && tour().draw.stale;
    fill(root,
      el("h2", { text: t("step_players") }),
      made ? el("p", { class: "notice info", id: "players-after-draw",
        text: closed() ? t(late ? "dk_p_late_closed" : "dk_p_after_draw", { key: late ? late.key : "" }) : t("dk_p_late_open") }) : null,
      stale ? el("p", { class: "notice warn", id: "players-stale" }, el("span", { text: `${t("dk_stale")} ` }),
        el("a", { href: `/desk/${encodeURIComponent(ctx.tid)}/draw`, "data-nav": true, text: t("dk_stale_redraw") })) : null,
      made && closed() ? null : el("div", { class: "paste" },
        finder.box,
        el("label", { class: "field wide", for: "players-text" }, el("span", { class: "field-label", text: t("dk_p_paste") }), text),
        el("div", { class: "row" },
          el("label", { class: "btn file-label", for: "players-file" }, el("span", { text: t("dk_p_file") }), file),
          el("span", { class: "muted small", text: t("dk_p_file_help") })),
        preview, addButton),
      message, list,
      nextStep(ctx.tid, made ? (stale ? "draw" : "run") : "tables", made ? (stale ? "step_draw" : "step_run") : "step_tables"));
    paintPreview();
    paintList();
  }

  return {
    mount(node) {
      root = el("section", { class: "card wizard", id: "step-players" });
      node.append(root);
      paint();
      reparse();
      if (!closed()) text.focus();
    },
    update() {
      if (signature() !== shownMade) { paint(); return; }
      if (editing === null && relink === null) paintList();
      reparse();
    },
    paint,
    unmount() { root = null; },
  };
}

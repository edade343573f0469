// Step "players": type or paste the list (one a line: "name", or "name, club, seed"), or load a CSV
// file (name, club, seed; a header row is recognised); what was understood is shown before
// anything is sent. Then the players: rename, change club or seed (seed: before the draw only),
// withdraw (a withdrawn player's unplayed matches go to the opponent as walkovers).
import { t } from "./i18n.js";
import { el, fill, confirmDialog } from "./ui.js";
import { hub } from "./desk-api.js";
import { field, say, noticeLine, nextStep, busy } from "./desk-ui.js";

const MAX_NAME = 100;
const HEADER = /^(name|player|names|姓名|选手|名字)$/i;

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

/** The pasted text or a CSV file -> {rows: [{line, name, club, seed}], problems: [{line, text}]}. */
export function parsePlayers(text, existing = []) {
  const lines = String(text || "").replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const rows = [];
  const problems = [];
  const seeds = new Map(existing.filter((p) => p.seed).map((p) => [p.seed, p.name]));
  const names = new Set(existing.map((p) => p.name.toLowerCase()));
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim() || raw.trim().startsWith("#")) return;
    const sep = raw.includes("\t") ? "\t" : raw.includes(",") ? "," : raw.includes("，") ? "，" : raw.includes(";") ? ";" : null;
    const cells = sep ? csvCells(raw, sep) : [raw.trim()];
    const [name = "", club = "", seedText = ""] = cells;
    if (!rows.length && !problems.length && HEADER.test(name)) return; // a header row
    if (!name) { problems.push({ line, text: t("dk_p_no_name") }); return; }
    if ([...name].length > MAX_NAME) { problems.push({ line, text: t("dk_p_long", { n: MAX_NAME }) }); return; }
    let seed = null;
    if (seedText) {
      seed = Number(seedText);
      if (!Number.isInteger(seed) || seed < 1 || seed > 9999) { problems.push({ line, text: t("dk_p_bad_seed", { seed: seedText }) }); return; }
      if (seeds.has(seed)) { problems.push({ line, text: t("dk_p_seed_taken", { seed, name: seeds.get(seed) }) }); return; }
      seeds.set(seed, name);
    }
    const dup = names.has(name.toLowerCase());
    names.add(name.toLowerCase());
    rows.push({ line, name, club: club.slice(0, 100), seed, dup });
  });
  return { rows, problems };
}

export function playersView(ctx) {
  let root = null;
  let parsed = { rows: [], problems: [] };
  let editing = null; // player id being edited
  let shownMade = false;
  const text = el("textarea", { id: "players-text", rows: 8, spellcheck: "false", autocomplete: "off" });
  const file = el("input", { type: "file", id: "players-file", accept: ".csv,.txt,text/csv,text/plain", class: "file-input" });
  const addButton = el("button", { class: "btn primary big", id: "add-players", type: "button" });
  const preview = el("div", { class: "preview", id: "players-preview" });
  const message = noticeLine("players-message");
  const list = el("div", { id: "player-list-box" });

  const tour = () => ctx.tournament();
  const players = () => (tour() && tour().players) || [];
  const drawMade = () => Boolean(tour() && tour().draw);

  function reparse() {
    parsed = parsePlayers(text.value, players());
    paintPreview();
  }

  text.addEventListener("input", reparse);
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    const content = await f.text();
    text.value = text.value.trim() ? `${text.value.replace(/\s+$/, "")}\n${content}` : content;
    file.value = "";
    reparse();
  });
  addButton.addEventListener("click", () => busy(addButton, message, async () => {
    if (!parsed.rows.length) { text.focus(); return; }
    const body = parsed.rows.map((r) => ({ name: r.name, ...(r.club ? { club: r.club } : {}), ...(r.seed ? { seed: r.seed } : {}) }));
    const out = await hub.addPlayers(ctx.tid, body);
    text.value = "";
    parsed = { rows: [], problems: [] };
    say(message, t("dk_p_added", { n: out.players.length }), "ok");
    await ctx.reload();
    paintPreview();
  }));

  function paintPreview() {
    const { rows, problems } = parsed;
    addButton.textContent = t("dk_p_add", { n: rows.length });
    addButton.disabled = !rows.length || drawMade();
    fill(preview,
      rows.length || problems.length ? el("p", { class: "muted", id: "players-parsed", text: t("dk_p_parsed", { n: rows.length }) }) : null,
      problems.length ? el("ul", { class: "problems", id: "players-problems" },
        problems.map((p) => el("li", { class: "notice err", text: t("dk_p_line", { line: p.line, text: p.text }) }))) : null,
      rows.length ? el("table", { class: "grid preview-table" },
        el("thead", {}, el("tr", {}, el("th", { text: "#" }), el("th", { text: t("dk_p_name") }), el("th", { text: t("dk_p_club") }), el("th", { text: t("dk_p_seed") }))),
        el("tbody", {}, rows.map((r, i) => el("tr", { class: r.dup ? "dup" : "" },
          el("td", { class: "num", text: String(i + 1) }),
          el("td", {}, el("span", { text: r.name }), r.dup ? el("span", { class: "badge warn", text: t("dk_p_dup") }) : null),
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

  async function withdraw(p, button) {
    if (!(await confirmDialog(t(drawMade() ? "dk_p_withdraw_confirm" : "dk_p_remove_confirm", { name: p.name })))) return;
    busy(button, message, async () => {
      await hub.withdrawPlayer(ctx.tid, p.id);
      say(message, t("dk_p_withdrawn", { name: p.name }), "ok");
      await ctx.reload();
    });
  }

  function paintList() {
    const all = players();
    fill(list,
      el("h3", { text: t("dk_p_list", { n: all.length }) }),
      !all.length ? el("p", { class: "muted", id: "no-players", text: t("dk_p_none") })
        : el("ol", { class: "player-list", id: "player-list" }, all.map((p) => {
          const wd = el("button", { class: "btn small danger", type: "button", dataset: { action: "withdraw" }, text: t("dk_p_withdraw") });
          wd.addEventListener("click", () => withdraw(p, wd));
          return el("li", { class: `player-row status-${p.status}`, dataset: { player: p.id } },
            editing === p.id ? editForm(p) : el("div", { class: "p-main" },
              el("span", { class: "p-name", text: p.name }),
              p.club ? el("span", { class: "p-club muted", text: p.club }) : null,
              p.seed ? el("span", { class: "badge", text: t("dk_p_seed_n", { n: p.seed }) }) : null,
              p.handicap === "eight" ? el("span", { class: "badge", title: t("dk_p_eight_help"), text: t("dk_p_eight") }) : null,
              p.status !== "active" ? el("span", { class: `badge st-${p.status}`, text: t(`dk_ps_${p.status}`) }) : null),
            editing === p.id ? null : el("div", { class: "p-actions" },
              el("button", { class: "btn small", type: "button", dataset: { action: "edit" }, text: t("dk_p_edit"),
                onclick: () => { editing = p.id; paintList(); list.querySelector(".p-name-input")?.focus(); } }),
              p.status === "active" ? wd : null));
        })));
  }

  function paint() {
    if (!root) return;
    text.placeholder = t("dk_p_placeholder");
    const made = drawMade();
    shownMade = made;
    fill(root,
      el("h2", { text: t("step_players") }),
      made ? el("p", { class: "notice info", text: t("dk_p_after_draw") }) : el("div", { class: "paste" },
        el("label", { class: "field wide", for: "players-text" }, el("span", { class: "field-label", text: t("dk_p_paste") }), text),
        el("div", { class: "row" },
          el("label", { class: "btn file-label", for: "players-file" }, el("span", { text: t("dk_p_file") }), file),
          el("span", { class: "muted small", text: t("dk_p_file_help") })),
        preview, addButton),
      message, list,
      nextStep(ctx.tid, made ? "run" : "tables", made ? "step_run" : "step_tables"));
    paintPreview();
    paintList();
  }

  return {
    mount(node) {
      root = el("section", { class: "card wizard", id: "step-players" });
      node.append(root);
      paint();
      if (!drawMade()) text.focus();
    },
    update() {
      if (drawMade() !== shownMade) { paint(); return; }
      if (editing === null) paintList();
      reparse();
    },
    paint,
    unmount() { root = null; },
  };
}

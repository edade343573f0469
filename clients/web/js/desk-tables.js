// Step "tables": the venue's tables: add (one, or several at once), rename, give a tablet its
// table (a pairing code, shown big with its countdown), print its card, rotate its token.
import { t } from "./i18n.js";
import { el, fill } from "./ui.js";
import { hub } from "./desk-api.js";
import { makeCode, lastCode, forgetCodes } from "./desk-codes.js";
import { tabletLinks } from "./desk-tablets.js";
import { errorText, field, minSec, spacedCode, say, noticeLine, isLoopback, nextStep, ask, named } from "./desk-ui.js";

const enc = encodeURIComponent;
const MAX_AT_ONCE = 64;
const POLL_MS = 3000;

export function tablesView(ctx) {
  let root = null;
  let tablets = new Map(); // table id -> paired tablet count
  let editing = null; // table id being renamed
  const rotated = new Map(); // table id -> the new table token (shown once, on request)
  let ticker = null;
  let lastPoll = 0;
  const links = tabletLinks(ctx.tid); // every tablet of every table, online or not (desk-tablets.js)

  const nameInput = el("input", { id: "table-name", type: "text", maxlength: 200, autocomplete: "off" });
  const countInput = el("input", { id: "table-count", type: "number", min: 1, max: MAX_AT_ONCE, value: "4", inputmode: "numeric" });
  const addOne = el("button", { class: "btn primary", id: "add-table", type: "submit" });
  const addMany = el("button", { class: "btn", id: "add-tables", type: "submit" });
  const list = el("ul", { class: "table-list", id: "table-list" });
  const message = noticeLine("tables-message");
  const warning = el("p", { class: "notice err hidden", id: "loopback-warning" });

  const tables = () => (ctx.tournament() && ctx.tournament().tables) || [];

  async function countTablets(ids) {
    const counts = await Promise.all(ids.map((id) => hub.table(id).then((x) => x.tablets, () => null)));
    ids.forEach((id, i) => { if (counts[i] !== null) tablets.set(id, counts[i]); });
  }

  async function refresh() {
    await ctx.reload();
  }

  async function run(button, work) {
    if (button) button.disabled = true;
    try {
      await work();
    } catch (e) {
      say(message, errorText(e), "err");
    } finally {
      if (button) button.disabled = false;
    }
  }

  function addTable(e) {
    e.preventDefault();
    const name = nameInput.value.trim();
    if (!name) { nameInput.focus(); return; }
    run(addOne, async () => {
      await hub.createTable(ctx.tid, name);
      nameInput.value = "";
      await refresh();
      nameInput.focus();
    });
  }

  function addTables(e) {
    e.preventDefault();
    const n = Math.min(MAX_AT_ONCE, Math.max(1, Math.floor(Number(countInput.value) || 0)));
    run(addMany, async () => {
      const start = tables().length;
      for (let i = 1; i <= n; i += 1) await hub.createTable(ctx.tid, t("desk_default_table_name", { n: start + i }));
      await refresh();
    });
  }

  function rename(table, input, button) {
    const name = input.value.trim();
    if (!name) { input.focus(); return; }
    run(button, async () => {
      await hub.renameTable(table.id, name);
      editing = null;
      await refresh();
    });
  }

  async function rotate(table, button) {
    if (!(await ask(t("desk_rotate_confirm", { name: table.name })))) return;
    run(button, async () => {
      const out = await hub.rotateToken(table.id);
      forgetCodes(table.id);
      rotated.set(table.id, out.token);
      tablets.set(table.id, 0);
      say(message, t("desk_rotated", { name: table.name, n: out.closed_sockets ?? 0 }), "ok");
      paintList();
    });
  }

  function newCode(table, button) {
    run(button, async () => {
      await makeCode(table.id);
      paintList();
      tick();
    });
  }

  function matchText(m) {
    if (!m) return t("desk_table_free");
    return t("desk_table_match", { names: (m.players || []).map((p) => p.name).join(" – ") });
  }

  function codeBox(table) {
    const c = lastCode(table.id);
    if (!c) return null;
    const url = new URL(c.link);
    const live = c.expires_at > Date.now();
    return el("div", { class: `t-code${live ? "" : " expired"}`, dataset: { expires: c.expires_at } },
      el("span", { class: "code-big", dataset: { code: c.code }, text: spacedCode(c.code) }),
      el("span", { class: "code-left", text: live ? t("desk_code_left", { time: minSec(c.expires_at - Date.now()) }) : t("desk_code_expired") }),
      el("p", { class: "muted small", text: t("desk_code_help", { url: `${url.host}/pair` }) }));
  }

  function row(table) {
    const n = tablets.get(table.id);
    const main = editing === table.id ? renameForm(table)
      : el("div", { class: "t-main" },
        el("span", { class: "t-name", text: table.name }),
        el("span", { class: "t-status muted" }, named(matchText(table.match))),
        n === undefined ? null : el("span", { class: "t-tablets muted", text: t("desk_tablets_n", { n }) }));
    const token = rotated.get(table.id);
    const codeButton = el("button", {
      class: "btn", type: "button", dataset: { action: "code" },
      text: lastCode(table.id) ? t("desk_new_code") : t("desk_pairing_code"),
    });
    codeButton.addEventListener("click", () => newCode(table, codeButton));
    const rotateButton = el("button", { class: "btn danger", type: "button", dataset: { action: "rotate" }, text: t("desk_rotate") });
    rotateButton.addEventListener("click", () => rotate(table, rotateButton));
    return el("li", { class: "table-row card", dataset: { table: table.id } },
      main,
      links.box(table.id),
      codeBox(table),
      token ? el("details", { class: "new-token" },
        el("summary", { text: t("desk_show_token") }), el("code", { class: "token-text", text: token })) : null,
      el("div", { class: "t-actions" },
        codeButton,
        el("a", { class: "btn", href: `/desk/${enc(ctx.tid)}/cards?table=${enc(table.id)}`, "data-nav": true, dataset: { action: "card" }, text: t("desk_card") }),
        editing === table.id ? null : el("button", {
          class: "btn", type: "button", dataset: { action: "rename" }, text: t("desk_rename"),
          onclick: () => { editing = table.id; paintList(); root.querySelector(".rename-input")?.focus(); },
        }),
        rotateButton));
  }

  function renameForm(table) {
    const input = el("input", { class: "rename-input", type: "text", maxlength: 200, value: table.name, autocomplete: "off" });
    const save = el("button", { class: "btn primary", type: "submit", text: t("desk_save") });
    return el("form", { class: "t-main rename", onsubmit: (e) => { e.preventDefault(); rename(table, input, save); } },
      field("desk_table_name", input), save,
      el("button", { class: "btn", type: "button", text: t("cancel"), onclick: () => { editing = null; paintList(); } }));
  }

  function paintList() {
    const all = tables();
    fill(list, all.length ? all.map(row) : el("li", { class: "muted", id: "no-tables", text: t("desk_no_tables") }));
    // Codes made for an address only this machine can reach: said once, above the tables.
    const link = all.map((x) => lastCode(x.id)).find(Boolean);
    const host = link ? new URL(link.link) : null;
    fill(warning, host && isLoopback(host.hostname) ? t("desk_localhost_warn", { host: host.host }) : "");
    warning.classList.toggle("hidden", !(host && isLoopback(host.hostname)));
  }

  function paint() {
    if (!root) return;
    nameInput.placeholder = t("desk_table_name");
    addOne.textContent = t("desk_add");
    addMany.textContent = t("desk_add_several");
    fill(root,
      el("h2", { text: t("step_tables") }),
      el("div", { class: "add-forms" },
        el("form", { class: "row", id: "add-table-form", onsubmit: addTable }, field("desk_new_table", nameInput), addOne),
        el("form", { class: "row", id: "add-tables-form", onsubmit: addTables }, field("desk_how_many", countInput), addMany)),
      message, warning, list,
      ctx.tournament() && ctx.tournament().draw ? nextStep(ctx.tid, "run", "step_run") : nextStep(ctx.tid, "draw", "step_draw"));
    paintList();
  }

  // Countdowns of the codes on screen, and while one is alive the paired-tablet counts (so the
  // desk sees a tablet arrive).
  function tick() {
    if (!root) return;
    let alive = false;
    for (const box of root.querySelectorAll(".t-code")) {
      const left = Number(box.dataset.expires) - Date.now();
      const label = box.querySelector(".code-left");
      if (left > 0) { alive = true; label.textContent = t("desk_code_left", { time: minSec(left) }); }
      else if (!box.classList.contains("expired")) { box.classList.add("expired"); label.textContent = t("desk_code_expired"); }
    }
    if (alive && Date.now() - lastPoll > POLL_MS) {
      lastPoll = Date.now();
      const ids = tables().filter((x) => lastCode(x.id)).map((x) => x.id);
      countTablets(ids).then(() => { if (root && editing === null) paintCounts(); });
    }
  }

  function paintCounts() {
    for (const li of list.querySelectorAll(".table-row")) {
      const n = tablets.get(li.dataset.table);
      const span = li.querySelector(".t-tablets");
      if (span && n !== undefined) span.textContent = t("desk_tablets_n", { n });
    }
  }

  return {
    mount(node) {
      root = el("section", { class: "card tables", id: "step-tables" });
      node.append(root);
      paint();
      countTablets(tables().map((x) => x.id)).then(() => { if (root) paintList(); });
      ticker = setInterval(tick, 1000);
      links.start();
    },
    update() {
      paintList();
      countTablets(tables().map((x) => x.id)).then(() => { if (root && editing === null) paintList(); });
    },
    paint,
    unmount() { root = null; clearInterval(ticker); links.stop(); },
  };
}

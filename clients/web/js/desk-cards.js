// Step "cards": printable table cards: the table's name, big; a QR code of the tablet's way in
// (`{hub}/pair#secret=…`, made by the hub with segno: a secret that pairs even while guessed codes
// are being refused); the 6-digit code to type; until when it is valid.
// Paper: A6, one card per page, or A4 with four (print.css, named @page rules).
import { t } from "./i18n.js";
import { el, fill } from "./ui.js";
import { makeCode, liveCode, lastCode } from "./desk-codes.js";
import { errorText, spacedCode, timeOfDay, say, noticeLine, isLoopback } from "./desk-ui.js";

const enc = encodeURIComponent;
const PAPER_KEY = "cuehub.desk.paper"; // a layout preference, nothing secret
const PER_SHEET = 4;

function savedPaper() {
  try { return localStorage.getItem(PAPER_KEY) === "a4" ? "a4" : "a6"; } catch (_) { return "a6"; }
}

/** Long names get a smaller type so the card keeps its QR code and code in view. */
function nameSize(name) {
  const n = [...String(name)].reduce((w, ch) => w + (ch.charCodeAt(0) > 0x2e80 ? 2 : 1), 0); // CJK: double width
  return n > 32 ? " longer" : n > 14 ? " long" : "";
}

export function cardsView(ctx) {
  let root = null;
  let paper = savedPaper();
  const message = noticeLine("cards-message");
  const sheetBox = el("div", { class: "cards", id: "cards" });

  const only = () => new URLSearchParams(location.search).get("table");
  const shown = () => {
    const all = (ctx.tournament() && ctx.tournament().tables) || [];
    const id = only();
    return id ? all.filter((x) => x.id === id) : all;
  };

  async function makeCodes(button, { missingOnly }) {
    button.disabled = true;
    try {
      for (const table of shown()) if (!missingOnly || !liveCode(table.id)) await makeCode(table.id);
      paintCards();
      return true;
    } catch (e) {
      say(message, errorText(e), "err");
      return false;
    } finally {
      button.disabled = false;
    }
  }

  async function printCards(button) {
    if (!(await makeCodes(button, { missingOnly: true }))) return;
    // Let the QR images decode before the print snapshot is taken.
    await Promise.all([...sheetBox.querySelectorAll("img.tc-qr")].map((img) => img.decode().catch(() => {})));
    window.print();
  }

  function card(table) {
    const c = lastCode(table.id);
    const live = c && c.expires_at > Date.now();
    const url = c ? new URL(c.link) : new URL(location.href);
    const tour = ctx.tournament();
    return el("article", { class: `tcard${c ? "" : " no-code"}${c && !live ? " expired" : ""}`, dataset: { table: table.id } },
      el("div", { class: "tc-top" }, el("span", { class: "tc-brand", text: "cuehub" }), el("span", { class: "tc-tour", text: tour ? tour.name : "" })),
      el("h3", { class: `tc-name${nameSize(table.name)}`, text: table.name }),
      c ? el("img", { class: "tc-qr", src: c.qr, alt: `QR ${url.host}/pair`, width: 240, height: 240, dataset: { link: c.link } })
        : el("div", { class: "tc-qr empty" }),
      c ? el("p", { class: "tc-how" },
        el("span", { text: t("card_scan") }), " ", el("strong", { class: "tc-url", text: `${url.host}/pair` }), " ",
        el("span", { text: t("card_type") })) : el("p", { class: "tc-how muted no-print", text: t("cards_no_code") }),
      c ? el("p", { class: "tc-code", dataset: { code: c.code }, text: spacedCode(c.code) }) : null,
      c ? el("p", { class: "tc-valid", text: live ? t("card_valid_until", { time: timeOfDay(c.expires_at) }) : t("desk_code_expired") }) : null);
  }

  function paintCards() {
    const cards = shown().map(card);
    sheetBox.className = `cards ${paper}`;
    if (paper === "a4") {
      const sheets = [];
      for (let i = 0; i < cards.length; i += PER_SHEET) sheets.push(el("div", { class: "sheet" }, cards.slice(i, i + PER_SHEET)));
      fill(sheetBox, sheets);
    } else {
      fill(sheetBox, cards);
    }
  }

  function paperChoice(value, labelKey) {
    const input = el("input", { type: "radio", name: "paper", value, id: `paper-${value}`, checked: paper === value });
    input.addEventListener("change", () => {
      paper = value;
      try { localStorage.setItem(PAPER_KEY, value); } catch (_) { /* a preference only */ }
      paintCards();
    });
    return el("label", { class: "choice" }, input, el("span", { text: t(labelKey) }));
  }

  function paint() {
    if (!root) return;
    const id = only();
    const selected = id ? shown()[0] : null;
    const makeButton = el("button", { class: "btn", id: "make-codes", type: "button", text: t("cards_make") });
    makeButton.addEventListener("click", () => makeCodes(makeButton, { missingOnly: false }));
    const printButton = el("button", { class: "btn primary", id: "print-cards", type: "button", text: t("cards_print") });
    printButton.addEventListener("click", () => printCards(printButton));
    const loop = isLoopback(location.hostname);
    fill(root,
      el("section", { class: "card no-print", id: "cards-controls" },
        el("h2", { text: t("step_cards") }),
        el("p", { class: "muted", text: t("cards_help") }),
        loop ? el("p", { class: "notice err", id: "loopback-warning", text: t("desk_localhost_warn", { host: location.host }) }) : null,
        id ? el("p", {},
          el("bdi", {}, el("strong", { text: selected ? selected.name : id })), " · ",
          el("a", { href: `/desk/${enc(ctx.tid)}/cards`, "data-nav": true, text: t("cards_all") })) : null,
        el("div", { class: "row wrap" }, makeButton,
          el("fieldset", { class: "paper" }, el("legend", { text: t("cards_paper") }),
            paperChoice("a6", "cards_a6"), paperChoice("a4", "cards_a4")),
          printButton),
        message),
      id && !selected ? el("p", { class: "notice err", id: "not-found", text: t("desk_not_found_table", { id }) }) : null,
      sheetBox);
    paintCards();
  }

  let ticker = null;
  return {
    mount(node) {
      root = el("div", { class: "cards-step", id: "step-cards" });
      node.append(root);
      paint();
      // A code that runs out while the page is open is shown as expired.
      ticker = setInterval(() => {
        if (root && [...sheetBox.querySelectorAll(".tcard:not(.expired):not(.no-code)")].some((x) => !liveCode(x.dataset.table))) paintCards();
      }, 5000);
    },
    update() { paint(); },
    paint,
    unmount() { root = null; clearInterval(ticker); },
  };
}

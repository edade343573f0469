// /pair: a tablet becomes its table's tablet. The 6 digits are typed, or the table card's QR code
// opens /pair#secret=... (a fragment: never sent to the hub, so never in a log), whose secret
// pairs whatever the hub's budget of guessed codes says (older cards: #code=123456 or ?code=).
// POST /api/pair answers the table and a token of this tablet's own, stored where the tablet page
// reads it (localStorage "cuehub.token.{table_id}"); then the tablet page of that table opens.
// The request carries X-Requested-With, so a browser signed in at the desk pairs with the desk's
// credential and is never refused by that budget.
import { t, applyI18n, onLangChange } from "./i18n.js";
import { el, header } from "./ui.js";
import { spacedCode } from "./desk-ui.js";

const DIGITS = 6;
const GO_AFTER_MS = 1500;

header("pair_title");
document.getElementById("conn")?.classList.add("hidden"); // nothing live here
const app = document.getElementById("app");

const input = el("input", {
  id: "pair-code", type: "text", inputmode: "numeric", autocomplete: "one-time-code", maxlength: 9,
  pattern: "[0-9 ]*", required: true, "aria-describedby": "pair-help", placeholder: "000 000",
});
const submit = el("button", { class: "btn primary big", id: "pair-submit", type: "submit", "data-i18n": "pair_submit" });
const message = el("p", { class: "notice hidden", id: "pair-message", role: "alert" });
const form = el("form", { id: "pair-form", onsubmit: (e) => { e.preventDefault(); pair(input.value); } },
  el("label", { class: "field" }, el("span", { class: "field-label", "data-i18n": "pair_code_label" }), input), submit);
const done = el("section", { class: "card paired hidden", id: "paired" });
const ask = el("section", { class: "card pair", id: "pair" },
  el("h2", { "data-i18n": "pair_heading" }),
  el("p", { class: "muted", id: "pair-help", "data-i18n": "pair_help" }),
  form, message);
app.append(ask, done);
applyI18n(document);

let busy = false;
let paired = null;

function say(key, vars) {
  message.textContent = key ? t(key, vars) : "";
  message.className = `notice err${key ? "" : " hidden"}`;
}

async function pair(raw) {
  const code = String(raw || "").replace(/[\s-]/g, "");
  if (!new RegExp(`^\\d{${DIGITS}}$`).test(code)) { say("pair_digits"); input.focus(); return; }
  await send({ code }, "pair_wrong");
}

async function send(body, wrongKey) {
  if (busy) return;
  busy = true;
  submit.disabled = true;
  submit.textContent = t("pair_pairing");
  say(null);
  try {
    const r = await fetch("/api/pair", {
      method: "POST", cache: "no-store", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-Requested-With": "cuehub" },
    });
    const data = await r.json().catch(() => null);
    if (r.ok && data && data.table_id && data.token) {
      finish(data);
      return;
    }
    if (r.status === 429) say("desk_too_many", { s: Number(r.headers.get("Retry-After")) || 1 });
    else if (r.status === 404) say(wrongKey);
    else say("desk_error", { msg: (data && data.error && data.error.message) || r.status });
  } catch (_) {
    say("desk_network");
  }
  busy = false;
  submit.disabled = false;
  submit.textContent = t("pair_submit");
  input.select();
}

function finish(data) {
  paired = data;
  localStorage.setItem(`cuehub.token.${data.table_id}`, data.token);
  const target = `/tablet/${encodeURIComponent(data.table_id)}`;
  ask.classList.add("hidden");
  done.classList.remove("hidden");
  paintDone();
  document.body.dataset.paired = data.table_id;
  setTimeout(() => location.assign(target), GO_AFTER_MS);
}

function paintDone() {
  if (!paired) return;
  done.replaceChildren(
    el("p", { class: "muted", text: t("pair_done") }),
    el("p", { class: "paired-name", id: "paired-name", text: paired.name }),
    el("a", { class: "btn primary big", href: `/tablet/${encodeURIComponent(paired.table_id)}`, text: t("pair_go") }));
}

onLangChange(() => {
  paintDone();
  if (!busy) submit.textContent = t("pair_submit");
});

// A secret from the QR (#secret=), or a code (#code=, ?code=), is taken out of the address bar at
// once, then used.
function fromUrl() {
  const url = new URL(location.href);
  const hash = new URLSearchParams(url.hash.replace(/^#/, ""));
  const found = { secret: hash.get("secret"), code: hash.get("code") || url.searchParams.get("code") };
  if (found.secret || found.code) {
    url.searchParams.delete("code");
    hash.delete("code");
    hash.delete("secret");
    const h = hash.toString();
    history.replaceState(null, "", url.pathname + url.search + (h ? `#${h}` : ""));
  }
  return found;
}

const given = fromUrl();
if (given.secret) {
  send({ secret: given.secret }, "pair_link_wrong");
} else if (given.code) {
  input.value = spacedCode(given.code.replace(/\D/g, ""));
  pair(given.code);
} else {
  input.focus();
}

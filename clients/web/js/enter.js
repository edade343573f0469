// /enter/{tid}: a player signs up for a tournament on their phone, without an account
// (PROTOCOL.md section 14), then sees their own entry: status, waitlist place, check-in button
// and countdown, cancel. The entry's secret lives in the page's fragment (#secret=...: never sent
// to the hub in a request line, so never in a log); the page's link is the entry. It is also kept
// in this browser (localStorage "cuehub.entry.{tid}") so /enter/{tid} opened again finds it.
// The entry is read again every few seconds: a promotion off the waitlist shows by itself.
import { t, hasText, applyI18n, onLangChange } from "./i18n.js";
import { el, header, pathId, confirmDialog } from "./ui.js";
import { timeOfDay } from "./desk-ui.js";

const POLL_MS = 5000;
const tid = pathId();
const enc = encodeURIComponent;
const storeKey = `cuehub.entry.${tid}`;

header("enter_title");
document.getElementById("conn")?.classList.add("hidden"); // nothing live here: a poll
const app = document.getElementById("app");
const heading = el("h2", { id: "en-heading" });
const info = el("p", { class: "muted", id: "en-info" });
const message = el("p", { class: "notice hidden", id: "en-message", role: "alert" });
const nameInput = el("input", { id: "en-name", type: "text", maxlength: 100, autocomplete: "name", required: true });
const clubInput = el("input", { id: "en-club", type: "text", maxlength: 100, autocomplete: "organization" });
const contactInput = el("input", { id: "en-contact", type: "text", maxlength: 200, autocomplete: "tel" });
const submit = el("button", { class: "btn primary big", id: "en-submit", type: "submit", "data-i18n": "en_submit" });
const form = el("form", { id: "en-form", class: "hidden", onsubmit: (e) => { e.preventDefault(); signUp(); } },
  label("en_name", nameInput), label("en_club", clubInput), label("en_contact", contactInput), submit);
const mine = el("section", { class: "card en-mine hidden", id: "en-mine" });
app.append(el("section", { class: "card en-top" }, heading, info, form, message), mine);
applyI18n(document);

let tour = null;
let reg = null;
let entry = null;
let secret = null;
let lost = false;
let missing = false;

function label(key, input) {
  return el("label", { class: "field" }, el("span", { class: "field-label", "data-i18n": key }), input);
}

function say(text, kind = "err") {
  message.textContent = text || "";
  message.className = `notice ${kind}${text ? "" : " hidden"}`;
}

function refusal(data, status) {
  const code = data && data.error && data.error.code;
  if (status === 429) return t("desk_too_many", { s: 1 });
  if (code && code !== "bad_request" && hasText(`en_err_${code}`)) return t(`en_err_${code}`);
  if (code === "bad_request") return t("en_err_bad_request", { msg: data.error.message });
  return t("desk_error", { msg: (data && data.error && data.error.message) || status });
}

async function call(method, path, body, withSecret = false) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (withSecret) headers.Authorization = `Bearer ${secret}`;
  const r = await fetch(path, { method, headers, cache: "no-store", credentials: "omit",
    body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await r.json().catch(() => null);
  if (r.status === 429) return { ok: false, status: 429, data, retry: Number(r.headers.get("Retry-After")) || 1 };
  return { ok: r.ok, status: r.status, data };
}

function secretFromUrl() {
  const hash = new URLSearchParams(location.hash.replace(/^#/, ""));
  return hash.get("secret");
}

function keepSecret(value) {
  secret = value;
  history.replaceState(null, "", `${location.pathname}${location.search}#secret=${value}`);
  try { localStorage.setItem(storeKey, value); } catch (_) { /* storage may be blocked */ }
}

async function signUp() {
  const name = nameInput.value.trim();
  if (!name) { nameInput.focus(); return; }
  submit.disabled = true;
  submit.textContent = t("en_sending");
  say(null);
  try {
    const r = await call("POST", `/api/tournaments/${enc(tid)}/entries`,
      { name, club: clubInput.value.trim() || null, contact: contactInput.value.trim() || null });
    if (r.ok) {
      keepSecret(r.data.secret);
      await loadMine();
    } else if (r.status === 429) {
      say(t("desk_too_many", { s: r.retry }));
    } else {
      say(refusal(r.data, r.status));
    }
  } catch (_) {
    say(t("desk_network"));
  }
  submit.disabled = false;
  submit.textContent = t("en_submit");
}

async function loadMine() {
  const r = await call("GET", "/api/entries/self", undefined, true);
  if (r.ok) { entry = r.data; reg = r.data.registration; lost = false; } else if (r.status === 404) { lost = true; entry = null; }
  paint();
}

async function loadPublic() {
  const [tr, rr] = await Promise.all([call("GET", `/api/tournaments/${enc(tid)}`), call("GET", `/api/tournaments/${enc(tid)}/registration`)]);
  if (tr.status === 404) { missing = true; paint(); return; }
  if (tr.ok) tour = tr.data;
  if (rr.ok) reg = rr.data;
  paint();
}

async function act(button, method, path) {
  button.disabled = true;
  try {
    const r = await call(method, path, undefined, true);
    if (r.ok) { entry = r.data; reg = r.data.registration; say(null); } else say(refusal(r.data, r.status));
  } catch (_) {
    say(t("desk_network"));
  }
  button.disabled = false;
  paint();
}

function clock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, "0");
  return `${h ? `${h}:` : ""}${mm}:${String(s % 60).padStart(2, "0")}`;
}

function regLine() {
  if (!reg) return "";
  const parts = [];
  if (!reg.accepting) parts.push(t(reg.open ? "en_closed" : "en_not_open"));
  else if (reg.closes_at) parts.push(t("en_closes_at", { time: timeOfDay(reg.closes_at) }));
  if (reg.cap) parts.push(t("en_spots", { n: reg.counts.accepted, cap: reg.cap }));
  else if (reg.counts.accepted) parts.push(t("en_taken", { n: reg.counts.accepted }));
  return parts.join(" ");
}

function checkInLine() {
  const w = reg && reg.check_in;
  if (!w || !entry || !["accepted", "checked_in"].includes(entry.status)) return null;
  const now = Date.now();
  if (reg.check_in_closed || now >= w.closes_at) return { text: t("en_check_in_closed"), open: false };
  if (w.opens_at && now < w.opens_at) return { text: t("en_check_in_opens", { time: timeOfDay(w.opens_at) }), open: false };
  return { text: t("en_check_in_left", { time: clock(w.closes_at - now) }), open: true };
}

function paintMine() {
  const statusText = t(`en_status_${entry.status}`, { place: entry.place ?? "" });
  const ci = checkInLine();
  const checkIn = el("button", { class: "btn primary big", id: "en-check-in", type: "button", text: t("en_check_in") });
  checkIn.addEventListener("click", () => act(checkIn, "POST", "/api/entries/self/check_in"));
  const cancel = el("button", { class: "btn danger", id: "en-cancel", type: "button", text: t("en_cancel") });
  cancel.addEventListener("click", async () => {
    if (await confirmDialog(t("en_cancel_confirm"))) act(cancel, "DELETE", "/api/entries/self");
  });
  const copy = el("button", { class: "btn", id: "en-copy", type: "button", text: t("en_copy_link") });
  copy.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(location.href); say(t("en_copied"), "ok"); } catch (_) { say(location.href, "info"); }
  });
  mine.replaceChildren(...[
    el("h3", { text: t("en_your_entry") }),
    el("p", { class: "en-name", id: "en-entry-name" }, el("bdi", { text: entry.name }),
      entry.club ? el("span", { class: "muted", text: ` · ${entry.club}` }) : null),
    el("p", { class: `en-status st-${entry.status}`, id: "en-status", dataset: { status: entry.status }, text: statusText }),
    entry.promoted && entry.status === "accepted" ? el("p", { class: "notice ok", id: "en-promoted", text: t("en_promoted") }) : null,
    ci ? el("p", { class: "en-countdown", id: "en-countdown", text: ci.text }) : null,
    ci && ci.open && entry.status === "accepted" ? checkIn : null,
    el("p", { class: "muted small", id: "en-keep", text: t("en_keep_link") }),
    el("div", { class: "en-actions" }, copy,
      ["pending", "accepted", "waitlisted", "checked_in"].includes(entry.status) ? cancel : null),
  ].filter(Boolean));
}

function paint() {
  document.body.dataset.ready = "1";
  if (missing) {
    heading.textContent = t("en_no_tournament");
    info.textContent = "";
    form.classList.add("hidden");
    return;
  }
  heading.textContent = t("en_heading", { name: (tour && tour.name) || tid });
  info.textContent = regLine();
  if (entry) {
    form.classList.add("hidden");
    mine.classList.remove("hidden");
    paintMine();
    return;
  }
  mine.classList.add("hidden");
  if (lost) say(t("en_lost"));
  form.classList.toggle("hidden", !(reg && reg.accepting));
}

async function start() {
  secret = secretFromUrl();
  if (!secret) {
    try { secret = localStorage.getItem(storeKey); } catch (_) { secret = null; }
    if (secret) history.replaceState(null, "", `${location.pathname}${location.search}#secret=${secret}`);
  }
  await loadPublic().catch(() => say(t("desk_network")));
  if (secret) await loadMine().catch(() => say(t("desk_network")));
  setInterval(() => {
    if (document.hidden) return;
    if (secret) loadMine().catch(() => {});
    else loadPublic().catch(() => {});
  }, POLL_MS);
  setInterval(() => { if (entry) { const n = document.getElementById("en-countdown"); const ci = checkInLine(); if (n && ci) n.textContent = ci.text; } }, 1000);
}

onLangChange(() => { paint(); submit.textContent = t("en_submit"); });
window.addEventListener("hashchange", () => { const s = secretFromUrl(); if (s && s !== secret) { secret = s; loadMine(); } });
start();

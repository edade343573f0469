// The table's token on the tablet: taken from the link it was opened with (`?token=` or `#token=`,
// then removed from the address bar), kept in localStorage under the table's key, and asked for
// when there is none or the hub refused it.
import { el, setConn } from "./ui.js";

let onSaved = null; // {key, connect}: where a typed token goes (askToken says)

export const tokenPanel = el("section", { class: "card token hidden", id: "token-panel" },
  el("h2", { "data-i18n": "token_prompt" }),
  el("p", { class: "muted", "data-i18n": "token_help" }),
  el("p", { class: "err hidden", id: "token-error", "data-i18n": "token_bad" }),
  el("form", { id: "token-form", onsubmit: (e) => { e.preventDefault(); saveToken(); } },
    el("input", { id: "token-input", type: "password", autocomplete: "off", required: true, "data-i18n-placeholder": "token_prompt" }),
    el("button", { class: "btn primary", type: "submit", id: "token-save", "data-i18n": "token_save" })));

/** The token the tablet was opened with (kept under `key`, and taken off the address), else the one kept. */
export function takeTokenFromUrl(key) {
  const url = new URL(location.href);
  let token = url.searchParams.get("token");
  const hash = new URLSearchParams(url.hash.replace(/^#/, ""));
  if (!token && hash.get("token")) token = hash.get("token");
  if (token) {
    localStorage.setItem(key, token);
    url.searchParams.delete("token");
    hash.delete("token");
    const h = hash.toString();
    history.replaceState(null, "", url.pathname + url.search + (h ? `#${h}` : ""));
  }
  return localStorage.getItem(key);
}

/** Ask for the token (`bad`: the last one was refused); a typed one is kept under `key` and `connect`ed with. */
export function askToken(bad, key, connect) {
  onSaved = { key, connect };
  tokenPanel.classList.remove("hidden");
  document.getElementById("token-error").classList.toggle("hidden", !bad);
  setConn("auth");
  document.getElementById("token-input").focus();
}

function saveToken() {
  const v = /** @type {HTMLInputElement} */ (document.getElementById("token-input")).value.trim();
  if (!v || !onSaved) return;
  localStorage.setItem(onSaved.key, v);
  tokenPanel.classList.add("hidden");
  onSaved.connect(v);
}

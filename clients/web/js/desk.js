// The organiser's desk: /desk (sign-in, tournaments), /desk/{tid}/{step} (a tournament's steps).
// Views are plain objects {mount(root), paint(), unmount()}; the URL is the state (history API),
// so reload, back and forward work and a link can be shared.
import { t, onLangChange } from "./i18n.js";
import { el, header } from "./ui.js";
import { session, whenSignedOut } from "./desk-api.js";
import { signInView } from "./desk-signin.js";
import { tournamentsView } from "./desk-tournaments.js";
import { tournamentView } from "./desk-tournament.js";
import { errorText } from "./desk-ui.js";

const signOutButton = el("button", {
  class: "btn small hidden", id: "signout", type: "button", "data-i18n": "desk_signout", onclick: () => signOut(),
});
header("desk_title", [signOutButton]);
// The print stylesheet (table cards) comes after desk.css, so its rules win when printing.
document.head.append(el("link", { rel: "stylesheet", href: "/static/css/print.css", media: "print" }));
const app = document.getElementById("app");
app.classList.add("desk-app");
// Nothing on the desk is live yet (no socket): the connection light would only say "Live" falsely.
document.getElementById("conn")?.classList.add("hidden");

let signedIn = false;
let view = null;
let viewKey = "";

/** /desk -> {tid: null}; /desk/{tid} -> {tid, step: null}; /desk/{tid}/{step} -> {tid, step} */
function route() {
  const parts = location.pathname.split("/").filter(Boolean).slice(1).map((p) => decodeURIComponent(p));
  return { tid: parts[0] || null, step: parts[1] || null, extra: parts.length > 2 };
}

export function navigate(url, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  render();
}

function show(key, make) {
  if (view && viewKey === key) return;
  if (view) view.unmount?.();
  view = make();
  viewKey = key;
  app.replaceChildren();
  view.mount(app);
}

function render() {
  signOutButton.classList.toggle("hidden", !signedIn);
  if (!signedIn) {
    show("signin", () => signInView({ onSignedIn: () => { signedIn = true; render(); } }));
    return;
  }
  const r = route();
  if (!r.tid) show("list", () => tournamentsView({ navigate, onSignedOutEverywhere: () => {
    signedIn = false;
    render();
    view.say?.(t("desk_signed_out_all"), "ok");
  } }));
  else show(`t:${r.tid}`, () => tournamentView({ navigate, tid: r.tid }));
  view.route?.(r);
}

async function signOut() {
  try {
    await session.signOut();
  } catch (_) { /* the cookie is cleared by the hub even when the session was already gone */ }
  signedIn = false;
  render();
  view.say?.(t("desk_signed_out"), "ok");
}

whenSignedOut(() => {
  signedIn = false;
  render();
  view.say?.(t("desk_session_ended"), "err");
});

// Links inside the desk move without a reload.
document.addEventListener("click", (/** @type {any} */ e) => {
  const a = e.target.closest && e.target.closest("a[data-nav]");
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(a.getAttribute("href"));
});
window.addEventListener("popstate", render);
onLangChange(() => view && view.paint());

async function start() {
  try {
    const s = await session.state();
    signedIn = Boolean(s && s.signed_in);
    document.body.dataset.desk = "ready";
    render();
  } catch (e) {
    app.replaceChildren(el("section", { class: "card" },
      el("p", { class: "notice err", id: "desk-offline", text: errorText(e) }),
      el("button", { class: "btn", type: "button", text: "↻", onclick: start })));
  }
}

start();

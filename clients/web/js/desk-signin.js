// Sign-in: the admin token goes in the body of POST /api/session, nowhere else. The form has
// method=post so that even without this script the token could never end up in the URL.
import { t, applyI18n } from "./i18n.js";
import { el } from "./ui.js";
import { session } from "./desk-api.js";
import { say, noticeLine } from "./desk-ui.js";

export function signInView({ onSignedIn }) {
  let root = null;
  let busy = false;
  const input = el("input", {
    id: "signin-token", type: "password", autocomplete: "off", autocapitalize: "off", spellcheck: "false",
    required: true, name: "token",
  });
  const submit = el("button", { class: "btn primary", id: "signin-submit", type: "submit" });
  const message = noticeLine("signin-message");

  function paint() {
    if (!root) return;
    submit.textContent = t(busy ? "desk_checking" : "desk_signin");
    submit.disabled = busy;
    applyI18n(root);
  }

  async function onSubmit(e) {
    e.preventDefault();
    const token = input.value.trim();
    if (!token || busy) return;
    busy = true;
    say(message, "");
    paint();
    try {
      await session.signIn(token);
      input.value = "";
      busy = false;
      onSignedIn();
      return;
    } catch (err) {
      if (err.status === 401) say(message, t("desk_wrong_token"), "err");
      else if (err.status === 429) say(message, t("desk_too_many", { s: err.retryAfter || 1 }), "err");
      else say(message, t(err.status === 0 ? "desk_network" : "desk_error", { msg: err.message }), "err");
      input.select();
    }
    busy = false;
    paint();
  }

  return {
    mount(node) {
      root = el("section", { class: "card signin", id: "signin" },
        el("h2", { "data-i18n": "desk_signin_title" }),
        el("p", { class: "muted", "data-i18n": "desk_signin_help" }),
        el("form", { id: "signin-form", method: "post", action: "/api/session", onsubmit: onSubmit },
          el("label", { class: "field" }, el("span", { class: "field-label", "data-i18n": "desk_token_label" }), input),
          submit),
        message);
      node.append(root);
      paint();
      input.focus();
    },
    paint,
    say: (text, kind) => say(message, text, kind),
    unmount() { root = null; },
  };
}

// /desk/{tid}/{step}: one tournament: the steps of the event on the side (or on top on a narrow
// screen), the current step's view beside them. The steps are listed in desk-steps.js.
import { t } from "./i18n.js";
import { el, fill, setConn } from "./ui.js";
import { Watch } from "./live.js";
import { followTournament } from "./tournament_feed.js";
import { hub } from "./desk-api.js";
import { STEPS, startStep } from "./desk-steps.js";
import { errorText, say, noticeLine, knowNames } from "./desk-ui.js";

const enc = encodeURIComponent;

export function tournamentView({ navigate, tid }) {
  let tour = null; // the tournament projection (PROTOCOL.md section 5)
  let missing = false;
  let failure = null;
  let stepKey = null;
  let routeKey = null; // the step and the query (cards?table=...)
  let stepView = null;
  let watch = null; // the tournament: channel: every change, whoever made it, reaches the steps
  let pendingStart = false; // /desk/{tid}: the step is chosen once the tournament is known
  const nav = el("nav", { class: "desk-nav", id: "desk-nav" });
  const head = el("div", { class: "desk-head", id: "desk-head" });
  const pane = el("div", { class: "desk-pane", id: "desk-pane" });
  const message = noticeLine("desk-message");
  const frame = el("div", { class: "desk-frame" }, nav, el("div", { class: "desk-main" }, head, message, pane));

  const ctx = {
    tid,
    navigate,
    tournament: () => tour,
    reload: () => load(),
    say: (text, kind) => say(message, text, kind),
  };

  async function load() {
    try {
      const fresh = await hub.tournament(tid);
      // The channel may have brought a newer projection while this answer was on its way; and a
      // big draw's GET holds only a page of its matches (the channel's snapshot has them all).
      const partial = Boolean(fresh.draw && fresh.draw.matches_page && fresh.draw.matches_page.next !== null);
      if (!tour || (!partial && (typeof fresh.version !== "number" || typeof tour.version !== "number" || fresh.version >= tour.version))) tour = fresh;
      missing = false;
      failure = null;
    } catch (e) {
      if (e.status === 404) missing = true;
      else failure = e;
    }
    arrived();
  }

  function arrived() {
    knowNames(tour);
    paintFrame();
    if (pendingStart && tour) {
      pendingStart = false;
      navigate(`/desk/${enc(tid)}/${startStep(tour)}`, { replace: true });
      return;
    }
    if (stepView) stepView.update?.();
    else openStep();
  }

  function follow() {
    const conn = document.getElementById("conn");
    conn?.classList.remove("hidden");
    watch = new Watch({ onStatus: (s) => { setConn(s); document.body.dataset.conn = s; } });
    followTournament(watch, tid, (data) => {
      if (!data || (tour && typeof data.version === "number" && typeof tour.version === "number" && data.version < tour.version)) return;
      tour = data;
      missing = false;
      failure = null;
      arrived();
    }, { onError: (code) => { if (code === "unknown_channel") { missing = true; paintFrame(); } } });
  }

  function openStep() {
    if (!tour || !stepKey) return;
    const step = STEPS.find((s) => s.key === stepKey);
    stepView?.unmount?.();
    stepView = null;
    pane.replaceChildren();
    if (!step) {
      pane.append(el("section", { class: "card" },
        el("p", { class: "notice err", id: "not-found", text: t("desk_not_found_step", { step: stepKey }) })));
      return;
    }
    stepView = step.view(ctx);
    stepView.mount(pane);
  }

  /** What a step holds so far, beside its name: players and tables counted, the draw made. */
  function stepBadge(key) {
    if (!tour) return "";
    if (key === "players") return (tour.players || []).length ? String((tour.players || []).filter((p) => p.status !== "withdrawn").length) : "";
    if (key === "tables") return (tour.tables || []).length ? String(tour.tables.length) : "";
    if (key === "draw") return tour.draw ? "✓" : "";
    if (key === "run") return tour.draw && tour.draw.status === "finished" ? "★" : "";
    return "";
  }

  function paintFrame() {
    if (missing) {
      nav.classList.add("hidden");
      fill(head);
      fill(pane, el("section", { class: "card" },
        el("p", { class: "notice err", id: "not-found", text: t("desk_not_found_tournament", { id: tid }) }),
        el("a", { class: "btn", href: "/desk", "data-nav": true, text: t("desk_back") })));
      return;
    }
    nav.classList.remove("hidden");
    fill(nav,
      el("a", { class: "nav-back", href: "/desk", "data-nav": true, title: t("desk_back") },
        el("span", { "aria-hidden": "true", text: "←" }), el("span", { class: "nav-back-label", text: t("desk_back") })),
      el("ol", { class: "steps", "aria-label": t("desk_nav") }, STEPS.map((s, i) => el("li", {},
        el("a", {
          class: `step${s.key === stepKey ? " current" : ""}`,
          href: `/desk/${enc(tid)}/${s.key}`, "data-nav": true, dataset: { step: s.key },
          "aria-current": s.key === stepKey ? "page" : null,
        },
        el("span", { class: "step-n", text: s.numbered ? String(i + 1) : "▦" }),
        el("span", { class: "step-name", text: t(s.title) }),
        stepBadge(s.key) ? el("span", { class: "step-badge", dataset: { badge: s.key }, text: stepBadge(s.key) }) : null)))));
    fill(head, failure ? el("p", { class: "notice err", text: errorText(failure) }) : null,
      tour ? el("h1", { class: "tour-title", id: "tour-title", text: tour.name }) : el("p", { class: "muted", text: t("loading") }),
      // The big screen's link, once for every step (the run step's own line links the bracket and results).
      tour ? el("a", { class: "muted small", id: "board-link", href: `/board/${enc(tid)}`, target: "_blank", rel: "noopener", text: t("scoreboard") }) : null);
  }

  return {
    mount(node) {
      node.append(frame);
      paintFrame();
      load();
      follow();
    },
    route(r) {
      if (!r.step) {
        if (tour) navigate(`/desk/${enc(tid)}/${startStep(tour)}`, { replace: true });
        else pendingStart = true;
        return;
      }
      const key = (r.extra ? `${r.step}/…` : r.step) + location.search;
      if (key === routeKey) return;
      routeKey = key;
      stepKey = r.extra ? `${r.step}/…` : r.step;
      say(message, "");
      paintFrame();
      openStep();
    },
    paint() {
      paintFrame();
      stepView?.paint?.();
    },
    say: ctx.say,
    unmount() {
      stepView?.unmount?.();
      stepView = null;
      watch?.close();
      watch = null;
      document.getElementById("conn")?.classList.add("hidden");
    },
  };
}

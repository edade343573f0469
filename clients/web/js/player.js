// A player's page: /player/{tournament_id}/{player_id} — for the player in the hall and their fans.
// Their name, club, seed and standing; the next match with its opponent and where it stands
// ("Called to Table 4", "Up next #2", "Waiting for the winner of W2-3"); its live score while it is
// played (the `match:` channel of that match); every match of theirs in this event with its score.
// "Follow" makes the page announce the call (player-follow.js). Live over /ws/watch, no reload.
//
// The page is a function of the whole tournament projection: `showProjection(p)` is all the feed
// calls (a feed that applies deltas and hands over the whole projection replaces `subscribe` alone).
import { t, tc, onLangChange } from "./i18n.js";
import { Watch } from "./live.js";
import { followTournament } from "./tournament_feed.js";
import { el, fill, header, isolated, setConn, notFoundCard, membersLine } from "./ui.js";
import { DECIDED, drawContext, matchRoundName, nextMatch, playerMatches, slotLabels, scoreOf, matchState, raceText } from "./draw-view.js";
import { Follow } from "./player-follow.js";
import { rubberList, teamScoreText } from "./team-view.js";
import { toProfile } from "./people-view.js";

const parts = location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
const tid = parts[1] || "";
const pid = parts[2] || "";
header("player_title", [
  el("a", { class: "btn small", id: "bracket-link", href: `/bracket/${encodeURIComponent(tid)}?player=${encodeURIComponent(pid)}`,
    "data-i18n": "pl_bracket" }),
]);
const app = document.getElementById("app");
const follow = new Follow(tid, pid);
const head = el("section", { class: "card pl-head", id: "pl-head" }, el("p", { class: "muted", text: t("loading") }));
const nextCard = el("section", { class: "card pl-next", id: "pl-next", "aria-live": "polite" });
const list = el("section", { class: "card pl-matches", id: "pl-matches" });
app.append(follow.banner, head, nextCard, list);

let proj = null;
let found = true;
let live = null; // {mid, match}: the full projection of the match being played (its match: channel)

const watch = new Watch({ onStatus: (s) => { if (!found) return; setConn(s); document.body.dataset.conn = s; } });

/** The whole projection, from whatever feed. */
function showProjection(data) {
  proj = data;
  document.body.dataset.version = String(data.version ?? "");
  render();
}
followTournament(watch, tid, showProjection,
  { onError: (code) => { if (code === "unknown_channel") notFound("no_such_tournament", tid); } });

function notFound(key, id) {
  found = false;
  watch.close();
  fill(app, notFoundCard(key, id));
}

/** Follow the match channel of the player's called match (its full live score), and only that one. */
function followMatch(mid) {
  if (live && live.mid === mid) return;
  if (live) watch.unsubscribe(`match:${live.mid}`);
  live = mid ? { mid, match: null } : null;
  if (!mid) return;
  watch.subscribe(`match:${mid}`, (m) => {
    if (!live || live.mid !== mid) return;
    live.match = m;
    renderNext();
  });
}

function nameOf(ctx, id) { const p = ctx.players.get(id); return p ? p.name : String(id); }

/** A player's name node leading to their profile (/people/{id}) where the entry has a person. */
function linked(ctx, id, node) { const p = ctx.players.get(id); return toProfile(p && p.person, node); }

// ---------------------------------------------------------------- the header card
function headCard(p) {
  return [
    el("h1", { class: "pl-name" }, toProfile(p.person, el("bdi", { id: "pl-name", text: p.name }))),
    membersLine(p), // a team's members (a doubles side)
    el("div", { class: "pl-facts" },
      p.club ? el("bdi", { class: "pl-club", id: "pl-club", text: p.club }) : null,
      p.seed ? el("span", { class: "pl-seed", id: "pl-seed", text: t("pl_seed", { n: p.seed }) }) : null,
      el("span", { class: `badge pl-status st-${p.status}`, id: "pl-status", text: tc("pl_status", p.status) })),
    el("div", { class: "pl-follow" },
      el("button", { type: "button", class: `btn ${follow.on ? "on" : "primary"}`, id: "follow", "aria-pressed": follow.on ? "true" : "false",
        text: follow.on ? t("pl_following") : t("pl_follow"), onclick: () => { follow.toggle(); render(); } }),
      el("span", { class: "muted pl-follow-hint" }, isolated(t("pl_follow_hint", { name: p.name }), p.name))),
  ];
}

// ---------------------------------------------------------------- the next match
function liveScore(nxt, ctx) {
  const m = live && live.match && live.match.id === nxt.m.match_id ? live.match
    : (ctx.live.get(nxt.m.match_id) || {}).match;
  if (!m || m.status === "scheduled") return null;
  return el("div", { class: "pl-live", id: "live-score" },
    el("div", { class: "pl-live-label", text: `${t("pl_live_score")}${m.rack && m.rack.number ? ` · ${t("pl_rack_n", { n: m.rack.number })}` : ""}` }),
    (m.players || []).map((x) => el("div", { class: `pl-live-row${x.id === pid ? " me" : ""}`, dataset: { player: x.id } },
      linked(ctx, x.id, el("bdi", { class: "name", text: (ctx.players.get(x.id) || x).name || x.name })),
      membersLine(x, m.status === "live" ? (m.rack || {}).member : null),
      el("span", { class: "score", text: String(x.score ?? 0) }))));
}

function renderNext() {
  if (!proj) return;
  const ctx = drawContext(proj);
  const nxt = proj.draw ? nextMatch(proj, ctx, pid) : null;
  followMatch(nxt && (nxt.state === "called" || nxt.state === "playing") ? nxt.m.match_id : null);
  nextCard.dataset.state = nxt ? nxt.state : "none";
  nextCard.dataset.key = nxt ? nxt.m.key : "";
  if (!nxt) { fill(nextCard, el("h2", { class: "section-title", text: t("pl_next_match") }), el("p", { class: "muted", id: "next-state", text: proj.draw ? t("pl_no_next") : t("pl_no_matches") })); return; }
  const opponentName = nxt.opponent ? nameOf(ctx, nxt.opponent) : null;
  const round = roundName(nxt.m);
  fill(nextCard,
    el("h2", { class: "section-title", text: t("pl_next_match") }),
    el("div", { class: `pl-state st-${nxt.state}`, id: "next-state" }, isolated(nxt.text, nxt.table)),
    el("div", { class: "pl-vs" },
      el("span", { class: "muted", text: `${t("pl_vs")} ` }),
      opponentName ? linked(ctx, nxt.opponent, el("bdi", { class: "name", id: "next-opponent", text: opponentName }))
        : el("span", { class: "muted", id: "next-opponent", text: nxt.opponentText || t("br_tbd") })),
    nxt.stage ? null : el("div", { class: "muted pl-where", text: [round, nxt.m.key].filter(Boolean).join(" · ") }),
    liveScore(nxt, ctx),
    nxt.m.match_id ? el("a", { class: "btn small", id: "watch-link", href: `/watch/${encodeURIComponent(nxt.m.match_id)}`, text: t("pl_watch") }) : null);
  const me = ctx.players.get(pid);
  if (nxt.state === "playing" && document.body.dataset.called === nxt.m.key) follow.dismiss(); // they found the table
  follow.consider(nxt.state === "called" || nxt.state === "playing" ? { ...nxt, state: "called", opponentName } : nxt, me ? me.name : pid);
}

/** A match's round named as the bracket and the board name it (one helper for every page). */
function roundName(m) {
  return matchRoundName(proj.draw, m);
}

// ---------------------------------------------------------------- every match of theirs
function matchRow(m, ctx) {
  const labels = slotLabels(m, ctx);
  const other = labels.find((l) => l.pid !== pid) || {};
  const mine = scoreOf(m, pid, ctx);
  const theirs = other.pid ? scoreOf(m, other.pid, ctx) : null;
  const decided = DECIDED.includes(m.status);
  const st = matchState(m, ctx);
  const result = m.status === "bye" ? t("br_bye") : st.names ? isolated(st.text, st.names)
    : decided && m.winner ? (m.winner === pid ? t("pl_won") : t("pl_lost")) : isolated(st.text, st.table);
  const cls = decided && m.winner ? (m.winner === pid ? "won" : "lost") : m.status;
  return el("li", { class: `pl-m ${cls}`, dataset: { key: m.key, status: m.status } },
    el("span", { class: "pl-m-round", text: [roundName(m), m.key, raceText(m, ctx)].filter(Boolean).join(" · ") }),
    el("span", { class: "pl-m-vs" }, el("span", { class: "muted", text: `${t("pl_vs")} ` }),
      other.pid ? linked(ctx, other.pid, el("bdi", { class: "name", text: nameOf(ctx, other.pid) })) : el("span", { class: "muted", text: other.text || "" })),
    el("span", { class: "pl-m-score", text: mine !== null && mine !== undefined ? `${mine}–${theirs ?? 0}` : m.status === "walkover" ? t("br_wo_short") : "" }),
    el("span", { class: `pl-m-result ${cls}` }, result),
    m.team ? el("div", { class: "pl-m-team" }, el("span", { class: "tm-total", text: teamScoreText(m) }), rubberList(m, ctx)) : null);
}

/** A team's page: its members, the captain marked (PROTOCOL.md section 15). */
function membersNode(p) {
  return el("div", { class: "pl-members", id: "pl-members" },
    el("h2", { class: "section-title", text: t("tm_members") }),
    el("ul", {}, p.members.map((m, i) => el("li", { dataset: { member: m.id } }, el("bdi", { text: m.name }),
      i === p.captain ? el("span", { class: "muted", text: ` · ${t("tm_captain")}` }) : null,
      m.club ? el("bdi", { class: "muted", text: ` · ${m.club}` }) : null))));
}

// ---------------------------------------------------------------- render
function render() {
  if (!found || !proj) return;
  const ctx = drawContext(proj);
  const p = ctx.players.get(pid);
  if (!p) { notFound("pl_unknown", pid); return; }
  document.title = `${p.name} · ${proj.name || ""} · cuehub`;
  document.body.dataset.player = pid;
  fill(head, headCard(p), el("div", { class: "muted pl-event", text: proj.name || "" }), p.members ? membersNode(p) : null);
  renderNext();
  const mine = playerMatches(proj, pid).filter((m) => m.status !== "waiting" || (m.players || []).includes(pid));
  fill(list, el("h2", { class: "section-title", text: t("pl_matches") }),
    mine.length ? el("ol", { class: "pl-list", id: "pl-list" }, mine.map((m) => matchRow(m, ctx)))
      : el("p", { class: "muted", text: proj.draw ? t("pl_no_next") : t("pl_no_matches") }));
}

onLangChange(render);

// Index: / — the live matches, and the tournaments with what is live, next and finished (their
// brackets and scoreboards).
import { t, tc, onLangChange } from "./i18n.js";
import { getJSON } from "./live.js";
import { el, fill, header, isolated, setConn } from "./ui.js";

// The organiser's way in (sign-in, tournaments, tables, table cards).
header("index_title", [el("a", { class: "btn small people-link", href: "/people", id: "people-link", "data-i18n": "people_title" }),
  el("a", { class: "btn small desk-link", href: "/desk", id: "desk-link", "data-i18n": "desk_title" })]);
const app = document.getElementById("app");
const liveBox = el("section", { class: "card", id: "live" });
const tourBox = el("section", { class: "card", id: "tournaments" });
app.append(liveBox, tourBox);

let matches = null;
let tournaments = null;

async function load() {
  try {
    const [m, tr] = await Promise.all([getJSON("/api/matches?status=live"), getJSON("/api/tournaments")]);
    matches = m.matches || [];
    tournaments = tr.tournaments || [];
    setConn("live");
  } catch (_) {
    setConn("offline");
  }
  render();
}

function render() {
  fill(liveBox, el("h2", { text: t("index_title") }),
    matches === null ? el("p", { class: "muted", text: t("loading") })
      : !matches.length ? el("p", { class: "muted", id: "no-live", text: t("no_live") })
        : el("ul", { class: "matches", id: "matches" }, matches.map((m) => {
          const ps = m.players || [];
          return el("li", { dataset: { match: m.id } },
            el("a", { class: "m-main", href: `/watch/${encodeURIComponent(m.id)}` },
              el("span", { class: "names" }, ps.map((p, i) => [i ? el("span", { class: "vs", text: " – " }) : null, el("span", { class: "pname", text: p.name })])),
              el("span", { class: "score", text: ps.map((p) => p.score ?? 0).join(" : ") })),
            el("div", { class: "m-sub muted" },
              el("span", { text: `${tc("d", m.discipline)}${m.rack && m.rack.number ? ` · ${t("rack_n", { n: m.rack.number })}` : ""}` }),
              el("a", { href: `/watch/${encodeURIComponent(m.id)}`, text: t("watch") }),
              el("a", { href: `/commentator/${encodeURIComponent(m.id)}`, text: t("commentate") })));
        })));
  fill(tourBox, el("h2", { text: t("tournaments") }),
    !tournaments || !tournaments.length ? el("p", { class: "muted", text: t("nothing_yet") })
      : el("ul", { class: "tours", id: "tours" }, orderTournaments(tournaments).map(tournamentItem)));
}

// In progress first, then those taking entries, then the finished ones (newest first in each).
const STATUS_ORDER = { running: 0, setup: 1, finished: 2 };
function orderTournaments(list) {
  return list.map((tr, i) => [tr, i])
    .sort((a, b) => (STATUS_ORDER[a[0].status] ?? 1) - (STATUS_ORDER[b[0].status] ?? 1) || a[1] - b[1])
    .map(([tr]) => tr);
}

/** Both players, each name in a <bdi> (a right-to-left name never reorders the other). */
function vsNames(names) {
  return el("span", { class: "names" }, (names || []).map((n, i) => [i ? " – " : "",
    n === null || n === undefined ? t("br_tbd") : el("bdi", { text: n })]));
}

/** One tournament: its state, what is live, what is next, its champion; links to its bracket and board. */
function tournamentItem(tr) {
  const id = encodeURIComponent(tr.id);
  const status = tr.status || "setup";
  const live = tr.live || [];
  const next = tr.next || [];
  return el("li", { class: `tour st-${status}`, dataset: { tournament: tr.id, status } },
    el("div", { class: "t-head" },
      el("a", { class: "tname", href: `/bracket/${id}`, text: tr.name }),
      el("span", { class: `badge t-status ${status === "finished" ? "status-finished" : status === "running" ? "status-live" : ""}`,
        text: t(`ix_${status}`) })),
    el("div", { class: "t-sub muted" },
      tr.draw_type ? el("span", { text: tc("br_type", tr.draw_type) }) : null,
      tr.total ? el("span", { text: t("ix_progress", { done: tr.played ?? 0, total: tr.total }) }) : null,
      el("a", { class: "t-bracket", href: `/bracket/${id}`, text: t("bracket") }),
      el("a", { class: "t-board", href: `/board/${id}`, text: t("scoreboard") })),
    tr.champion ? el("div", { class: "t-champion" }, isolated(t("ix_champion", { name: tr.champion.name || "" }), tr.champion.name)) : null,
    !tr.champion && (tr.winners || []).length ? el("div", { class: "t-champion t-winners" }, `${t("br_group_winners")}: `,
      tr.winners.map((w, i) => [i ? " · " : "", `${t("br_group", { g: w.group })} `, el("bdi", { text: w.name || "" })])) : null,
    live.length ? el("div", { class: "t-live" },
      el("span", { class: "t-label", text: t("ix_live") }),
      el("ul", {}, live.map((m) => el("li", { dataset: { match: m.match_id } },
        el("a", { href: `/watch/${encodeURIComponent(m.match_id)}` },
          el("span", { class: "t-table muted", text: m.table || "" }),
          vsNames(m.players),
          el("span", { class: "score", text: (m.scores || []).map((x) => x ?? 0).join(" : ") })))))) : null,
    next.length && status === "running" ? el("div", { class: "t-next" },
      el("span", { class: "t-label", text: t("ix_next") }),
      el("ul", {}, next.map((m) => el("li", { dataset: { key: m.key } },
        m.match_id ? el("a", { href: `/watch/${encodeURIComponent(m.match_id)}` },
          el("span", { class: "t-table muted", text: m.table || "" }), vsNames(m.players))
          : el("span", {}, el("span", { class: "t-table muted", text: t("ix_queued") }), vsNames(m.players)))))) : null);
}

load();
setInterval(load, 10000);
onLangChange(render);

// Index: / — the live matches and the tournaments' scoreboards.
import { t, tc, onLangChange } from "./i18n.js";
import { getJSON } from "./live.js";
import { el, fill, header, setConn } from "./ui.js";

// The organiser's way in (sign-in, tournaments, tables, table cards).
header("index_title", [el("a", { class: "btn small desk-link", href: "/desk", id: "desk-link", "data-i18n": "desk_title" })]);
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
      : el("ul", { class: "tours" }, tournaments.map((tr) => el("li", {},
        el("span", { class: "tname", text: tr.name }), " ",
        el("a", { href: `/board/${encodeURIComponent(tr.id)}`, text: t("scoreboard") })))));
}

load();
setInterval(load, 10000);
onLangChange(render);

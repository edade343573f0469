// The tablet's start panel in scotch doubles (PROTOCOL.md section 15): which member of each side
// plays its side's first stroke, chosen before the break or the lag is tapped and sent with it.
import { t } from "./i18n.js";
import { el } from "./ui.js";

let firstMembers = { match: null, sides: {} };

/** `members` for the start or lag command of `match`: each side's order from its chosen first member. */
export function startMembers(match, ps) {
  if (!match.doubles || match.status !== "scheduled" || firstMembers.match !== match.id) return {};
  const members = {};
  for (const p of ps) {
    const order = (p.members || []).map((m) => m.person);
    const first = firstMembers.sides[p.id];
    if (first && order.includes(first)) members[p.id] = [first, ...order.filter((x) => x !== first)];
  }
  return Object.keys(members).length ? { members } : {};
}

/** One row a side: its members as toggles (`named` isolates names; `rerender` paints the panel again). */
export function memberOrderRows(match, ps, named, rerender) {
  if (firstMembers.match !== match.id) firstMembers = { match: match.id, sides: {} };
  return el("div", { class: "member-order", id: "member-order" }, ps.map((p) => {
    const ms = p.members || [];
    const first = firstMembers.sides[p.id] || (ms[0] && ms[0].person);
    return el("div", { class: "btnrow", dataset: { side: p.id } },
      el("span", { class: "label" }, named(t("plays_first", { name: p.name }))),
      ms.map((m) => el("button", {
        type: "button", class: `btn toggle ${m.person === first ? "on" : ""}`, dataset: { first: m.person },
        "aria-pressed": m.person === first ? "true" : "false",
        onclick: () => { firstMembers.sides[p.id] = m.person; rerender(); } }, named(m.name))));
  }));
}

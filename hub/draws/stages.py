"""Draws of two stages (``then``): who goes through, the knockout's seeding, and the knockout itself.

- From ``round_robin``: when a group's matches are all resolved, its best ``advance`` K players go
  through (its standings; a player withdrawn by then is passed over).  From ``double_elimination``
  (stopped at K players, see ``brackets``): the winners of the last winners round (unbeaten) and of
  the last losers round (one loss) go through as their matches end.  A player who went through
  stays so whatever happens later (a later withdrawal is a walkover in the knockout).
- The knockout (keys ``K{r}-{i}``, rounds ``K{r}``, ``stage`` 2, a single elimination of the
  ``brackets`` shape) is seeded when the first stage has ended; until then its matches are
  ``waiting`` with ``null`` players (``"bye"`` where the field leaves a slot empty).
- Seeding (``then.seeding``): ``results`` (default) orders each tier by the first stage (a group's
  tier by group letter; a side by first-stage seeding order); ``seeded`` by the players' seeds
  (seeded first, lower first, then entry); ``random`` shuffles each tier with the draw's seed.
  Double elimination: winners side seeds 1..K/2, losers side K/2+1..K (every first match pits one
  against the other, the seed chart pairing s with K+1-s).  Round robin: tier t is every group's
  t-th player, placed in that tier's seed slots so that two players of one group meet as late as
  the bracket allows (``apart.place_by_group``): 2 groups x 2 gives A1 v B2, B1 v A2, two of a group
  meet only in the final, three or four only from the semi-finals.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hub.draws import brackets
from hub.draws.apart import place_by_group
from hub.draws.brackets import bracket_size
from hub.draws.settle import RESOLVED, DrawMatch, TypeResult

if TYPE_CHECKING:
    from hub.draws.draw_formats.base import DrawFormat
    from hub.draws.state import DrawSpec, TournamentState

KNOCKOUT = "K"


@dataclass(frozen=True)
class StageView:
    stage: int
    type: str
    status: str  # waiting | running | finished
    groups: int | None
    advance: int | None
    seeding: str
    entrants: tuple[str, ...] | None
    advanced: tuple[str, ...]
    template: Mapping[str, Any]


def _order(state: TournamentState, spec: DrawSpec, pids: list[str], salt: str) -> list[str]:
    """A tier in ``then.seeding`` order; ``pids`` come in results order."""
    assert spec.then is not None
    seeding = spec.then.get("seeding") or "results"
    if seeding == "seeded":
        return sorted(pids, key=lambda p: (state.player(p).seed is None, state.player(p).seed or 0,
                                           state.player(p).entry))
    if seeding == "random":
        out = list(pids)
        random.Random(f"{spec.seed}:{salt}").shuffle(out)
        return out
    return pids


def elimination_advancers(state: TournamentState, spec: DrawSpec, first: Sequence[DrawMatch],
                          field: int) -> tuple[list[tuple[str, int]], list[str] | None]:
    """(advanced so far with when, the knockout's seats once all are known) from a double elimination
    stopped at ``field`` players: the winners side seeds 1..K/2, the losers side the rest."""
    k = bracket_size(len(spec.entrants)).bit_length() - 1
    j = field.bit_length() - 1  # the knockout has 2**j players
    last_w, last_l = f"W{k - j + 1}", f"L{2 * (k - j)}"  # K/2 unbeaten after these, K/2 with one loss
    index = {pid: i for i, pid in enumerate(spec.entrants)}
    sides: dict[str, list[str]] = {last_w: [], last_l: []}
    got: list[tuple[str, int]] = []
    for m in first:
        if m.round in sides and m.resolved and m.winner is not None:
            sides[m.round].append(m.winner)
            got.append((m.winner, m.resolved_at or 0))
    if len(got) < field:
        return got, None
    tiers = [_order(state, spec, sorted(sides[r], key=index.__getitem__), r) for r in (last_w, last_l)]
    return got, [p for tier in tiers for p in tier]


def group_advancers(state: TournamentState, spec: DrawSpec, first: TypeResult,
                    size: int) -> tuple[list[tuple[str, int]], list[str] | None]:
    """(advanced so far with when, the knockout's ``size`` seats once every group is done) from a
    round robin: tier by tier, two players of one group as far apart as the bracket allows."""
    assert spec.then is not None
    advance = int(spec.then["advance"])
    ended: dict[str, int] = {}
    open_groups: set[str] = set()
    for m in first.matches:
        if m.group is None:
            continue
        if m.resolved:
            ended[m.group] = max(ended.get(m.group, 0), m.resolved_at or 0)
        else:
            open_groups.add(m.group)
    by_group: dict[str, list[str]] = {}
    group_of: dict[str, str] = {}
    for row in first.standings or []:
        group_of[row["player"]] = row["group"]
        by_group.setdefault(row["group"], []).append(row["player"])  # standings are in rank order
    got: list[tuple[str, int]] = []
    chosen: dict[str, list[str]] = {}
    for letter in sorted(by_group):
        if letter in open_groups or letter not in ended:
            continue
        at = ended[letter]
        fit = [p for p in by_group[letter] if _still_in_at(state, p, at)]
        chosen[letter] = fit[:advance]
        got.extend((p, at) for p in chosen[letter])
    if len(chosen) < len(by_group):
        return got, None
    tiers = [_order(state, spec, [chosen[g][t] for g in sorted(chosen) if t < len(chosen[g])], f"tier{t}")
             for t in range(advance)]
    return got, place_by_group([[(p, group_of[p]) for p in tier] for tier in tiers], size)


def one_stage(spec: DrawSpec, result: TypeResult) -> TypeResult:
    """A draw with no ``then``: its only stage's view."""
    status = "finished" if all(m.resolved for m in result.matches) else "running"
    view = StageView(1, spec.type, status, spec.params.get("groups"), None, spec.seeding, spec.entrants, (), spec.match)
    return TypeResult(result.matches, result.champion, result.standings, result.feeds,
                      result.eliminated_after_losses, (view,), result.statuses)


def derive_two_stage(state: TournamentState, spec: DrawSpec, first: TypeResult, kind: DrawFormat) -> TypeResult:
    """The first stage's result (of format ``kind``) with the knockout added after it."""
    assert spec.then is not None
    n = kind.knockout_field(int(spec.then["advance"]), spec.params)
    size = bracket_size(n)
    got, entrants = kind.advancers(state, spec, first, size)
    started_at = max((at for _, at in got), default=spec.version)

    def seat(s: int) -> brackets.SlotValue:
        if s > n:
            return (False, None, started_at)
        return None if entrants is None else (True, entrants[s - 1], started_at)

    nodes = brackets.structure(False, size, KNOCKOUT)
    knockout = brackets.derive_nodes(state, nodes, seat, stage=2, order_from=len(first.matches))
    final = knockout[-1]
    champion = final.winner if final.resolved else None
    first_keys = [m.key for m in first.matches]
    openers = tuple(node.key for node in nodes if node.slots[0].source == "seed")
    feeds = {**first.feeds, **brackets.feeds_of(False, size, KNOCKOUT)}
    for key in first_keys:  # a first-stage result can change who goes through, and where
        feeds[key] = (*feeds.get(key, ()), *openers)
    advanced = tuple(entrants) if entrants is not None else tuple(p for p, _ in sorted(got, key=lambda g: g[1]))
    views = (
        StageView(1, spec.type, "finished" if all(m.status in RESOLVED for m in first.matches) else "running",
                  spec.params.get("groups"), None, spec.seeding, spec.entrants, advanced, spec.match),
        StageView(2, str(spec.then["type"]), "waiting" if entrants is None else
                  "finished" if all(m.resolved for m in knockout) else "running", None, int(spec.then["advance"]),
                  str(spec.then.get("seeding") or "results"), tuple(entrants) if entrants else None, (),
                  spec.then["match"]),
    )
    through = set(advanced) if entrants is None else set(entrants)
    statuses = _statuses(state, first, knockout, through, champion, kind.out_in_first_stage(first))
    return TypeResult((*first.matches, *knockout), champion, first.standings, feeds, None, views, statuses)


def _still_in_at(state: TournamentState, pid: str, at: int) -> bool:
    """The player had not withdrawn by event `at` (a later withdrawal keeps the place they earned)."""
    withdrawn_at = state.player(pid).withdrawn_at
    return withdrawn_at is None or withdrawn_at > at


def _statuses(state: TournamentState, first: TypeResult, knockout: Sequence[DrawMatch], through: set[str],
              champion: str | None, out_first: set[str]) -> dict[str, str]:
    lost_knockout: set[str] = set()
    for m in knockout:
        if m.status in ("finished", "walkover"):
            lost_knockout.update(m.losers)
    finished = all(m.resolved for m in knockout) and all(m.resolved for m in first.matches)
    out: dict[str, str] = {}
    for p in state.players:
        if p.withdrawn:
            out[p.id] = "withdrawn"
        elif finished and p.id == champion:
            out[p.id] = "champion"
        elif p.id in through:
            out[p.id] = "eliminated" if p.id in lost_knockout else "active"
        else:
            out[p.id] = "eliminated" if p.id in out_first else "active"
    return out

"""Round robin: groups, the circle-method schedule, standings.

- Groups ``A``, ``B``, ... (``groups: N``, default 1): the entrants, in seeding order, are dealt
  in a snake (A B C C B A A B C ...) passing over full groups, the first groups being the larger
  (sizes differ by at most one; 10 in 3: 4, 3, 3); the top seeds are spread over the groups.
- Schedule: the circle method within each group (one player fixed, the others rotating; with an
  odd count one player sits out each round), n-1 rounds for n players (n rounds when n is odd).
  Keys ``{group}-{n}`` numbered in schedule order within the group (``A-1``, ``A-2``, ...),
  ``round`` = ``"R{r}"``, ``group`` = ``"A"``, ``bracket`` = ``"group"``.  Every match is ready
  from the start; matches are listed (and queued) round by round across the groups: R1 of A,
  R1 of B, R2 of A, ...; a player still in a called match is passed over by ``dispatch``.
- Standings, per group: ``played``, ``won``, ``lost`` (matches played: a walkover is not one),
  ``walkovers_won`` / ``walkovers_lost``, ``points`` (= matches won, a walkover won included: it
  is a win for the player present and a loss for the absent one, with no score), ``score_for`` /
  ``score_against`` (the match ``score`` of PROTOCOL section 4: points or racks, as the
  discipline's traits say).  Ranks 1..n in each group, never shared; ties are broken by
  ``tie_breaks`` (head-to-head, score difference, score for, re-applied from head-to-head to every
  subgroup still tied; then seed, entry).
- Champion: with one group, the best-ranked player not withdrawn once every match is resolved;
  with several groups null (the final standings are the answer).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from hub.draws import tie_breaks
from hub.draws.settle import DrawMatch, TypeResult, settle

if TYPE_CHECKING:
    from hub.draws.state import DrawSpec, TournamentState

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def group_sizes(n: int, count: int) -> list[int]:
    """The first ``n mod count`` groups have one player more (10 in 3: 4, 3, 3)."""
    base, extra = divmod(n, count)
    return [base + 1 if g < extra else base for g in range(count)]


def snake(players: Sequence[str], count: int) -> list[list[str]]:
    """Deal ``players`` over ``count`` piles 1..count, count..1, 1..count, ..., passing over a pile
    that is full (``group_sizes``), so the larger groups are the first ones."""
    sizes = group_sizes(len(players), count)
    piles: list[list[str]] = [[] for _ in range(count)]
    lap: list[int] = []
    forward = True
    for pid in players:
        while not lap:
            lap = [g for g in (range(count) if forward else range(count - 1, -1, -1)) if len(piles[g]) < sizes[g]]
            forward = not forward
        piles[lap.pop(0)].append(pid)
    return piles


def circle(players: Sequence[str]) -> list[list[tuple[str, str]]]:
    """The circle method: rounds of pairs, every pair exactly once."""
    ring: list[str | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds: list[list[tuple[str, str]]] = []
    for _ in range(n - 1):
        pairs = [(ring[i], ring[n - 1 - i]) for i in range(n // 2)]
        rounds.append([(a, b) for a, b in pairs if a is not None and b is not None])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


@lru_cache(maxsize=32)
def schedule(entrants: tuple[str, ...], group_count: int) -> tuple[tuple[str, str, str, tuple[str, str]], ...]:
    """The draw's matches in structural order: (key, round, group letter, pair)."""
    rows: list[tuple[int, int, int, str, str, tuple[str, str]]] = []
    for g, members in enumerate(snake(entrants, group_count)):
        letter = LETTERS[g]
        index = 0
        for r, pairs in enumerate(circle(members), start=1):
            for pair in pairs:
                index += 1
                rows.append((r, g, index, f"{letter}-{index}", letter, pair))
    rows.sort(key=lambda row: row[:3])
    return tuple((key, f"R{r}", letter, pair) for r, _, _, key, letter, pair in rows)


def derive_round_robin(state: TournamentState, spec: DrawSpec) -> TypeResult:
    count = spec.params.get("groups") or 1
    groups = snake(spec.entrants, count)
    matches = []
    for order, (key, rnd, letter, pair) in enumerate(schedule(spec.entrants, count)):
        st = settle(state, key, pair, spec.version)
        matches.append(DrawMatch(key, rnd, "group", letter, pair, st.status, st.match_id, st.table_id,
                                 st.winner, st.losers, st.scores, None, None, st.ready_at, st.resolved_at, order))
    table = standings(state, groups, matches)
    champion = None
    if len(groups) == 1:
        champion = next((row["player"] for row in table if not state.player(row["player"]).withdrawn), None)
    return TypeResult(tuple(matches), champion, table, {}, None)


def standings(state: TournamentState, groups: Sequence[Sequence[str]],
              matches: Sequence[DrawMatch]) -> list[dict[str, Any]]:
    played: dict[str, int] = {}
    won: dict[str, int] = {}
    by_walkover: dict[str, list[int]] = {}  # pid -> [walkovers won, walkovers lost]
    score_for: dict[str, int] = {}
    score_against: dict[str, int] = {}
    wins: dict[tuple[str, str], int] = {}  # (winner, loser) -> count
    for m in matches:
        if m.status != "finished" and m.status != "walkover":
            continue
        a, b = m.players
        assert a is not None and b is not None
        if m.status == "walkover":  # decided, not played: a win (its points) with no score
            if m.winner is not None:
                loser = b if m.winner == a else a
                by_walkover.setdefault(m.winner, [0, 0])[0] += 1
                by_walkover.setdefault(loser, [0, 0])[1] += 1
                wins[(m.winner, loser)] = wins.get((m.winner, loser), 0) + 1
            continue
        played[a] = played.get(a, 0) + 1
        played[b] = played.get(b, 0) + 1
        if m.scores is not None:
            sa, sb = m.scores.get(a, 0), m.scores.get(b, 0)
            score_for[a] = score_for.get(a, 0) + sa
            score_against[a] = score_against.get(a, 0) + sb
            score_for[b] = score_for.get(b, 0) + sb
            score_against[b] = score_against.get(b, 0) + sa
        if m.winner is not None:
            loser = b if m.winner == a else a
            won[m.winner] = won.get(m.winner, 0) + 1
            wins[(m.winner, loser)] = wins.get((m.winner, loser), 0) + 1
    out: list[dict[str, Any]] = []
    for g, members in enumerate(groups):
        rows = []
        for pid in members:
            p, w = played.get(pid, 0), won.get(pid, 0)
            wo_won, wo_lost = by_walkover.get(pid, (0, 0))
            rows.append({"player": pid, "group": LETTERS[g], "played": p, "won": w, "lost": p - w,
                         "walkovers_won": wo_won, "walkovers_lost": wo_lost, "points": w + wo_won,
                         "rank": 0, "score_for": score_for.get(pid, 0), "score_against": score_against.get(pid, 0)})
        ranked = rank_group(state, rows, wins)
        for rank, row in enumerate(ranked, start=1):
            row["rank"] = rank
        out.extend(ranked)
    return out


def rank_group(state: TournamentState, rows: list[dict[str, Any]],
               wins: dict[tuple[str, str], int]) -> list[dict[str, Any]]:
    def last(pid: str) -> tuple[Any, ...]:
        player = state.player(pid)
        return (player.seed is None, player.seed or 0, player.entry)

    return tie_breaks.rank(rows, wins, last)  # type: ignore[return-value]


def group_winners(state: TournamentState, standings: Sequence[Mapping[str, Any]]) -> set[str]:
    """The best-ranked player of each group who has not withdrawn."""
    out: dict[str, str] = {}
    for row in standings:
        if row["group"] not in out and not state.player(row["player"]).withdrawn:
            out[row["group"]] = row["player"]
    return set(out.values())

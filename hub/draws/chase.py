"""Chase groups (a three-player discipline: chase-points nine-ball): rounds formed from the standings so far.

- ``rounds: N`` rounds (default 3).  Keys ``C{r}-{i}``, ``round`` = ``"R{r}"``, ``bracket`` =
  ``"chase"``; G = (players in the round) // 3 matches, then, when the count is not divisible
  by three, one ``bye`` entry ``C{r}-{G+1}`` holding the one or two leftover players (padded with
  ``"bye"`` to three slots: slots that will never get a player, PROTOCOL.md section 11); a bye
  scores nothing and is not a match played.
- Round 1 is formed when the draw is made: the entrants in seeding order, the last one or two
  sit out (the bye), the others are dealt in a snake over the G matches, so match i gets seeds
  i, 2G+1-i, 2G+i.
- Round r > 1 is formed once every entry of round r-1 is resolved, from the standings at that
  moment: players withdrawn by then are left out; the bye goes to the lowest-ranked of those
  who have had the fewest byes; the others, in rank order, are cut into matches of three
  (ranks 1-3 in ``C{r}-1``, 4-6 in ``C{r}-2``, ...).  A round not formed yet is listed as
  ``waiting`` entries with null players (not known yet), as many as the players still in the draw
  make; its sit-out entry, the last, already shows ``"bye"`` in the slots nobody will fill.
- A player who withdraws before any match of their round is called or decided is left out of
  it: the round is formed again without them (between rounds the flow takes the round's called
  matches that have not started off their tables, so it can be). Once a match of the round is
  called or decided, a withdrawal leaves the player's match a ``walkover`` with no winner and
  no score (it cannot be played by two), which is no match played for anyone; an explicit
  walkover names a winner, who is credited with a walkover won, and nobody scores.
- Standings (every entrant, withdrawn players included): ``points`` = total net points of the
  matches played (PROTOCOL section 4 ``score``, so the field's points sum to zero), ``won`` =
  matches won (sole top scorer), ``played`` (walkovers and byes not), ``lost`` = played - won,
  ``walkovers_won``, ``byes``.  Rank by points, then matches won (walkovers won included), then
  seed (seeded players first, lower seed first), then order of entry; ranks are never shared.
- Champion: the best-ranked player not withdrawn, once every round is resolved.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hub.draws.round_robin import snake
from hub.draws.settle import BYE, DrawMatch, TypeResult, settle

if TYPE_CHECKING:
    from hub.draws.state import DrawSpec, TournamentState

DEFAULT_ROUNDS = 3


def derive_chase(state: TournamentState, spec: DrawSpec) -> TypeResult:
    tallies = {pid: {"played": 0, "won": 0, "points": 0, "byes": 0, "walkovers_won": 0} for pid in spec.entrants}
    matches: list[DrawMatch] = []
    round_keys: list[list[str]] = []
    formed_at: int | None = spec.version
    for r in range(1, (spec.params.get("rounds") or DEFAULT_ROUNDS) + 1):
        if formed_at is None:
            active = sum(1 for pid in spec.entrants if not state.player(pid).withdrawn)
            trios, left = divmod(active, 3)
            slots = [(None, None, None)] * trios + ([_sitting((None,) * left)] if left else [])
            entries = [DrawMatch(f"C{r}-{i}", f"R{r}", "chase", None, players, "waiting", order=len(matches) + i - 1)
                       for i, players in enumerate(slots, start=1)]
        else:
            entries = _form_round(state, spec, r, formed_at, tallies, len(matches))
            _tally(entries, tallies)
            if all(m.resolved for m in entries):
                formed_at = max([formed_at, *(m.resolved_at or 0 for m in entries)])
            else:
                formed_at = None
        round_keys.append([m.key for m in entries])
        matches.extend(entries)
    table = _standings(state, tallies)
    champion = next((row["player"] for row in table if not state.player(row["player"]).withdrawn), None)
    feeds = {key: tuple(round_keys[r + 1]) for r in range(len(round_keys) - 1) for key in round_keys[r]}
    return TypeResult(tuple(matches), champion, table, feeds, None)


def first_use(state: TournamentState, r: int) -> int | None:
    """The version at which a match of round r was first called (its call kept) or decided
    (a result, an explicit walkover): until then the round is formed again on every withdrawal."""
    prefix = f"C{r}-"
    versions = [c.version for k, c in state.calls.items() if k.startswith(prefix)]
    versions += [x.version for k, x in state.results.items() if k.startswith(prefix)]
    versions += [w.version for k, w in state.walkovers.items() if k.startswith(prefix)]
    return min(versions) if versions else None


def _form_round(state: TournamentState, spec: DrawSpec, r: int, formed_at: int,
                tallies: dict[str, dict[str, int]], order: int) -> list[DrawMatch]:
    used_at = first_use(state, r)

    def still_in(pid: str) -> bool:
        at = state.player(pid).withdrawn_at
        # Withdrawn before any match of the round was called or decided: the round is formed without them.
        return at is None or (used_at is not None and at > max(formed_at, used_at))

    if r == 1:
        eligible = [pid for pid in spec.entrants if still_in(pid)]
        matches_of = len(eligible) // 3
        sitting = eligible[3 * matches_of:]
        trios = snake(eligible[:3 * matches_of], matches_of) if matches_of else []
    else:
        ranked = [row["player"] for row in _standings(state, tallies) if still_in(row["player"])]
        matches_of = len(ranked) // 3
        position = {pid: i for i, pid in enumerate(ranked)}
        sitting = sorted(ranked, key=lambda p: (tallies[p]["byes"], -position[p]))[:len(ranked) % 3]
        playing = [p for p in ranked if p not in sitting]
        trios = [playing[i:i + 3] for i in range(0, len(playing), 3)]
    entries: list[DrawMatch] = []
    for i, trio in enumerate(trios, start=1):
        key = f"C{r}-{i}"
        st = settle(state, key, trio, formed_at, pick_winner=False)
        entries.append(DrawMatch(key, f"R{r}", "chase", None, tuple(trio), st.status, st.match_id, st.table_id,
                                 st.winner, st.losers, st.scores, None, None, st.ready_at, st.resolved_at,
                                 order + i - 1))
    if sitting:
        key = f"C{r}-{len(trios) + 1}"
        entries.append(DrawMatch(key, f"R{r}", "chase", None, _sitting(tuple(sitting)), "bye",
                                 resolved_at=formed_at, order=order + len(trios)))
    return entries


def _sitting(players: tuple[str | None, ...]) -> tuple[str | None, ...]:
    """A sit-out entry's three slots: its one or two players (or null: not known yet), then "bye"
    for every slot that will never get a player."""
    return (*players, *(BYE,) * (3 - len(players)))


def _tally(entries: Sequence[DrawMatch], tallies: dict[str, dict[str, int]]) -> None:
    for m in entries:
        if m.status == "bye":
            for pid in m.known_players:
                tallies[pid]["byes"] += 1
        elif m.status == "walkover":  # not played: only an explicit walkover's winner is credited
            if m.winner is not None:
                tallies[m.winner]["walkovers_won"] += 1
        elif m.status == "finished":
            for pid in m.known_players:
                row = tallies[pid]
                row["played"] += 1
                row["points"] += (m.scores or {}).get(pid, 0)
                if m.winner == pid:
                    row["won"] += 1


def _standings(state: TournamentState, tallies: dict[str, dict[str, int]]) -> list[dict[str, Any]]:
    def key(pid: str) -> tuple[Any, ...]:
        row, player = tallies[pid], state.player(pid)
        return (-row["points"], -(row["won"] + row["walkovers_won"]), player.seed is None, player.seed or 0,
                player.entry)

    out = []
    for rank, pid in enumerate(sorted(tallies, key=key), start=1):
        row = tallies[pid]
        out.append({"player": pid, "played": row["played"], "won": row["won"], "lost": row["played"] - row["won"],
                    "walkovers_won": row["walkovers_won"], "points": row["points"], "rank": rank, "byes": row["byes"]})
    return out

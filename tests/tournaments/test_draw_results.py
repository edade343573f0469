"""hub/tournaments/draw_results.py on SQLite and PostgreSQL: a draw match's result is taken from the
match as it stands when the tournament's event commits. Two "processes" are two sets of writers on
one database (each with its own memory), as in tests/store/test_event_store.py."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from hub import draws, rules
from hub.matches.writer import Ack, MatchWriter, Rejected
from hub.settings import Settings
from hub.store import catalog
from hub.store import match_events as match_store
from hub.store import tournament_events as tournament_store
from hub.store.db import make_engine, migrate
from hub.tournaments.draw_results import OPEN, SAME, TAKEN, DrawResults
from hub.tournaments.writer import MatchAt, MatchMoved, TournamentWriter

WPA = {"discipline": "wpa_nine", "format": {"race_to": 2}, "options": {}}


@pytest.fixture(params=["sqlite", "postgresql"])
def db_settings(request: pytest.FixtureRequest) -> Settings:
    return request.getfixturevalue("sqlite_settings" if request.param == "sqlite" else "pg_settings")


@pytest.fixture
async def engine(db_settings: Settings) -> Any:
    eng = make_engine(db_settings)
    await migrate(eng)
    yield eng
    await eng.dispose()


class Process:
    """What one hub process holds: its own match and tournament writers (their own memory)."""

    def __init__(self, engine: Any) -> None:
        self.matches = MatchWriter(engine, rules)
        self.tournaments = TournamentWriter(engine, draws)
        self.results = DrawResults(engine, self.matches, self.tournaments, draws)


async def called_match(engine: Any, p: Process, players: int = 2) -> tuple[str, str, str, list[str]]:
    """A single elimination of `players`, W1-1 called to a table (as the flow calls it): (tid, key, mid, players)."""
    tid = (await catalog.create_tournament(engine, "Race"))["id"]
    table = (await catalog.create_table(engine, tid, "T1"))["id"]
    await p.tournaments.apply(tid, {"kind": "add_players", "players": [{"name": f"P{i}"} for i in range(players)]})
    await p.tournaments.apply(tid, {"kind": "make_draw", "type": "single_elimination", "seed": 3, "match": WPA})
    state = await p.tournaments.state(tid)
    assert state is not None
    key, mid = "W1-1", catalog.new_id("m")

    async def store_with(append: catalog.InTransaction) -> Any:
        return await p.matches.create_match(draws.match_body(state, key), tournament_id=tid, table_id=table,
                                            match_id=mid, draw_key=key, also=append)

    state = (await p.tournaments.apply(tid, {"kind": "call", "key": key, "match_id": mid, "table_id": table},
                                       store_with=store_with))[0]
    return tid, key, mid, list(state.calls[key].players)


async def enter(p: Process, mid: str, winner: str, score: dict[str, int]) -> None:
    answer = await p.matches.submit(mid, None, {"kind": "result_entered", "winner": winner, "score": score},
                                    server=True)
    assert isinstance(answer, Ack), answer


async def draw_result(p: Process, tid: str, key: str) -> Any:
    state = await p.tournaments.state(tid)
    assert state is not None
    return state.results.get(key)


async def test_a_result_entered_between_the_read_and_the_commit_is_the_one_taken(engine: Any) -> None:
    """Process B reads the match (P0 won), then process A stores another result (P1 won) before
    B's tournament transaction commits: B's check of the locked match row sees the new version,
    B reads the match again, and the draw holds A's result, the match's latest."""
    a, b = Process(engine), Process(engine)
    tid, key, mid, (p0, p1) = await called_match(engine, a)
    await enter(a, mid, p0, {p0: 2, p1: 0})
    reads = 0
    read_projection = b.matches.projection

    async def read_then_a_writes(match_id: str) -> dict[str, Any] | None:
        nonlocal reads
        reads += 1
        proj = await read_projection(match_id)
        if reads == 1:  # another process stores its result after this one read the match
            await enter(a, mid, p1, {p0: 1, p1: 2})
        return proj

    b.matches.projection = read_then_a_writes  # type: ignore[method-assign]
    assert await b.results.take(tid, key, mid) == TAKEN
    assert reads == 2  # read, found moved in the transaction, read again
    taken = await draw_result(b, tid, key)
    assert (taken.winner, dict(taken.scores), taken.match_version) == (p1, {p0: 1, p1: 2}, 2)
    assert (await draw_result(a, tid, key)).winner == p1  # the store is the truth for both


async def test_the_tournament_event_is_not_stored_when_the_match_moved(engine: Any) -> None:
    a, b = Process(engine), Process(engine)
    tid, key, mid, (p0, p1) = await called_match(engine, a)
    await enter(a, mid, p0, {p0: 2, p1: 0})
    await enter(a, mid, p1, {p0: 0, p1: 2})  # version 2 now
    head = await tournament_store.head(engine, tid)
    command = {"kind": "take_result", "key": key, "match_id": mid, "winner": p0, "scores": {p0: 2, p1: 0},
               "match_version": 1}
    with pytest.raises(MatchMoved):
        await b.tournaments.apply(tid, command, expect=MatchAt(mid, ("finished",), 1))
    assert await tournament_store.head(engine, tid) == head  # nothing stored
    await b.tournaments.apply(tid, {**command, "winner": p1, "scores": {p0: 0, p1: 2}, "match_version": 2},
                              expect=MatchAt(mid, ("finished",), 2))
    assert (await draw_result(a, tid, key)).winner == p1


async def test_the_lock_holds_an_append_of_the_match_until_the_commit(engine: Any) -> None:
    """`catalog.lock_match` in the tournament's transaction: the match's next append waits for it."""
    a = Process(engine)
    tid, _key, mid, (p0, p1) = await called_match(engine, a)
    async with engine.begin() as conn:
        assert await catalog.lock_match(conn, mid) == ("scheduled", 0)
        append = asyncio.create_task(enter(a, mid, p0, {p0: 2, p1: 0}))
        await asyncio.sleep(0.3)
        assert not append.done()  # waiting for the row (PostgreSQL) or the database (SQLite) lock
    await asyncio.wait_for(append, 15)
    assert (await catalog.match_heads(engine, [mid]))[mid] == ("finished", 1)


async def test_a_result_the_match_moved_on_from_is_taken_again(engine: Any) -> None:
    """The draw took P0's win at version 1; the match was corrected at version 2 by a process that
    never told the draw: `due` finds it and `retake` takes the match's result; an event that leaves
    the result as it was (a player renamed) is looked at once."""
    a, b = Process(engine), Process(engine)
    tid, key, mid, (p0, p1) = await called_match(engine, a)
    await enter(a, mid, p0, {p0: 2, p1: 0})
    assert await a.results.take(tid, key, mid) == TAKEN
    await enter(a, mid, p1, {p0: 1, p1: 2})
    state = await b.tournaments.state(tid)
    heads = await catalog.match_heads(engine, [mid])
    assert b.results.due(state, heads) == [(key, mid, 2)]
    assert await b.results.retake(tid, state, key, mid, 2) is True
    taken = await draw_result(b, tid, key)
    assert (taken.winner, taken.match_version) == (p1, 2)
    assert b.results.due(await b.tournaments.state(tid), await catalog.match_heads(engine, [mid])) == []
    renamed = await a.matches.submit(mid, None, {"kind": "player_renamed", "player": p0, "name": "Renamed"},
                                     server=True)
    assert renamed == Ack(3)
    state, heads = await b.tournaments.state(tid), await catalog.match_heads(engine, [mid])
    assert b.results.due(state, heads) == [(key, mid, 3)]
    assert await b.results.retake(tid, state, key, mid, 3) is False  # the same result: nothing stored
    assert b.results.due(state, heads) == []  # and not looked at again at that version


async def test_take_of_an_open_match_and_of_the_same_result(engine: Any) -> None:
    a = Process(engine)
    tid, key, mid, (p0, p1) = await called_match(engine, a)
    assert await a.results.take(tid, key, mid) == OPEN  # scheduled: nothing to take
    await enter(a, mid, p0, {p0: 2, p1: 0})
    assert await a.results.take(tid, key, mid) == TAKEN
    assert await a.results.take(tid, key, mid) == SAME


async def test_a_void_needs_the_match_still_open(engine: Any) -> None:
    """The flow voids a result whose match reopened, but only while it is open at the commit: a
    match finished again meanwhile keeps its result in the draw (taken again instead)."""
    a = Process(engine)
    tid, key, mid, (p0, p1) = await called_match(engine, a)
    await enter(a, mid, p0, {p0: 2, p1: 0})
    assert await a.results.take(tid, key, mid) == TAKEN
    head = await tournament_store.head(engine, tid)
    assert await a.results.void(tid, key, mid, 1) is True  # finished: MatchMoved, nothing stored
    assert await tournament_store.head(engine, tid) == head
    assert (await draw_result(a, tid, key)).winner == p0


async def test_a_check_in_the_appends_transaction_stores_nothing_when_it_fails(engine: Any) -> None:
    """MatchWriter.submit(check=...): the desk's "the draw has not moved" check (hub/api/corrections.py)."""
    a = Process(engine)
    _tid, _key, mid, (p0, p1) = await called_match(engine, a)

    async def moved(conn: Any) -> None:
        raise match_store.CheckFailed("draw_moved", "the draw changed meanwhile")

    command = {"kind": "result_entered", "winner": p0, "score": {p0: 2, p1: 0}}
    answer = await a.matches.submit(mid, None, command, server=True, check=moved)
    assert answer == Rejected("draw_moved", "the draw changed meanwhile")
    assert await match_store.read_events(engine, mid) == []
    assert (await a.matches.projection(mid))["status"] == "scheduled"


def test_the_result_of_a_handicapped_race_carries_each_race() -> None:
    # hub/tournaments/draw_results.py: the races go to the draw (the bracket and the exports show them)
    from hub.tournaments.draw_results import result_command

    def proj(races: list[int | None]) -> dict[str, Any]:
        return {"status": "finished", "winner": "b", "version": 9, "result": {"reason": "race"},
                "players": [{"id": pid, "score": n, "race_to": r}
                            for pid, n, r in zip("ab", (3, 1), races, strict=True)]}

    assert result_command("W1-1", "m1", proj([5, 1]))["races"] == {"a": 5, "b": 1}
    assert "races" not in result_command("W1-1", "m1", proj([5, 5]))
    assert "races" not in result_command("W1-1", "m1", proj([None, None]))

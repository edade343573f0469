"""The desk's result form says what the hub would refuse before sending (clients/web/js/desk-result.js
`resultProblem`), here for a handicapped race (PROTOCOL.md section 13): run in Chromium on the
module the desk loads, against the same cases the hub checks (tests/rules/test_entered_result.py)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Hub, PageWatch

PLAYERS = [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bo"}]
RACES = {"race_to": {"a": 1, "b": 5}}


@pytest.mark.parametrize(("winner", "score", "says"), [
    ("a", {"a": 1, "b": 3}, None),  # 1 - 3 racing to 1 against a race to 5: a win
    ("b", {"a": 0, "b": 5}, None),
    ("b", {"a": 1, "b": 5}, "Ann reached their race to 1 too"),
    ("b", {"a": 0, "b": 3}, "the winner reaches 5; Bo has 3"),
    ("a", {"a": 2, "b": 0}, "Ann races to 1 and cannot have more"),
])
def test_a_handicapped_race_is_checked_at_the_desk(
    hub_process: Hub, browser: Any, winner: str, score: dict, says: Any
) -> None:
    ctx = browser.new_context(locale="en-US")
    try:
        page = PageWatch().attach(ctx.new_page())
        page.goto(f"{hub_process.url}/")
        got = page.evaluate(
            """async ([body, players, format]) => {
            const m = await import("/static/js/desk-result.js");
            return m.resultProblem(body, players, "wpa_nine", format);
        }""",
            [{"winner": winner, "score": score}, PLAYERS, RACES],
        )
        if says is None:
            assert got is None
        else:
            assert got is not None and says in got, got
        # an ordinary race keeps "the winner's score is the best"
        plain = page.evaluate("""async () => (await import("/static/js/desk-result.js")).resultProblem(
            {winner: "a", score: {a: 1, b: 3}}, [{id: "a", name: "Ann"}, {id: "b", name: "Bo"}], "wpa_nine",
            {race_to: 5})""")
        assert plain is not None
    finally:
        ctx.close()

"""Match setup (hub/rules/setup.py): a handicapped race gives each player a race of their own
(PROTOCOL.md section 13), checked and kept in player order."""

from __future__ import annotations

from typing import Any

import pytest

from hub.rules import SetupError, validate_setup

PLAYERS = [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}]


def setup(fmt: dict[str, Any], players: list[dict[str, Any]] | None = None, discipline: str = "wpa_nine") -> Any:
    body = {"discipline": discipline, "players": players or PLAYERS, "format": fmt}
    return validate_setup(body, match_id="m", tournament_id="t", table_id="tb")


def test_a_race_per_player_is_kept_in_player_order_and_rebuilds_itself() -> None:
    s = setup({"race_to": {"b": 5, "a": 7}})
    assert s.races == (("a", 7), ("b", 5)) and s.race_to == 7
    assert s.race_of("a") == 7 and s.race_of("b") == 5
    assert s.format_json()["race_to"] == {"a": 7, "b": 5}
    again = validate_setup(s.to_json(), match_id="m", tournament_id="t", table_id="tb")
    assert again == s


def test_equal_races_are_an_ordinary_race() -> None:
    s = setup({"race_to": {"a": 6, "b": 6}})
    assert s.races == () and s.race_to == 6 and s.format_json()["race_to"] == 6
    assert s.race_of("b") == 6


def test_players_without_ids_take_the_ids_the_hub_makes() -> None:
    s = setup({"race_to": {"p1": 3, "p2": 9}}, players=[{"name": "A"}, {"name": "B"}])
    assert s.races == (("p1", 3), ("p2", 9))


def test_an_ordinary_race_and_a_match_of_racks_have_no_races() -> None:
    assert setup({"race_to": 5}).race_of("a") == 5
    assert setup({"racks": 9}, discipline="golden_nine").race_of("a") is None


@pytest.mark.parametrize(("race_to", "says"), [
    ({"a": 7}, "every player a race: none for b"),
    ({"a": 7, "b": 0}, "format.race_to.b"),
    ({"a": 7, "b": -2}, "format.race_to.b"),
    ({"a": 7, "b": 2.5}, "format.race_to.b must be a whole number"),
    ({"a": 7, "b": "5"}, "format.race_to.b must be a number"),
    ({"a": 7, "b": True}, "format.race_to.b must be a number"),
    ({"a": 7, "b": 5, "z": 3}, "'z' is not a player of the match"),
    ({}, "every player a race"),
])
def test_a_bad_race_per_player_is_refused(race_to: dict[str, Any], says: str) -> None:
    with pytest.raises(SetupError) as exc:
        setup({"race_to": race_to})
    assert says in exc.value.message


def test_a_race_per_player_is_only_for_disciplines_played_to_a_race() -> None:
    players = [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}, {"id": "c", "name": "C"}]
    with pytest.raises(SetupError) as exc:
        setup({"race_to": {"a": 3, "b": 2, "c": 1}}, players=players, discipline="chase_nine")
    assert "format.race_to is for" in exc.value.message

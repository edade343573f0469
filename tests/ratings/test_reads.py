import pytest

from hub.people.directory import Refused
from hub.ratings.reads import discipline_of, parse_race, parse_score


def test_races() -> None:
    assert parse_race("7") == (7, 7)
    assert parse_race("7-5") == (7, 5)
    assert parse_race(" 9 - 3 ") == (9, 3)


@pytest.mark.parametrize("bad", [None, "", "0", "7-0", "x", "7-5-3", "1000", "-3", "100"])
def test_bad_races(bad: str | None) -> None:
    with pytest.raises(Refused) as e:
        parse_race(bad)
    assert (e.value.status, e.value.code) == (422, "bad_race")


def test_scores() -> None:
    assert parse_score(None, (7, 5)) == (0, 0)
    assert parse_score("6-4", (7, 5)) == (6, 4)
    for bad in ("8-0", "0-6", "7-5", "a-b"):
        with pytest.raises(Refused) as e:
            parse_score(bad, (7, 5))
        assert e.value.code == "bad_score"


def test_disciplines() -> None:
    assert discipline_of("wpa_nine") == "wpa_nine"
    for bad in (None, "", "snooker_pool"):
        with pytest.raises(Refused) as e:
            discipline_of(bad)
        assert e.value.code == "unknown_discipline"


class Row:
    def __init__(self, value: int, racks: int = 150) -> None:
        self.value, self.exact, self.racks, self.provisional = value, float(value), racks, racks < 100


def _proj(race: object, scores: tuple[int, int], status: str = "live", winner: str | None = None) -> dict[str, object]:
    return {"id": "m1", "version": 9, "discipline": "wpa_nine", "status": status, "winner": winner,
            "format": {"race_to": race},
            "players": [{"id": "a", "score": scores[0], "racks_won": scores[0]},
                        {"id": "b", "score": scores[1], "racks_won": scores[1]}]}


def test_match_odds_from_the_score() -> None:
    from hub.ratings.race import match_chance
    from hub.ratings.reads import match_odds

    persons = {"a": "pa", "b": "pb"}
    rows = {"pa": Row(600), "pb": Row(500, racks=20)}
    got = match_odds(_proj(5, (1, 3)), persons, rows)
    a, b = got["players"]
    assert a["rating"] == {"value": 600, "racks": 150, "provisional": False} and b["rating"]["provisional"] is True
    assert a["chance"] == pytest.approx(match_chance(600, 500, 5, 5, 1, 3)) and a["chance"] + b["chance"] == 1.0
    assert got["rack"] == pytest.approx(2 / 3)
    # a handicapped race (per player) and an unrated player at 500
    hand = match_odds(_proj({"a": 7, "b": 4}, (0, 0)), {"a": "pa"}, rows)
    assert hand["players"][1]["rating"] is None and hand["players"][1]["race_to"] == 4
    assert hand["players"][0]["chance"] == pytest.approx(match_chance(600, 500, 7, 4))
    done = match_odds(_proj(5, (5, 3), "finished", "a"), persons, rows)
    assert [p["chance"] for p in done["players"]] == [1.0, 0.0]
    points = match_odds({**_proj(5, (1, 1)), "format": {"racks": 9}}, persons, rows)
    assert [p["chance"] for p in points["players"]] == [None, None]  # no race: no match chance

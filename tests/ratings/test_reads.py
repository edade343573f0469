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

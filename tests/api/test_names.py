"""One rule for every name (hub/rules/names.py), on every call that stores a name shown on the screens:
players and their clubs (add, rename), match players, tables (add, rename), tournaments. Names that
could display reversed or mimic another player (bidirectional controls) and names that are not one
line of text (control characters C0, DEL and C1, the line and paragraph separators) are refused
with a 422 naming the character; invisible characters are stripped."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from spine_helpers import admin

from hub.app import create_app
from hub.settings import Settings

BIDI = [chr(c) for c in (0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069)]


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


# Not one line of text: C0 (tab, line feed, escape), DEL, C1 (NEL, the last of them), the separators.
NOT_ONE_LINE = ["\t", "\n", "\x1b", "\x7f", "\x85", "\x9f", "\u2028", "\u2029"]


def refused(r, char: str) -> None:
    assert r.status_code == 422, r.text
    err = r.json()["error"]
    assert err["code"] in ("bad_request", "bad_setup")  # a match body's refusals are bad_setup
    assert f"U+{ord(char):04X}" in err["message"], err
    if char in BIDI:
        assert "bidirectional" in err["message"]


def setup(c: TestClient) -> tuple[str, str]:
    tid = c.post("/api/tournaments", json={"name": "Open"}, headers=admin()).json()["id"]
    table = c.post(f"/api/tournaments/{tid}/tables", json={"name": "Table 1"}, headers=admin()).json()["id"]
    return tid, table


@pytest.mark.parametrize("char", BIDI)
def test_every_bidi_control_is_refused_for_a_player(c: TestClient, char: str) -> None:
    tid, _ = setup(c)
    refused(c.post(f"/api/tournaments/{tid}/players", json={"name": f"Yang{char} Fan"}, headers=admin()), char)
    refused(c.post(f"/api/tournaments/{tid}/players", json={"players": [{"name": "Ok"}, {"name": f"{char}naF"}]},
                   headers=admin()), char)
    with_club = {"name": "Ok", "club": f"Club{char}"}
    refused(c.post(f"/api/tournaments/{tid}/players", json=with_club, headers=admin()), char)
    assert c.get(f"/api/tournaments/{tid}/players").json()["players"] == []  # nothing of a refused batch is kept


def test_a_rename_with_an_override_is_refused_and_the_name_kept(c: TestClient) -> None:
    tid, _ = setup(c)
    added = c.post(f"/api/tournaments/{tid}/players", json={"name": "Yang Fan"}, headers=admin())
    pid = added.json()["players"][0]["id"]
    reversed_name = {"name": "\u202enaF gnaY"}
    refused(c.patch(f"/api/tournaments/{tid}/players/{pid}", json=reversed_name, headers=admin()), "\u202e")
    assert c.get(f"/api/tournaments/{tid}/players").json()["players"][0]["name"] == "Yang Fan"


def test_match_players_tables_and_tournaments_refuse_bidi_controls(c: TestClient) -> None:
    tid, table = setup(c)
    body = {"tournament_id": tid, "table_id": table, "discipline": "wpa_nine", "format": {"race_to": 3},
            "players": [{"id": "a", "name": "Ko\u2067 Pin-yi"}, {"id": "b", "name": "Wu"}]}
    refused(c.post("/api/matches", json=body, headers=admin()), "\u2067")
    refused(c.post(f"/api/tournaments/{tid}/tables", json={"name": "Table \u202b2"}, headers=admin()), "\u202b")
    refused(c.patch(f"/api/tables/{table}", json={"name": "\u2066T1"}, headers=admin()), "\u2066")
    refused(c.post("/api/tournaments", json={"name": "Open\u202d"}, headers=admin()), "\u202d")
    assert c.get(f"/api/tables/{table}").json()["name"] == "Table 1"


def test_invisible_characters_are_stripped_so_a_name_cannot_pass_for_another(c: TestClient) -> None:
    tid, table = setup(c)
    r = c.post(f"/api/tournaments/{tid}/players", json={"players": [
        {"name": "Yang\u200b Fan"}, {"name": "\ufeffWu\u2060 Jiaqing\u200e"}, {"name": "Mehdi\u200cpour"}]},
        headers=admin())
    assert r.status_code == 201, r.text
    # zero-width space, word joiner, BOM and a direction mark are gone; the non-joiner a name may need is kept
    assert [p["name"] for p in r.json()["players"]] == ["Yang Fan", "Wu Jiaqing", "Mehdi\u200cpour"]
    assert c.post(f"/api/tournaments/{tid}/players", json={"name": "\u200b\u200b"}, headers=admin()).status_code == 422
    body = {"tournament_id": tid, "table_id": table, "discipline": "wpa_nine", "format": {"race_to": 3},
            "players": [{"id": "a", "name": "Ko\u200b Pin-yi"}, {"id": "b", "name": "Wu"}]}
    m = c.post("/api/matches", json=body, headers=admin())
    assert m.status_code == 201, m.text
    assert m.json()["players"][0]["name"] == "Ko Pin-yi"
    assert c.patch(f"/api/tables/{table}", json={"name": "Table\u200b 9"}, headers=admin()).json()["name"] == "Table 9"


def test_mixed_scripts_are_accepted_as_they_are(c: TestClient) -> None:
    tid, _ = setup(c)
    names = ["杨帆 Yang Fan", "محمد Ali", "שלום Cohen", "Ko Pin-yi (柯秉逸)"]
    r = c.post(f"/api/tournaments/{tid}/players", json={"players": [{"name": n} for n in names]}, headers=admin())
    assert r.status_code == 201, r.text
    assert [p["name"] for p in r.json()["players"]] == names


@pytest.mark.parametrize("char", NOT_ONE_LINE, ids=[f"U+{ord(c):04X}" for c in NOT_ONE_LINE])
def test_a_tournament_name_that_is_not_one_line_is_refused(c: TestClient, char: str) -> None:
    refused(c.post("/api/tournaments", json={"name": f"Open{char}2026"}, headers=admin()), char)
    assert c.get("/api/tournaments").json()["tournaments"] == []


@pytest.mark.parametrize("char", NOT_ONE_LINE, ids=[f"U+{ord(c):04X}" for c in NOT_ONE_LINE])
def test_a_table_name_that_is_not_one_line_is_refused(c: TestClient, char: str) -> None:
    tid, table = setup(c)
    refused(c.post(f"/api/tournaments/{tid}/tables", json={"name": f"Table{char}2"}, headers=admin()), char)
    refused(c.patch(f"/api/tables/{table}", json={"name": f"T{char}1"}, headers=admin()), char)
    assert [t["name"] for t in c.get(f"/api/tournaments/{tid}").json()["tables"]] == ["Table 1"]


@pytest.mark.parametrize("char", NOT_ONE_LINE, ids=[f"U+{ord(c):04X}" for c in NOT_ONE_LINE])
def test_a_player_or_club_name_that_is_not_one_line_is_refused(c: TestClient, char: str) -> None:
    tid, _ = setup(c)
    refused(c.post(f"/api/tournaments/{tid}/players", json={"name": f"Yang{char}Fan"}, headers=admin()), char)
    refused(c.post(f"/api/tournaments/{tid}/players", json={"name": "Yang Fan", "club": f"Club{char}A"},
                   headers=admin()), char)
    pid = c.post(f"/api/tournaments/{tid}/players", json={"name": "Wu"}, headers=admin()).json()["players"][0]["id"]
    refused(c.patch(f"/api/tournaments/{tid}/players/{pid}", json={"name": f"Wu{char}Jiaqing"}, headers=admin()), char)
    refused(c.patch(f"/api/tournaments/{tid}/players/{pid}", json={"club": f"{char}"}, headers=admin()), char)
    players = c.get(f"/api/tournaments/{tid}/players").json()["players"]
    assert [(p["name"], p["club"]) for p in players] == [("Wu", None)]


@pytest.mark.parametrize("char", NOT_ONE_LINE, ids=[f"U+{ord(c):04X}" for c in NOT_ONE_LINE])
def test_a_match_player_name_that_is_not_one_line_is_refused(c: TestClient, char: str) -> None:
    tid, table = setup(c)
    body = {"tournament_id": tid, "table_id": table, "discipline": "wpa_nine", "format": {"race_to": 3},
            "players": [{"id": "a", "name": f"Ko{char}Pin-yi"}, {"id": "b", "name": "Wu"}]}
    refused(c.post("/api/matches", json=body, headers=admin()), char)
    assert c.get("/api/matches").json()["matches"] == []

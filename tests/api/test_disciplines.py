"""GET /api/disciplines (hub/api/disciplines.py): every discipline's traits as the registry has them,
public, with an ETag (304 when current) and described in the OpenAPI; and a throwaway discipline
added through the registry alone (its class here, one registry entry) that works end to end over
the API: listed, a match created, started, strokes judged by its own rules, a draw of it, and a
match of it scored rack by rack, without a line changed anywhere else."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import jsonschema
import pytest
from spine_helpers import admin, bearer, envelope, make_match, make_table

from hub.rules import core
from hub.rules.discipline import Discipline
from hub.rules.disciplines import DISCIPLINES, catalogue
from hub.rules.state import MatchState
from hub.rules.traits import Traits

TOY = "toy_six"


class ToySix(Discipline):
    """Six-ball, made up for this test: balls 1-6, the lowest is the ball-on, the 6 wins; a foul
    gives ball in hand; no push-out, no groups, no call."""

    traits = Traits(name=TOY, balls=tuple(range(1, 7)), win_ball=6, ball_on="lowest",
                    format_defaults={"race_to": 3}, stats=("fouls",))

    def break_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[str]) -> list[str]:
        return self.play_shot(st, shot, note)

    def play_shot(self, st: MatchState, shot: Mapping[str, Any], note: list[str]) -> list[str]:
        pid = core.shooter(st)
        is_break = st.rack.phase == "break"
        fouls = core.fact_fouls(shot, {min(st.rack.on_table)}, is_break=is_break)
        core.clear_balls(st.rack, shot)
        st.rack.after_break = is_break
        if fouls:
            core.respot(st.rack, 6, note)
            self.foul(st, pid, fouls, note)
        elif 6 in shot["pocketed"]:
            core.finish_rack(st, pid, "normal", "win_ball", {pid: 1}, note)
        elif shot["pocketed"]:
            core.continue_inning(st)
        else:
            core.start_inning(st, self.opponent(st, pid))
        return fouls

    def foul(self, st: MatchState, fouler: str, fouls: list[str], note: list[str]) -> None:
        core.count_foul(st, fouler)
        core.start_inning(st, self.opponent(st, fouler), ball_in_hand="anywhere")



@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(DISCIPLINES, TOY, ToySix())  # the registry line, for this test only


def test_every_discipline_is_served_with_its_traits(real_rules_client):
    r = real_rules_client.get("/api/disciplines")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    served = r.json()["disciplines"]
    assert [d["name"] for d in served] == list(DISCIPLINES)
    assert served == [d.traits.to_json() for d in DISCIPLINES.values()] == catalogue()
    by_name = {d["name"]: d for d in served}
    assert by_name["chase_nine"]["players"] == 3 and not by_name["chase_nine"]["lag"]
    assert by_name["golden_nine"]["break_count"] == "break_crossings" and by_name["golden_nine"]["score"] == "points"
    assert by_name["wpa_eight"]["call_shot"] and by_name["wpa_eight"]["groups"] and not by_name["wpa_eight"]["push_out"]
    assert by_name["wpa_ten"]["push_out"] and by_name["wpa_ten"]["balls"] == list(range(1, 11))
    assert by_name["other"]["scorings"] == ["racks"] and by_name["other"]["named_game"]


def test_the_answer_is_cacheable(real_rules_client):
    r = real_rules_client.get("/api/disciplines")
    etag = r.headers["etag"]
    assert etag.startswith('"') and r.headers["cache-control"] == "no-cache"
    again = real_rules_client.get("/api/disciplines", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    assert real_rules_client.get("/api/disciplines", headers={"If-None-Match": '"other"'}).status_code == 200


def test_the_openapi_describes_it(real_rules_client):
    doc = real_rules_client.get("/openapi.json").json()
    answer = doc["paths"]["/api/disciplines"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    schemas = doc["components"]["schemas"]
    body = real_rules_client.get("/api/disciplines").json()
    jsonschema.Draft202012Validator({**answer, "components": doc["components"]}).validate(body)
    with pytest.raises(jsonschema.ValidationError):  # the schema says something: a wrong type fails it
        jsonschema.Draft202012Validator({**answer, "components": doc["components"]}).validate(
            {"disciplines": [{**body["disciplines"][0], "balls": "1-9"}]})
    traits = schemas["Traits"]
    assert set(traits["properties"]) == set(catalogue()[0])
    assert all(p.get("description") for p in traits["properties"].values())  # from the field docstrings
    # the setup's discipline enum is the registry's
    assert schemas["MatchCreate"]["properties"]["discipline"]["enum"] == list(DISCIPLINES)


def _send(real_rules_client, match_id, table, command):
    r = real_rules_client.post(f"/api/matches/{match_id}/commands", json=envelope(match_id, command),
                    headers=bearer(table["token"]))
    assert r.status_code in (200, 409, 422), r.text
    return r.json()


@pytest.mark.usefixtures("toy")
def test_a_discipline_added_through_the_registry_alone_plays_over_the_api(real_rules_client):
    assert TOY in [d["name"] for d in real_rules_client.get("/api/disciplines").json()["disciplines"]]
    table = make_table(real_rules_client)
    m = make_match(real_rules_client, table, discipline=TOY, format={"race_to": 1})
    assert m["discipline"] == TOY and m["rack"]["on_table"] == []
    mid = m["id"]
    assert _send(real_rules_client, mid, table, {"kind": "start", "breaker": "a"})["type"] == "ack"
    proj = real_rules_client.get(f"/api/matches/{mid}").json()
    assert proj["rack"]["on_table"] == [1, 2, 3, 4, 5, 6] and proj["players"][0]["win_ball"] == 6
    # a break that pockets the 2: the breaker shoots on
    assert _send(real_rules_client, mid, table, {"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [2],
                                      "rail": True})["type"] == "ack"
    proj = real_rules_client.get(f"/api/matches/{mid}").json()
    assert proj["rack"]["shooter"] == "a" and proj["rack"]["on_table"] == [1, 3, 4, 5, 6]
    # the wrong ball first: its own rules call the foul, ball in hand to b
    _send(real_rules_client, mid, table, {"kind": "shot", "player": "a", "first_contact": 4, "rail": True})
    proj = real_rules_client.get(f"/api/matches/{mid}").json()
    assert proj["last"]["fouls"] == ["wrong_ball_first"] and proj["rack"]["shooter"] == "b"
    assert proj["rack"]["ball_in_hand"] == "anywhere"
    # a ball that is not on a six-ball table is refused
    rej = _send(real_rules_client, mid, table, {"kind": "shot", "player": "b", "first_contact": 9, "rail": True})
    assert rej["type"] == "reject" and rej["error"]["code"] == "bad_command"
    # the 6 wins the rack, and the race to 1
    _send(real_rules_client, mid, table, {"kind": "shot", "player": "b", "first_contact": 1, "pocketed": [6]})
    proj = real_rules_client.get(f"/api/matches/{mid}").json()
    assert proj["status"] == "finished" and proj["winner"] == "b" and proj["racks"][0]["win_type"] == "normal"


@pytest.mark.usefixtures("toy")
def test_a_new_discipline_takes_its_traits_defaults_and_refusals(real_rules_client):
    table = make_table(real_rules_client)
    bad = real_rules_client.post("/api/matches", headers=admin(), json={
        "tournament_id": table["tid"], "table_id": table["table_id"], "discipline": TOY,
        "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}], "format": {"racks": 3}})
    assert bad.status_code == 422 and "format.racks" in bad.json()["error"]["message"]
    # scored rack by rack, as any discipline may be
    m = make_match(real_rules_client, table, discipline=TOY, format={"race_to": 2}, options={"scoring": "racks"})
    mid = m["id"]
    _send(real_rules_client, mid, table, {"kind": "start", "breaker": "a"})
    for _ in range(2):
        assert _send(real_rules_client, mid, table, {"kind": "rack", "winner": "b"})["type"] == "ack"
    proj = real_rules_client.get(f"/api/matches/{mid}").json()
    assert proj["status"] == "finished" and proj["winner"] == "b" and proj["players"][1]["score"] == 2


@pytest.mark.usefixtures("toy")
def test_a_draw_of_the_new_discipline(real_rules_client):
    tid = real_rules_client.post("/api/tournaments", json={"name": "Toy night"}, headers=admin()).json()["id"]
    for i in range(2):
        r = real_rules_client.post(f"/api/tournaments/{tid}/tables", json={"name": f"T{i}"}, headers=admin())
        assert r.status_code == 201
    players = real_rules_client.post(
        f"/api/tournaments/{tid}/players",
        headers=admin(),
        json={"players": [{"name": n} for n in ("Ann", "Bo", "Cy", "Di")]},
    )
    assert players.status_code in (200, 201), players.text
    r = real_rules_client.post(
        f"/api/tournaments/{tid}/draw",
        headers=admin(),
        json={"type": "single_elimination", "match": {"discipline": TOY, "format": {"race_to": 2}}},
    )
    assert r.status_code in (200, 201), r.text
    tour = real_rules_client.get(f"/api/tournaments/{tid}").json()
    called = [tb["match"] for tb in tour["tables"] if tb["match"]]
    assert len(called) == 2 and {m["discipline"] for m in called} == {TOY}
    chase = real_rules_client.post(
        f"/api/tournaments/{tid}/draw",
        headers=admin(),
        json={"type": "chase_groups", "redraw": True, "match": {"discipline": TOY, "format": {"race_to": 2}}},
    )
    assert chase.status_code == 422 and "3 players" in chase.json()["error"]["message"]

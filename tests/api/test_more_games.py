"""PROTOCOL.md section 17 over HTTP, on the real rules: the setup of a rack-scored match and of
discipline other (422 on bad input), and the rejects of the new fields and commands with their codes
and statuses, never a 500 (a called ball not pocketed, a push-out in eight-ball, a rack on a judged
match, a shot on a rack-scored one)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spine_helpers import admin, bearer, envelope, make_match, make_table

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=12,
)



def _is_error(r, status):
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert set(body["error"]) == {"code", "message"}


def _match_body(table, discipline, fmt, options=None):
    return {"tournament_id": table["tid"], "table_id": table["table_id"], "discipline": discipline,
            "players": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}], "format": fmt,
            **({"options": options} if options is not None else {})}


def test_scoring_and_game_setup_bad_input(real_rules_client):
    """PROTOCOL.md section 17: an unknown scoring, and discipline other with a bad format, answer 422."""
    table = make_table(real_rules_client)
    for discipline, fmt, options in [
        ("wpa_nine", {"race_to": 3}, {"scoring": "frames"}),
        ("wpa_eight", {"race_to": 3}, {"scoring": 1}),
        ("other", {"race_to": 3}, None),
        ("other", {"race_to": 3, "game": ""}, None),
        ("other", {"racks": 3, "game": "snooker"}, None),
        ("other", {"race_to": 3, "game": "snooker"}, {"scoring": "strokes"}),
        ("wpa_ten", {"race_to": 3, "game": "snooker"}, None),
        ("wpa_ten", {"racks": 3}, None),
    ]:
        r = real_rules_client.post("/api/matches", json=_match_body(table, discipline, fmt, options), headers=admin())
        _is_error(r, 422)
        assert r.json()["error"]["code"] == "bad_setup", (discipline, fmt, options)
    r = real_rules_client.post("/api/matches", json=_match_body(table, "other", {"race_to": 3, "game": "snooker"}),
                    headers=admin())
    assert r.status_code == 201 and r.json()["format"]["game"] == "snooker"
    assert r.json()["options"]["scoring"] == "racks"


def test_call_shot_and_rack_rejects_over_http(real_rules_client):
    """A called ball not pocketed (422 bad_command), a push-out in eight-ball, a rack on a judged
    match and a shot on a rack-scored one (409 not_allowed): rejects with their codes, nothing stored."""
    judged_table, racks_table = make_table(real_rules_client), make_table(real_rules_client)
    judged = make_match(real_rules_client, judged_table, discipline="wpa_eight", format={"race_to": 3})["id"]
    by_racks = make_match(real_rules_client, racks_table, discipline="wpa_ten", format={"race_to": 3},
                          options={"scoring": "racks"})["id"]

    def send(mid, table, command):
        return real_rules_client.post(f"/api/matches/{mid}/commands", json=envelope(mid, command),
                           headers=bearer(table["token"]))

    for mid, table in ((judged, judged_table), (by_racks, racks_table)):
        assert send(mid, table, {"kind": "start", "breaker": "a"}).json()["type"] == "ack"
    assert send(judged, judged_table, {"kind": "shot", "player": "a", "first_contact": 1, "break_rails": 4}
                ).json()["type"] == "ack"
    cases = [
        (judged, judged_table, {"kind": "shot", "player": "b", "first_contact": 3, "pocketed": [3], "called": 4},
         422, "bad_command"),
        (judged, judged_table, {"kind": "shot", "player": "b", "first_contact": 3, "push_out": True},
         409, "not_allowed"),
        (judged, judged_table, {"kind": "rack", "winner": "a"}, 409, "not_allowed"),
        (by_racks, racks_table, {"kind": "shot", "player": "a", "first_contact": 1, "break_rails": 4},
         409, "not_allowed"),
        (by_racks, racks_table, {"kind": "rack", "winner": "nobody"}, 422, "bad_command"),
    ]
    for mid, table, command, status, code in cases:
        r = send(mid, table, command)
        _is_error(r, status)
        assert r.json()["error"]["code"] == code, command
    assert len(real_rules_client.get(f"/api/matches/{judged}/events").json()["events"]) == 2
    assert len(real_rules_client.get(f"/api/matches/{by_racks}/events").json()["events"]) == 1
    assert send(by_racks, racks_table, {"kind": "rack", "winner": "b"}).json()["type"] == "ack"
    assert real_rules_client.get(f"/api/matches/{by_racks}").json()["players"][1]["score"] == 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(["rack", "shot"]), winner=json_values, win_type=json_values, paid_by=json_values,
       called=json_values, pocketed=json_values)
def test_random_calls_and_racks_never_500(real_rules_client, kind, winner, win_type, paid_by, called, pocketed):
    """The new fields with any JSON value, on a rack-scored chase_nine match and a judged wpa_ten one."""
    tables = getattr(real_rules_client, "racks_tables", None)
    if tables is None:
        tables = []
        for discipline, fmt, options, start in (
                ("chase_nine", {"racks": 3}, {"scoring": "racks"}, {"kind": "start", "order": ["a", "b", "c"]}),
                ("wpa_ten", {"race_to": 3}, {}, {"kind": "start", "breaker": "a"})):
            table = make_table(real_rules_client)
            players = [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}, {"id": "c", "name": "C"}]
            table["mid"] = make_match(real_rules_client, table, discipline=discipline, format=fmt, options=options,
                                      players=players[:3 if discipline == "chase_nine" else 2])["id"]
            real_rules_client.post(f"/api/matches/{table['mid']}/commands", json=envelope(table["mid"], start),
                        headers=bearer(table["token"]))
            tables.append(table)
        real_rules_client.racks_tables = tables
    command = {"kind": kind, "winner": winner, "win_type": win_type, "paid_by": paid_by, "player": "a",
               "first_contact": 1, "called": called, "pocketed": pocketed}
    for table in tables:
        r = real_rules_client.post(f"/api/matches/{table['mid']}/commands", json=envelope(table["mid"], command),
                        headers=bearer(table["token"]))
        assert r.status_code < 500, r.text
        assert "error" in r.json() or r.json()["type"] == "ack"

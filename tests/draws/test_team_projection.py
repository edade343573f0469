"""A team match in the tournament projection (hub/draws/team_projection.py): lineups hidden until both
teams have named theirs, except from the desk."""

from __future__ import annotations

from hub.draws.team_projection import team_json
from tests.draws.harness import Stream
from tests.draws.test_teams import add_teams, team_draw


def test_lineups_are_hidden_until_both_teams_named_theirs() -> None:
    s = Stream()
    add_teams(s, 2, size=3)
    team_draw(s)
    a, b = s.match("W1-1")["players"]
    member = s.state.player(a).members[1].id
    s.do({"kind": "name_lineup", "key": "W1-1", "rubber": 2, "team": a, "members": [member]})
    rubber = s.match("W1-1")["team"]["rubbers"][1]
    assert rubber["named"] == [a] and rubber["lineups"] == {} and rubber["status"] == "waiting"
    assert member not in str(s.match("W1-1"))
    other = s.state.player(b).members[0].person or s.state.player(b).members[0].id
    s.do({"kind": "name_lineup", "key": "W1-1", "rubber": 2, "team": b, "members": [other]})
    rubber = s.match("W1-1")["team"]["rubbers"][1]
    assert rubber["lineups"] == {a: [member], b: [s.state.player(b).members[0].id]} and rubber["status"] == "ready"
    desk = team_json(s.state, s.state.derived.by_key["W1-1"], desk=True)
    assert desk is not None and desk["rubbers"][0]["lineups"] == {}  # nothing named for rubber 1


def test_the_desk_sees_a_lineup_named_by_one_team_only() -> None:
    s = Stream()
    add_teams(s, 2, size=3)
    team_draw(s)
    a, _b = s.match("W1-1")["players"]
    member = s.state.player(a).members[2].id
    s.do({"kind": "name_lineup", "key": "W1-1", "rubber": 1, "team": a, "members": [member]})
    desk = team_json(s.state, s.state.derived.by_key["W1-1"], desk=True)
    assert desk is not None and desk["rubbers"][0]["lineups"] == {a: [member]}
    assert s.match("W1-1")["team"]["rubbers"][0]["lineups"] == {}

"""A walkover for a called key (`uncall: true`): the organiser decides a match that is on its table
but has not started; the I/O layer cancels that match in the same transaction."""

from __future__ import annotations

from hub.draws import calls, key_of_match

from .harness import Stream


def test_walkover_of_a_called_key_lets_its_match_go() -> None:
    s = Stream()
    s.add(4, seeded=True)
    s.draw("single_elimination")
    s.call("W1-1")
    mid, _table = calls(s.state)["W1-1"]
    assert s.reject({"kind": "walkover", "key": "W1-1", "winner": "p1"}).code == "match_called"
    event = s.do({"kind": "walkover", "key": "W1-1", "winner": "p4", "uncall": True})
    assert event.data == {"key": "W1-1", "match_id": mid, "winner": "p4"}
    w = s.match("W1-1")
    assert w["status"] == "walkover" and w["winner"] == "p4"
    assert "W1-1" not in calls(s.state) and key_of_match(s.state, mid) is None
    assert s.match("W2-1")["players"][0] == "p4"
    # and on a ready key `uncall` changes nothing
    assert s.do({"kind": "walkover", "key": "W1-2", "winner": "p2", "uncall": True}).data == {"key": "W1-2",
                                                                                               "winner": "p2"}
    assert s.reject({"kind": "walkover", "key": "W2-1", "winner": "p4", "uncall": "yes"}).status == 422

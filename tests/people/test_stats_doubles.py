"""hub/people/stats.py and attribution.py in scotch doubles: each member's own turns counted under
the member's person id (an out-of-turn stroke under the partner who played it), the side's as before."""

from __future__ import annotations

import hub.rules as rules
from hub.people import tally
from hub.people.stats import match_tallies
from tests.rules.harness import Match
from tests.rules.test_doubles import SIDES


def test_each_member_counts_their_own_strokes() -> None:
    m = Match("wpa_nine", players=SIDES, fmt={"race_to": 2}, doubles=True)
    m.send({"kind": "start", "breaker": "a"})
    m.shot("a", 1, [2], break_rails=4, intent="pot")  # a1 breaks, pockets the 2
    m.shot("a", 1, [1], intent="pot")  # a2 pots the 1
    m.shot("a", 3, [], rail=True, intent="safety")  # a1 plays safe
    m.shot("b", 4, [], rail=True, called_fouls=["out_of_turn"])  # b.2 played b.1's turn: wrong ball first too
    m.send({"kind": "undo"})
    m.shot("b", 4, [], rail=True, called_fouls=["out_of_turn"])
    m.shot("a", 3, [9])  # a2 wins the rack on the combination
    m.shot("b", 1, [9], break_rails=4)  # b breaks rack 2 (alternate) with b.2 due: the nine on the break
    m.shot("a", 1, [9], break_rails=4)  # a1 breaks rack 3 and wins the match
    assert m.proj["winner"] == "a"
    found = match_tallies(rules, m.setup, m.events)
    members = {pid: tally.summary(t) for pid, t in found.members.items()}
    assert set(members) == {"a1", "a2", "b.1", "b.2"}
    assert members["a1"]["strokes"]["count"] == 3 and members["a2"]["strokes"]["count"] == 2
    assert members["a1"]["breaks"]["taken"] == 2 and members["a2"]["breaks"]["taken"] == 0
    # the out-of-turn stroke is b.2's, who played it; b.2 also broke rack 2 (b's second turn)
    assert members["b.2"]["strokes"]["count"] == 2 and members["b.1"]["strokes"]["count"] == 0
    assert members["b.2"]["fouls"]["by_code"] == {"out_of_turn": 1, "wrong_ball_first": 1}
    assert members["a1"]["racks"]["played"] == 3 and members["a1"]["racks"]["won"] == 2
    assert members["b.1"]["matches"]["won"] == 0 and members["a2"]["matches"]["won"] == 1
    # the sides' own tallies are the sum of their members' strokes
    sides = {pid: tally.summary(t) for pid, t in found.tallies.items()}
    assert sides["a"]["strokes"]["count"] == 5 and sides["b"]["strokes"]["count"] == 2


def test_singles_has_no_member_tallies() -> None:
    m = Match("wpa_nine")
    m.send({"kind": "start", "breaker": "a"})
    m.shot("a", 1, [], break_rails=4)
    assert match_tallies(rules, m.setup, m.events).members == {}

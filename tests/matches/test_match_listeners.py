"""The one list of what listens to a match's stored changes (hub/matches/listeners.py): a hub
running with everything on has every role attached, and each listener hears a stored change once."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from hub.matches.listeners import MATCH_LISTENERS
from hub.matches.writer import MatchWriter
from tests.frames import auth_frame
from tests.services import wait_until
from tests.spine_helpers import admin, make_match, make_table


def test_every_role_is_attached_and_hears_a_stored_change_once(real_rules_client: Any) -> None:
    c = real_rules_client
    assert c.app.state.services.settings.people_keeper  # people and ratings listen too
    assert c.get("/api/tournaments").status_code == 200  # the tournament list is made at its first call
    table = make_table(c)
    writer: MatchWriter = c.app.state.services.writer
    with c.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        ws.send_json(auth_frame(table["token"]))
        assert ws.receive_json()["type"] == "ready"
        attached = writer.listeners
        assert [role for role, listeners in attached.items() if listeners] == list(MATCH_LISTENERS)
        heard: Counter[tuple[str, int]] = Counter()
        originals = {role: list(listeners) for role, listeners in attached.items()}

        def counting(role: str, index: int, listener: Any) -> Any:
            def hear(change: Any) -> None:
                heard[(role, index)] += 1
                listener(change)
            return hear

        for role, listeners in attached.items():
            listeners[:] = [counting(role, i, one) for i, one in enumerate(listeners)]
        try:
            expected = {(role, i) for role, listeners in originals.items() for i in range(len(listeners))}
            make_match(c, table)  # one stored change: the match is made
            wait_until(lambda: set(heard) == expected, what="every listener to hear the new match")
            c.get("/api/health", headers=admin())  # a round trip through the loop: a second call would be in by now
            assert set(heard.values()) == {1}, heard
        finally:
            for role, listeners in originals.items():
                attached[role][:] = listeners


def test_a_listener_without_a_role_in_the_list_is_refused(real_rules_client: Any) -> None:
    writer: MatchWriter = real_rules_client.app.state.services.writer
    with pytest.raises(ValueError, match="MATCH_LISTENERS"):
        writer.subscribe(lambda change: None, "scoreboard")

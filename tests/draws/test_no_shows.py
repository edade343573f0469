"""No-shows (PROTOCOL.md section 16), pure: the setting, the desk's wait, and when a call is flagged."""

from __future__ import annotations

import pytest

from hub.draws import fold, no_shows, projection
from tests.draws.harness import Stream


def called() -> tuple[Stream, str]:
    s = Stream()
    s.add(4)
    s.draw("single_elimination")
    key = s.view["queue"][0]
    s.call(key)
    return s, key


def test_default_ten_minutes_from_the_stored_call_time() -> None:
    s, key = called()
    at = s.state.calls[key].at
    assert at == s.events[-1].at and at > 0
    assert s.state.no_show_minutes == 10.0
    assert no_shows.no_show_at(s.state, key) == at + 600_000
    m = s.match(key)
    assert (m["called_at"], m["no_show_at"]) == (at, at + 600_000)
    assert s.view["no_show_minutes"] == 10.0


def test_flagged_only_past_the_time_and_while_not_started() -> None:
    s, key = called()
    due = no_shows.no_show_at(s.state, key)
    assert due is not None
    assert no_shows.flagged(s.state, [], due - 1) == []
    [flag] = no_shows.flagged(s.state, [], due + 5)
    assert flag["key"] == key and flag["since_ms"] == due + 5 - flag["called_at"]
    assert no_shows.flagged(s.state, [flag["match_id"]], due + 5) == []


def test_fractional_setting_changes_every_open_call() -> None:
    s, key = called()
    s.do({"kind": "set_no_show_minutes", "minutes": 0.5})
    assert s.state.no_show_minutes == 0.5
    assert no_shows.no_show_at(s.state, key) == s.state.calls[key].at + 30_000


@pytest.mark.parametrize("bad", [0, -1, "5", None, True, 1441, float("nan")])
def test_bad_settings_are_refused(bad: object) -> None:
    s, _ = called()
    r = s.reject({"kind": "set_no_show_minutes", "minutes": bad})
    assert (r.status, r.code) == (422, "bad_request")


def test_wait_runs_from_its_own_time_and_a_new_call_forgets_it() -> None:
    s, key = called()
    ev = s.do({"kind": "wait_no_show", "key": key})
    assert no_shows.no_show_at(s.state, key) == max(s.state.calls[key].at + 600_000, ev.at + 300_000)
    s.do({"kind": "wait_no_show", "key": key, "minutes": 30})
    assert no_shows.no_show_at(s.state, key) == s.events[-1].at + 1_800_000
    s.do({"kind": "uncall", "key": key})
    assert no_shows.no_show_at(s.state, key) is None
    s.call(key)
    assert no_shows.no_show_at(s.state, key) == s.state.calls[key].at + 600_000


def test_wait_needs_a_called_key() -> None:
    s, key = called()
    other = s.view["queue"][0]
    assert s.reject({"kind": "wait_no_show", "key": other}).code == "not_called"
    assert s.reject({"kind": "wait_no_show", "key": "nope"}).status == 404
    assert s.reject({"kind": "wait_no_show", "key": key, "minutes": 0}).code == "bad_request"


def test_fold_gives_the_same_flags() -> None:
    s, key = called()
    s.do({"kind": "set_no_show_minutes", "minutes": 2})
    s.do({"kind": "wait_no_show", "key": key, "minutes": 1})
    again = fold("t1", s.events)
    assert projection(again) == s.view
    assert no_shows.flagged(again, [], 10**12) == no_shows.flagged(s.state, [], 10**12)

"""The team events the desk offers (hub/draws/draw_formats/team_presets.py) are draws the hub takes."""

from __future__ import annotations

from hub.draws import draw_formats
from hub.draws.draw_formats.team_presets import catalogue
from hub.draws.teams import check_team_spec


def test_every_preset_is_a_draw_type_and_a_team_spec_the_draw_takes() -> None:
    presets = {p["name"]: p for p in catalogue()["presets"]}
    for p in presets.values():
        assert p["type"] in draw_formats.names()
        if "team" in p:
            assert check_team_spec(p["team"]) == p["team"]
    mosconi = presets["mosconi"]
    kinds = [r["kind"] for r in mosconi["team"]["rubbers"]]
    assert (len(kinds), mosconi["team"]["to_win"], mosconi["format"]) == (21, 11, {"race_to": 5})
    assert {"singles", "doubles"} == set(kinds)
    assert presets["world_cup"]["doubles"] is True and presets["world_cup"]["members"] == {"min": 2, "max": 2}

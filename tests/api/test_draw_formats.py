"""GET /api/draw-formats: public, the registry's formats with their settings, an ETag and a 304."""

from __future__ import annotations

from hub.draws import draw_formats


def test_the_draw_formats_are_served_from_the_registry(fake_rules_client):
    r = fake_rules_client.get("/api/draw-formats")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert body == draw_formats.catalogue()
    assert [f["name"] for f in body["formats"]] == list(draw_formats.FORMATS)
    assert body["default"] in draw_formats.FORMATS
    by_name = {f["name"]: f for f in body["formats"]}
    groups = by_name["round_robin"]["params"]
    assert groups == [{"name": "groups", "type": "integer", "minimum": 1, "maximum": 26, "default": 1,
                       "about": groups[0]["about"]}]
    assert by_name["chase_groups"]["disciplines"] == ["chase_nine"]
    assert by_name["chase_groups"]["players_per_match"] == 3 and by_name["chase_groups"]["then"] is None
    assert "chase_nine" not in by_name["single_elimination"]["disciplines"]
    then = by_name["double_elimination"]["then"]
    assert then["types"] == ["single_elimination"] and then["advance"]["minimum"] == 4
    assert by_name["double_elimination"]["race_sides"] == ["winners", "losers", "final"]
    assert then["race_sides"] == ["winners", "losers"]  # stopped for a knockout: no grand final


def test_the_draw_formats_answer_304_to_a_current_copy(fake_rules_client):
    first = fake_rules_client.get("/api/draw-formats")
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == "no-cache"
    again = fake_rules_client.get("/api/draw-formats", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    assert fake_rules_client.get("/api/draw-formats", headers={"If-None-Match": '"other"'}).status_code == 200


def test_the_draw_formats_are_in_the_openapi_description(fake_rules_client):
    spec = fake_rules_client.get("/openapi.json").json()
    assert "/api/draw-formats" in spec["paths"]
    draw = spec["components"]["schemas"]["DrawCreate"]["properties"]
    assert draw["type"]["enum"] == list(draw_formats.FORMATS)
    assert (draw["groups"]["anyOf"][0]["maximum"], draw["rounds"]["anyOf"][0]["maximum"]) == (26, 50)

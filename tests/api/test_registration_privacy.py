"""Contact details are never public (PROTOCOL.md section 14): a sign-up's contact is in no public
answer, page, export or channel message; only the desk's entries list shows it. Also: only the
secret's hash is stored."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from spine_helpers import admin, bearer

from hub.app import create_app
from hub.settings import Settings
from hub.store.db import make_engine
from tests.frames import subscribe_frame

CONTACT = "wechat-zz9-plural-z-alpha"
WPA = {"discipline": "wpa_nine", "format": {"race_to": 2}, "options": {}}


@pytest.fixture
def c(sqlite_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_settings)) as client:
        yield client


def test_the_contact_is_in_no_public_read_export_page_or_channel(c: TestClient, sqlite_settings: Settings) -> None:
    tid = c.post("/api/tournaments", json={"name": "Open"}, headers=admin()).json()["id"]
    c.patch(f"/api/tournaments/{tid}", json={"registration": {"open": True, "auto_accept": True}}, headers=admin())
    with c.websocket_connect("/ws/watch") as ws:
        ws.send_json(subscribe_frame(f"tournament:{tid}"))
        messages = [ws.receive_json()]
        made = []
        for name in ("Ann", "Bob", "Cat"):
            r = c.post(f"/api/tournaments/{tid}/entries", json={"name": name, "contact": f"{CONTACT}-{name}"})
            assert r.status_code == 201
            made.append(r.json())
            messages.append(ws.receive_json())
        assert CONTACT not in json.dumps(made)
        r = c.post(f"/api/tournaments/{tid}/draw", json={"type": "round_robin", "match": WPA}, headers=admin())
        assert r.status_code == 201
        messages.append(ws.receive_json())
    players = c.get(f"/api/tournaments/{tid}/players").json()["players"]
    assert len(players) == 3
    public = [f"/api/tournaments/{tid}", f"/api/tournaments/{tid}/players", f"/api/tournaments/{tid}/registration",
              f"/api/tournaments/{tid}/results.json", f"/api/tournaments/{tid}/results.csv",
              f"/api/tournaments/{tid}/placings.csv", f"/api/tournaments/{tid}/stats", "/api/tournaments",
              "/api/people?q=ann", "/api/matches", f"/enter/{tid}", f"/board/{tid}", f"/bracket/{tid}"]
    public += [f"/api/people/{p['person']}" for p in players]
    for url in public:
        r = c.get(url)
        assert r.status_code == 200, (url, r.status_code)
        assert CONTACT not in r.text, url
    for m in made:
        own = c.get("/api/entries/self", headers=bearer(m["secret"]))
        assert own.status_code == 200 and CONTACT not in own.text
    assert CONTACT not in json.dumps(messages)
    desk = c.get(f"/api/tournaments/{tid}/entries", headers=admin())
    assert [e["contact"] for e in desk.json()["entries"]] == [f"{CONTACT}-{n}" for n in ("Ann", "Bob", "Cat")]
    assert c.get(f"/api/tournaments/{tid}/entries").status_code == 401
    assert desk.headers["cache-control"] == "no-store"

    async def stored_text() -> str:
        engine = make_engine(sqlite_settings)
        try:
            async with engine.connect() as conn:
                rows = (await conn.execute(sa.text("SELECT data FROM registration_events"))).all()
                hashes = (await conn.execute(sa.text("SELECT secret_hash FROM entry_secrets"))).all()
        finally:
            await engine.dispose()
        return json.dumps([str(r[0]) for r in rows] + [h[0] for h in hashes])

    stored = asyncio.run(stored_text())
    for m in made:  # only the secret's hash is stored
        assert m["secret"] not in stored
        assert hashlib.sha256(m["secret"].encode()).hexdigest() in stored

"""people: one directory of the people who play, entries linked to them, read models across events

- people (+ people_terms, the search index; people_merges, the merge log): the directory;
- people_entries: each tournament entry (a player of section 7) and the person it points at, plus
  its read model (name played under, status, place, statistics of the event);
- history_matches, history_players, history_heads: finished matches and walkovers by entry, and how
  far the read models have followed each stream;
- meta `people_directory_lock`: the row every directory decision locks.

Every entry already stored is linked by the rule of PROTOCOL.md section 12 (the one person whose
folded name and club are the entry's and who has no other entry in that tournament, else a new
person), tournament by tournament in the order they were made, and each tournament's stream gets
a `players_linked` event carrying its links (`links`: player id -> person id; `created`: the players
a person was made for): the stream stays the truth of its links. The read
models (matches, statistics, places) are made by the hub at its next start (hub/people/keeper.py
sweeps for finished matches and tournaments it has not read) or at once by `cuehub people rebuild`.

Revision ID: 0006_people
Revises: 0005
Create Date: 2026-12-06
"""

import secrets
import time
from typing import Any

import sqlalchemy as sa
from alembic import op

from hub.people import folding

revision = "0006_people"
down_revision = "0005"
branch_labels = None
depends_on = None

LOCK_KEY = "people_directory_lock"
BATCH = 500


def bytewise(length: int) -> Any:
    return sa.String(length).with_variant(sa.String(length, collation="C"), "postgresql")


def _tables() -> None:
    op.create_table(
        "people",
        sa.Column("n", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("id", sa.String(64), nullable=False, unique=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("club", sa.String(200), nullable=True),
        sa.Column("aliases", sa.JSON, nullable=False),
        sa.Column("link_key", sa.String(420), nullable=False, index=True),
        sa.Column("sort_key", bytewise(220), nullable=False),
        sa.Column("search", sa.Text, nullable=False),
        sa.Column("merged_into", sa.String(64), nullable=True, index=True),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("updated_at", sa.BigInteger, nullable=False),
        sa.Index("ix_people_sort", "sort_key", "n"),
    )
    op.create_table(
        "people_terms",
        sa.Column("term", bytewise(48), primary_key=True),
        sa.Column("person_n", sa.Integer, sa.ForeignKey("people.n"), primary_key=True, index=True),
    )
    op.create_table(
        "people_merges",
        sa.Column("n", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("person_id", sa.String(64), sa.ForeignKey("people.id"), nullable=False, index=True),
        sa.Column("into_id", sa.String(64), sa.ForeignKey("people.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "people_entries",
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("person_id", sa.String(64), sa.ForeignKey("people.id"), nullable=False, index=True),
        sa.Column("link", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("status", sa.String(16), nullable=True),
        sa.Column("place", sa.Integer, nullable=True),
        sa.Column("stats", sa.JSON, nullable=True),
    )
    op.create_table(
        "history_matches",
        sa.Column("ref", sa.String(100), primary_key=True),
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"), nullable=False, index=True),
        sa.Column("match_id", sa.String(64), nullable=True),
        sa.Column("draw_key", sa.String(16), nullable=True),
        sa.Column("round", sa.JSON, nullable=True),
        sa.Column("discipline", sa.String(32), nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
        sa.Column("entered", sa.Boolean, nullable=False),
        sa.Column("walkover", sa.Boolean, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("winner", sa.String(64), nullable=True),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("racks", sa.JSON, nullable=False),
    )
    op.create_table(
        "history_players",
        sa.Column("ref", sa.String(100), sa.ForeignKey("history_matches.ref"), primary_key=True),
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("tournament_id", sa.String(64), nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
        sa.Column("discipline", sa.String(32), nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("walkover", sa.Boolean, nullable=False),
        sa.Column("stats", sa.JSON, nullable=True),
        sa.Index("ix_history_players_entry", "tournament_id", "player_id", "at"),
    )
    op.create_table(
        "history_heads",
        sa.Column("stream", sa.String(100), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
    )


# The tables as this revision writes them (not the app's schema objects: those may change later).
META = sa.table("meta", sa.column("key"), sa.column("value"))
TOURNAMENTS = sa.table("tournaments", sa.column("n"), sa.column("id"))
T_EVENTS = sa.table("tournament_events", sa.column("tournament_id"), sa.column("version"), sa.column("kind"),
                    sa.column("data", sa.JSON), sa.column("at"), sa.column("command_id"))
PEOPLE = sa.table("people", sa.column("n"), sa.column("id"), sa.column("name"), sa.column("club"),
                  sa.column("aliases", sa.JSON), sa.column("link_key"), sa.column("sort_key"), sa.column("search"),
                  sa.column("merged_into"), sa.column("created_at"), sa.column("updated_at"))
TERMS = sa.table("people_terms", sa.column("term"), sa.column("person_n"))
ENTRIES = sa.table("people_entries", sa.column("tournament_id"), sa.column("player_id"), sa.column("person_id"),
                   sa.column("link"), sa.column("version"), sa.column("name"))


def _players(bind: Any, tid: str) -> tuple[dict[str, dict[str, Any]], int]:
    """A tournament's players (id -> name, club, person) as its events leave them, and its head."""
    players: dict[str, dict[str, Any]] = {}
    head = 0
    rows = bind.execute(sa.select(T_EVENTS.c.version, T_EVENTS.c.kind, T_EVENTS.c.data)
                        .where(T_EVENTS.c.tournament_id == tid).order_by(T_EVENTS.c.version))
    for version, kind, data in rows:
        head = version
        data = data or {}
        if kind == "players_added":
            for p in data.get("players") or []:
                players[p["id"]] = {"name": p["name"], "club": p.get("club"), "person": p.get("person")}
        elif kind == "player_updated" and data.get("player") in players:
            changes = data.get("changes") or {}
            players[data["player"]].update({k: v for k, v in changes.items() if k in ("name", "club", "person")})
    return players, head


def _link_all(bind: Any) -> None:
    now = time.time_ns() // 1_000_000
    by_key: dict[str, list[str]] = {}
    made: list[dict[str, Any]] = []
    terms: dict[str, list[str]] = {}
    entries: list[dict[str, Any]] = []
    linked_events: list[dict[str, Any]] = []
    for (tid,) in bind.execute(sa.select(TOURNAMENTS.c.id).order_by(TOURNAMENTS.c.n)).all():
        players, head = _players(bind, tid)
        if not players:
            continue
        taken: set[str] = set()
        links: dict[str, str] = {}
        created: list[str] = []
        for pid, p in players.items():
            key = folding.link_key(p["name"], p["club"])[:420]
            found = [c for c in by_key.get(key, []) if c not in taken]
            if len(found) == 1:
                person, link = found[0], "linked"
            else:
                person, link = "pe" + secrets.token_hex(5), "created"
                words = folding.terms(p["name"], p["club"], [])
                made.append({"id": person, "name": p["name"], "club": p["club"], "aliases": [], "link_key": key,
                             "sort_key": folding.sort_key(p["name"]), "search": " ".join(words),
                             "merged_into": None, "created_at": now, "updated_at": now})
                terms[person] = words
                by_key.setdefault(key, []).append(person)
                created.append(pid)
            taken.add(person)
            links[pid] = person
            entries.append({"tournament_id": tid, "player_id": pid, "person_id": person, "link": link,
                            "version": head + 1, "name": p["name"]})
        linked_events.append({"tournament_id": tid, "version": head + 1, "kind": "players_linked",
                              "data": {"links": links, "created": created}, "at": now, "command_id": None})
    for i in range(0, len(made), BATCH):
        bind.execute(PEOPLE.insert(), made[i:i + BATCH])
    numbers = dict(bind.execute(sa.select(PEOPLE.c.id, PEOPLE.c.n)).all())
    rows = [{"term": t, "person_n": numbers[person]} for person, words in terms.items() for t in dict.fromkeys(words)]
    for batch in (rows, entries, linked_events):
        table = TERMS if batch is rows else ENTRIES if batch is entries else T_EVENTS
        for i in range(0, len(batch), BATCH):
            bind.execute(table.insert(), batch[i:i + BATCH])


def upgrade() -> None:
    _tables()
    bind = op.get_bind()
    bind.execute(META.insert().values(key=LOCK_KEY, value="1"))
    _link_all(bind)


def downgrade() -> None:
    bind = op.get_bind()
    # The streams keep their players_linked events: the code before this revision skips kinds it
    # does not know (they only advance the version).
    bind.execute(META.delete().where(META.c.key == LOCK_KEY))
    for table in ("history_heads", "history_players", "history_matches", "people_entries", "people_merges",
                  "people_terms", "people"):
        op.drop_table(table)

"""The relational shape of the store. Alembic migrations create exactly this.

Concurrency and idempotency live in the schema, not in luck:
- events: primary key (match_id, version) -> two writers of the same version cannot both commit;
- events: unique (match_id, command_id) -> a command id is stored at most once per match;
- matches: a partial unique index on table_id over scheduled and live matches -> one open match per table;
- tournament_events: primary key (tournament_id, version), as for a match's events.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

# Integer surrogate `n` columns give a stable creation order (ids are random strings).
tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("n", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("id", sa.String(64), nullable=False, unique=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
)

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("n", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("id", sa.String(64), nullable=False, unique=True),
    sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"), nullable=False, index=True),
    sa.Column("name", sa.String(200), nullable=False),
    # sha256 hex of the table token; the token itself is never stored.
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.BigInteger, nullable=False),
)

matches = sa.Table(
    "matches",
    metadata,
    sa.Column("n", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("id", sa.String(64), nullable=False, unique=True),
    sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"), nullable=False, index=True),
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False, index=True),
    sa.Column("discipline", sa.String(32), nullable=False),
    # The POST /api/matches body with hub-made player ids filled in: re-validating it rebuilds the setup.
    sa.Column("setup", sa.JSON, nullable=False),
    # Denormalised from the fold, updated in the same transaction as each append, for listings.
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("version", sa.Integer, nullable=False, server_default="0"),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    # The draw match this match plays (tournament_events), null for a match made by hand.
    sa.Column("draw_key", sa.String(16), nullable=True),
    # Only scheduled and live matches hold their table; finished and cancelled ones do not.
    sa.Index(
        "uq_matches_open_table",
        "table_id",
        unique=True,
        sqlite_where=sa.text("status IN ('scheduled', 'live')"),
        postgresql_where=sa.text("status IN ('scheduled', 'live')"),
    ),
)

events = sa.Table(
    "events",
    metadata,
    sa.Column("match_id", sa.String(64), sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("at", sa.BigInteger, nullable=False),
    sa.Column("command_id", sa.String(64), nullable=True),
    sa.Column("voided", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.UniqueConstraint("match_id", "command_id", name="uq_events_command"),
)

# A tournament's own stream: players, the draw, walkovers, calls to tables, results taken from
# finished matches, table pauses (hub/draws folds it). Same concurrency rule as a match's events.
tournament_events = sa.Table(
    "tournament_events",
    metadata,
    sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("at", sa.BigInteger, nullable=False),
    sa.Column("command_id", sa.String(64), nullable=True),
    sa.UniqueConstraint("tournament_id", "command_id", name="uq_tournament_events_command"),
)

# First answers to rejected commands, so a retried id gets the same reject (PROTOCOL.md section 3).
rejections = sa.Table(
    "rejections",
    metadata,
    sa.Column("match_id", sa.String(64), sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("command_id", sa.String(64), primary_key=True),
    sa.Column("code", sa.String(32), nullable=False),
    sa.Column("message", sa.String(500), nullable=False),
    sa.Column("at", sa.BigInteger, nullable=False),
)

# When each hub process last heard a tablet of each table (hub/matches/presence.py): the shot clock does not
# call time on a table whose tablets nobody has heard for a moment, in any process. A table with no
# row has never had a tablet session (it is driven over HTTP) and keeps its clock as before.
tablet_presence = sa.Table(
    "tablet_presence",
    metadata,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("holder", sa.String(64), primary_key=True),  # the hub process (a uuid per start)
    sa.Column("heard_at", sa.BigInteger, nullable=False),  # server ms
)

meta = sa.Table(
    "meta",
    metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("value", sa.String(500), nullable=False),
)

# --- the desk (PROTOCOL.md section 8): sign-in sessions, pairing codes, per-tablet tokens ------

# A signed-in desk: the sha256 of the `cuehub_session` cookie's value (the value itself is never
# stored), the admin token hash it was opened with (a changed HUB_ADMIN_TOKEN ends it), and its
# expiry, slid forward while it is used.
desk_sessions = sa.Table(
    "desk_sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("admin_hash", sa.String(64), nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("seen_at", sa.BigInteger, nullable=False),
    sa.Column("expires_at", sa.BigInteger, nullable=False, index=True),
)

# A tablet's own token for its table (given by pairing); the table's token rotation deletes them all.
table_tokens = sa.Table(
    "table_tokens",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False, index=True),
    sa.Column("created_at", sa.BigInteger, nullable=False),
)

# One-time 6-digit pairing codes (sha256 of the code), valid until expires_at, spent once (used_at).
pairing_codes = sa.Table(
    "pairing_codes",
    metadata,
    sa.Column("code_hash", sa.String(64), primary_key=True),
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False, index=True),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("expires_at", sa.BigInteger, nullable=False),
    sa.Column("used_at", sa.BigInteger, nullable=True),
    # The card's QR secret (sha256), spent with the code: one card pairs one tablet.
    sa.Column("secret_hash", sa.String(64), nullable=True),
    sa.Index("ix_pairing_codes_secret_hash", "secret_hash", unique=True),
)

# Attempt counters for sign-in and pairing (per client address, and hub-wide for pairing), in the
# store so every hub process applies the same backoff; `version` makes each update a compare-and-set.
auth_throttle = sa.Table(
    "auth_throttle",
    metadata,
    sa.Column("key", sa.String(96), primary_key=True),
    sa.Column("attempts", sa.Integer, nullable=False),
    sa.Column("next_at", sa.BigInteger, nullable=False),
    sa.Column("last_at", sa.BigInteger, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
)

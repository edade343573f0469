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


def bytewise(length: int) -> sa.types.TypeEngine[str]:
    """A string compared byte by byte (code point order) on PostgreSQL too, whatever the database's
    collation: a prefix is then a range of the index (SQLite compares bytes already)."""
    return sa.String(length).with_variant(sa.String(length, collation="C"), "postgresql")

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

# --- people across events (PROTOCOL.md section 12; hub/people/) --------------------------------

# The directory. `link_key` (folded name and club) is what the link rule compares; `sort_key` the
# directory's order; `search` the folded search terms (hub/people/folding.py), computed when the
# row is written and indexed word by word in `people_terms`. A merged person keeps its row and
# points at the one it was merged into (`merged_into`; never a chain).
people = sa.Table(
    "people",
    metadata,
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

# One row per search term of a person: a query word finds the terms it begins (a range scan of
# the primary key), on SQLite and PostgreSQL alike, with no extension.
people_terms = sa.Table(
    "people_terms",
    metadata,
    sa.Column("term", bytewise(48), primary_key=True),
    sa.Column("person_n", sa.Integer, sa.ForeignKey("people.n"), primary_key=True, index=True),
)

# Every merge and unmerge, in order: the log an unmerge is checked against (hub/people/directory.py: merge, unmerge).
people_merges = sa.Table(
    "people_merges",
    metadata,
    sa.Column("n", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("person_id", sa.String(64), sa.ForeignKey("people.id"), nullable=False, index=True),
    sa.Column("into_id", sa.String(64), sa.ForeignKey("people.id"), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),  # merge | unmerge
    sa.Column("at", sa.BigInteger, nullable=False),
)

# A tournament entry (a player of section 7) and the person it points at. `person_id`, `link` and
# `version` are written in the transaction that stores the tournament event carrying the link
# (players_added, player_updated, players_linked): the link is the stream's, this row its index.
# The other columns are a read model kept by hub/people/keeper.py: the name played under, status,
# place once the draw is finished, and the statistics of the event (a tally, hub/people/tally.py).
people_entries = sa.Table(
    "people_entries",
    metadata,
    sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("person_id", sa.String(64), sa.ForeignKey("people.id"), nullable=False, index=True),
    sa.Column("link", sa.String(16), nullable=False),  # linked | created
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("status", sa.String(16), nullable=True),
    sa.Column("place", sa.Integer, nullable=True),
    sa.Column("stats", sa.JSON, nullable=True),
)

# The read model of finished matches (and walkovers) across events, keyed by entries: one row per
# match (`ref`: the match id, or `walkover:<tid>:<key>`), one row per player of it. `version` is
# the match version the row was made from; `racks` the racks as (winner, loser, count) for ratings.
history_matches = sa.Table(
    "history_matches",
    metadata,
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

history_players = sa.Table(
    "history_players",
    metadata,
    sa.Column("ref", sa.String(100), sa.ForeignKey("history_matches.ref"), primary_key=True),
    sa.Column("player_id", sa.String(64), primary_key=True),
    sa.Column("tournament_id", sa.String(64), nullable=False),
    sa.Column("at", sa.BigInteger, nullable=False),
    sa.Column("discipline", sa.String(32), nullable=False),
    sa.Column("won", sa.Boolean, nullable=False),
    sa.Column("walkover", sa.Boolean, nullable=False),
    sa.Column("stats", sa.JSON, nullable=True),  # null for a walkover
    sa.Index("ix_history_players_entry", "tournament_id", "player_id", "at"),
)

# How far the read models have followed a stream: `tournament:<tid>` -> the tournament version
# the entries' status and places, and the walkovers, were made from.
history_heads = sa.Table(
    "history_heads",
    metadata,
    sa.Column("stream", sa.String(100), primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
)

# Sign-up and check-in (PROTOCOL.md section 14): each tournament's registration stream
# (hub/registration/), and the hash of each entry's secret -> its entry (the secret is shown once).
registration_events = sa.Table(
    "registration_events",
    metadata,
    sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("at", sa.BigInteger, nullable=False),
)

entry_secrets = sa.Table(
    "entry_secrets",
    metadata,
    sa.Column("secret_hash", sa.String(64), primary_key=True),
    sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"), nullable=False, index=True),
    sa.Column("entry_id", sa.String(64), nullable=False),
)

# --- ratings (PROTOCOL.md section 13; hub/ratings/) -------------------------------------------

# Each person's rating per discipline: a read model refitted from history_matches' racks by
# hub/ratings/keeper.py. `rank` is what the list shows (equal values share it); `position` the
# list's order (best first, provisional after), what its pages are cut on.
ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("discipline", sa.String(32), primary_key=True),
    sa.Column("person_id", sa.String(64), primary_key=True),
    sa.Column("value", sa.Integer, nullable=False),
    sa.Column("exact", sa.Float, nullable=False),
    sa.Column("racks", sa.Integer, nullable=False),
    sa.Column("provisional", sa.Boolean, nullable=False),
    sa.Column("rank", sa.Integer, nullable=False),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Index("ix_ratings_person", "person_id"),
    sa.Index("ix_ratings_position", "discipline", "position"),
)

# Per discipline: the fingerprint of what its rows were fitted from (racks and links), so a sweep
# refits only what changed.
ratings_heads = sa.Table(
    "ratings_heads",
    metadata,
    sa.Column("discipline", sa.String(32), primary_key=True),
    sa.Column("fingerprint", sa.String(200), nullable=False),
    sa.Column("people", sa.Integer, nullable=False),
    sa.Column("racks", sa.Integer, nullable=False),
    sa.Column("fitted_at", sa.BigInteger, nullable=False),
)

# --- series: a ranking over several tournaments (PROTOCOL.md section 13; hub/series/) -----------

# A series and its bands (`points`: first place of a band -> points; `best`: count a person's k
# best events, or null). `version` grows with every change of the series or of its standings.
series = sa.Table(
    "series",
    metadata,
    sa.Column("n", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("id", sa.String(64), nullable=False, unique=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("points", sa.JSON, nullable=False),
    sa.Column("best", sa.Integer, nullable=True),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
)

# The tournaments of a series, in the order they were added (no foreign key on the tournament: a
# deleted tournament drops out of the standings at the next refresh).
series_tournaments = sa.Table(
    "series_tournaments",
    metadata,
    sa.Column("series_id", sa.String(64), sa.ForeignKey("series.id"), primary_key=True),
    sa.Column("tournament_id", sa.String(64), primary_key=True, index=True),
    sa.Column("added_at", sa.BigInteger, nullable=False),
)

# The read model (hub/series/keeper.py): the series' tournaments and standings as last made, and
# what they were made from (`made_from`: each tournament's version and the people merges' count).
series_standings = sa.Table(
    "series_standings",
    metadata,
    sa.Column("series_id", sa.String(64), sa.ForeignKey("series.id"), primary_key=True),
    sa.Column("made_from", sa.JSON, nullable=False),
    sa.Column("body", sa.JSON, nullable=False),
)

# --- webhooks (PROTOCOL.md section 16; hub/webhooks/) ----------------------------------------------

# A receiver registered by the admin: where to POST, which events, the HMAC secret. `holder` and
# `lease_until`: the hub process that delivers this hook's queue now (one at a time, so its
# deliveries go out in order whatever the number of processes).
webhooks = sa.Table(
    "webhooks",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("url", sa.String(2000), nullable=False),
    sa.Column("events", sa.JSON, nullable=False),
    sa.Column("secret", sa.String(200), nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("holder", sa.String(64), nullable=True),
    sa.Column("lease_until", sa.BigInteger, nullable=False, server_default="0"),
)

# One event for one hook, stored before it is sent, so a restart loses none: `seq` orders a hook's
# deliveries; `status` pending -> delivered, or failed once its retries ran out (or dropped when the
# hook's queue was full); `next_at` when the next attempt is due; `latency_ms` of the last attempt.
webhook_deliveries = sa.Table(
    "webhook_deliveries",
    metadata,
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("id", sa.String(64), nullable=False, unique=True),
    sa.Column("hook_id", sa.String(64), sa.ForeignKey("webhooks.id", ondelete="CASCADE"), nullable=False),
    sa.Column("event", sa.String(64), nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("next_at", sa.BigInteger, nullable=False),
    sa.Column("last_code", sa.Integer, nullable=True),
    sa.Column("last_error", sa.String(200), nullable=True),
    sa.Column("latency_ms", sa.Integer, nullable=True),
    sa.Column("done_at", sa.BigInteger, nullable=True),
    sa.Index("ix_webhook_deliveries_queue", "hook_id", "status", "seq"),
)

# Every tablet each table has had, as the desk lists them (hub/matches/tablet_links.py): written once a
# beat by the hub process that holds its socket. `online` and `since` say its state and since when;
# a row whose `heard_at` is stale (its process died) reads as offline since then.
tablet_links = sa.Table(
    "tablet_links",
    metadata,
    sa.Column("tablet_id", sa.String(64), primary_key=True),
    sa.Column("table_id", sa.String(64), nullable=False, index=True),
    sa.Column("holder", sa.String(64), nullable=False),
    sa.Column("online", sa.Boolean, nullable=False),
    sa.Column("since", sa.BigInteger, nullable=False),
    sa.Column("heard_at", sa.BigInteger, nullable=False),
    sa.Column("label", sa.String(100), nullable=True),
)

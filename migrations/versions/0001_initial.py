"""initial schema: tournaments, tables, matches, events, rejections, meta

Revision ID: 0001
Revises:
Create Date: 2024-01-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "meta",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.String(500), nullable=False),
    )
    op.create_table(
        "tournaments",
        sa.Column("n", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("id", sa.String(64), nullable=False, unique=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("n", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("id", sa.String(64), nullable=False, unique=True),
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_tables_tournament_id", "tables", ["tournament_id"])
    op.create_table(
        "matches",
        sa.Column("n", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("id", sa.String(64), nullable=False, unique=True),
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("discipline", sa.String(32), nullable=False),
        sa.Column("setup", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_matches_tournament_id", "matches", ["tournament_id"])
    op.create_index("ix_matches_table_id", "matches", ["table_id"])
    op.create_index(
        "uq_matches_open_table",
        "matches",
        ["table_id"],
        unique=True,
        sqlite_where=sa.text("status != 'finished'"),
        postgresql_where=sa.text("status != 'finished'"),
    )
    op.create_table(
        "events",
        sa.Column("match_id", sa.String(64), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
        sa.Column("command_id", sa.String(64), nullable=True),
        sa.Column("voided", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.UniqueConstraint("match_id", "command_id", name="uq_events_command"),
    )
    op.create_table(
        "rejections",
        sa.Column("match_id", sa.String(64), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("command_id", sa.String(64), primary_key=True),
        sa.Column("code", sa.String(32), nullable=False),
        sa.Column("message", sa.String(500), nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rejections")
    op.drop_table("events")
    op.drop_index("uq_matches_open_table", table_name="matches")
    op.drop_index("ix_matches_table_id", table_name="matches")
    op.drop_index("ix_matches_tournament_id", table_name="matches")
    op.drop_table("matches")
    op.drop_index("ix_tables_tournament_id", table_name="tables")
    op.drop_table("tables")
    op.drop_table("tournaments")
    op.drop_table("meta")

"""desk: sign-in sessions, per-tablet table tokens, pairing codes, sign-in/pairing attempt counters

- desk_sessions: the organiser's signed-in browsers (sha256 of the session cookie, expiry);
- table_tokens: tokens a tablet got by pairing, several per table, ended by a rotation;
- pairing_codes: one-time 6-digit codes (sha256), valid 10 minutes;
- auth_throttle: attempt counters behind the sign-in and pairing backoff, shared by all processes.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "desk_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("admin_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("seen_at", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_desk_sessions_expires_at", "desk_sessions", ["expires_at"])
    op.create_table(
        "table_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_table_tokens_table_id", "table_tokens", ["table_id"])
    op.create_table(
        "pairing_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("expires_at", sa.BigInteger, nullable=False),
        sa.Column("used_at", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_pairing_codes_table_id", "pairing_codes", ["table_id"])
    op.create_table(
        "auth_throttle",
        sa.Column("key", sa.String(96), primary_key=True),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_at", sa.BigInteger, nullable=False),
        sa.Column("last_at", sa.BigInteger, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("auth_throttle")
    op.drop_index("ix_pairing_codes_table_id", table_name="pairing_codes")
    op.drop_table("pairing_codes")
    op.drop_index("ix_table_tokens_table_id", table_name="table_tokens")
    op.drop_table("table_tokens")
    op.drop_index("ix_desk_sessions_expires_at", table_name="desk_sessions")
    op.drop_table("desk_sessions")

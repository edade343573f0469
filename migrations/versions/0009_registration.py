"""registration: sign-up and check-in (PROTOCOL.md section 14)

- registration_events: each tournament's registration stream (settings, entries, their statuses,
  the check-in's close), one event per version, the primary key (tournament_id, version) being the
  concurrency rule as for tournament_events;
- entry_secrets: the hash of each entry's secret -> its tournament and entry (the secret is shown
  once; `/api/entries/self` finds the entry by the hash of the bearer it is given).

Revision ID: 0009_registration
Revises: 0006_people
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_registration"
down_revision = "0008_series"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "registration_events",
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "entry_secrets",
        sa.Column("secret_hash", sa.String(64), primary_key=True),
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"), nullable=False, index=True),
        sa.Column("entry_id", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("entry_secrets")
    op.drop_table("registration_events")

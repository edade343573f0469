"""series: a ranking over several tournaments (PROTOCOL.md section 13)

- series: a series, its bands of places and `best`;
- series_tournaments: its tournaments;
- series_standings: its standings, a read model the hub keeps (hub/series/keeper.py) and makes at
  its next start for a series that has none.

Revision ID: 0008_series
Revises: 0006_people
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_series"
down_revision = "0007_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "series",
        sa.Column("n", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("id", sa.String(64), nullable=False, unique=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("points", sa.JSON, nullable=False),
        sa.Column("best", sa.Integer, nullable=True),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
    )
    op.create_table(
        "series_tournaments",
        sa.Column("series_id", sa.String(64), sa.ForeignKey("series.id"), primary_key=True),
        sa.Column("tournament_id", sa.String(64), primary_key=True, index=True),
        sa.Column("added_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "series_standings",
        sa.Column("series_id", sa.String(64), sa.ForeignKey("series.id"), primary_key=True),
        sa.Column("made_from", sa.JSON, nullable=False),
        sa.Column("body", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("series_standings")
    op.drop_table("series_tournaments")
    op.drop_table("series")

"""tablet presence: when each hub process last heard a tablet of each table

tablet_presence (table_id, holder) -> heard_at (server ms). The clocks read it so a table whose
tablets have gone quiet collects no time fouls (hub/matches/presence.py, hub/matches/clocks.py).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tablet_presence",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("holder", sa.String(64), primary_key=True),
        sa.Column("heard_at", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tablet_presence")

"""tournaments: the tournament event stream, draw keys on matches, cancelled matches

- tournament_events: one stream per tournament (players, draw, walkovers, calls, results, table
  pauses), primary key (tournament_id, version): two writers of one version cannot both commit,
  as for a match's events;
- matches.draw_key: the draw match a match plays (null for a match made by hand);
- a match can be `cancelled` (a scheduled match taken off its table): only `scheduled` and `live`
  matches hold their table now, so the one-open-match-per-table index is rebuilt on that.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

OPEN = "status IN ('scheduled', 'live')"


def upgrade() -> None:
    op.create_table(
        "tournament_events",
        sa.Column("tournament_id", sa.String(64), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
        sa.Column("command_id", sa.String(64), nullable=True),
        sa.UniqueConstraint("tournament_id", "command_id", name="uq_tournament_events_command"),
    )
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("draw_key", sa.String(16), nullable=True))
    op.drop_index("uq_matches_open_table", table_name="matches")
    op.create_index(
        "uq_matches_open_table", "matches", ["table_id"], unique=True,
        sqlite_where=sa.text(OPEN), postgresql_where=sa.text(OPEN),
    )


def downgrade() -> None:
    op.drop_index("uq_matches_open_table", table_name="matches")
    op.execute("UPDATE matches SET status = 'finished' WHERE status = 'cancelled'")
    op.create_index(
        "uq_matches_open_table", "matches", ["table_id"], unique=True,
        sqlite_where=sa.text("status != 'finished'"), postgresql_where=sa.text("status != 'finished'"),
    )
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("draw_key")
    op.drop_table("tournament_events")

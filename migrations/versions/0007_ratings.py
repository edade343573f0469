"""ratings: each person's rating per discipline, a read model refitted from people's history

- ratings: one row per (discipline, person): the value, the exact fitted value, racks, provisional,
  and the row's rank and position in the discipline's list (best first, provisional after);
- ratings_heads: per discipline, the fingerprint of the racks and links the rows were fitted from.

Nothing is derived here: the hub's ratings keeper fits every discipline at its first start (its
sweep finds no head), or `cuehub ratings rebuild` at once (docs/ratings.md).

Revision ID: 0007_ratings
Revises: 0006_people
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_ratings"
down_revision = "0006_people"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
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
    op.create_table(
        "ratings_heads",
        sa.Column("discipline", sa.String(32), primary_key=True),
        sa.Column("fingerprint", sa.String(200), nullable=False),
        sa.Column("people", sa.Integer, nullable=False),
        sa.Column("racks", sa.Integer, nullable=False),
        sa.Column("fitted_at", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ratings_heads")
    op.drop_table("ratings")

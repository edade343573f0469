"""pairing secrets: the unguessable half of a table card

pairing_codes.secret_hash: the sha256 of the card's QR secret (`/pair#secret=...`, at least 128
bits), which pairs like the six-digit code but is never limited by the budget of guessed codes.
Spending either spends the card.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pairing_codes") as batch:
        batch.add_column(sa.Column("secret_hash", sa.String(64), nullable=True))
        batch.create_index("ix_pairing_codes_secret_hash", ["secret_hash"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("pairing_codes") as batch:
        batch.drop_index("ix_pairing_codes_secret_hash")
        batch.drop_column("secret_hash")

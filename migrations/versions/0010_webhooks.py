"""webhooks: receivers registered by the admin and their deliveries (PROTOCOL.md section 16)

webhooks: url, events, secret, and the lease of the hub process that delivers the hook's queue.
webhook_deliveries: one row per event per hook, stored before it is sent (so a restart loses none),
in order per hook (`seq`), with its attempts, the next attempt's time, and the last answer.
tablet_links: every tablet of every table, online or not and since when (the desk's tables view).

Revision ID: 0010_webhooks
Revises: 0006_people
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_webhooks"
down_revision = "0009_registration"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "webhooks",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("url", sa.String(2000), nullable=False),
        sa.Column("events", sa.JSON, nullable=False),
        sa.Column("secret", sa.String(200), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.Column("holder", sa.String(64), nullable=True),
        sa.Column("lease_until", sa.BigInteger, nullable=False, server_default="0"),
    )
    op.create_table(
        "webhook_deliveries",
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
    )
    op.create_index("ix_webhook_deliveries_queue", "webhook_deliveries", ["hook_id", "status", "seq"])
    op.create_table(
        "tablet_links",
        sa.Column("tablet_id", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("holder", sa.String(64), nullable=False),
        sa.Column("online", sa.Boolean, nullable=False),
        sa.Column("since", sa.BigInteger, nullable=False),
        sa.Column("heard_at", sa.BigInteger, nullable=False),
        sa.Column("label", sa.String(100), nullable=True),
    )
    op.create_index("ix_tablet_links_table_id", "tablet_links", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_tablet_links_table_id", "tablet_links")
    op.drop_table("tablet_links")
    op.drop_index("ix_webhook_deliveries_queue", "webhook_deliveries")
    op.drop_table("webhook_deliveries")
    op.drop_table("webhooks")

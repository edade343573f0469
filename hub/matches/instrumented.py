"""The match writer, timed: `InstrumentedWriter` counts and times every command for the metrics
(hub/ops/metrics.py) and binds match/table ids to the log lines written while it runs.

Server-made commands (`submit(server=True)`) are the clock firings.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from hub.matches.writer import Ack, Answer, MatchWriter
from hub.ops.logs import bind
from hub.ops.metrics import COMMAND_KINDS, REJECT_CODES, Metrics
from hub.store import catalog

log = logging.getLogger(__name__)


class InstrumentedWriter(MatchWriter):
    """A MatchWriter that counts and times every command, and binds match/table ids to the logs
    written while it runs."""

    def __init__(self, *args: Any, metrics: Metrics, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.metrics = metrics

    async def submit(
        self, match_id: str, command_id: str | None, command: Mapping[str, Any], expected_version: int | None = None,
        *, server: bool = False, token: str | None = None, check: catalog.InTransaction | None = None,
    ) -> Answer:
        m = self.metrics
        source = "server" if server else "table"
        raw_kind = command.get("kind") if isinstance(command, Mapping) else None
        kind = raw_kind if isinstance(raw_kind, str) and raw_kind in COMMAND_KINDS else "other"
        t0 = time.perf_counter()
        with bind(match_id=match_id):
            try:
                row = await self.match_row(match_id)
                with bind(table_id=row.table_id if row else None, tournament_id=row.tournament_id if row else None):
                    answer = await super().submit(match_id, command_id, command, expected_version, server=server,
                                                  token=token, check=check)
                    elapsed = time.perf_counter() - t0
                    m.ack_seconds.observe(elapsed, source=source)
                    if isinstance(answer, Ack):
                        m.commands_accepted.inc(kind=kind, source=source)
                        log.info("command %s stored as v%s", kind, answer.version,
                                 extra={"command_id": command_id, "kind": kind, "version": answer.version,
                                        "outcome": "ack", "ms": round(elapsed * 1000, 2)})
                    else:
                        code = answer.code if answer.code in REJECT_CODES else "other"
                        m.commands_rejected.inc(code=code, source=source)
                        log.info("command %s rejected: %s", kind, answer.code,
                                 extra={"command_id": command_id, "kind": kind, "code": answer.code,
                                        "outcome": "reject", "ms": round(elapsed * 1000, 2)})
                    if server:
                        m.clock_fired(kind, isinstance(answer, Ack))
                    return answer
            except Exception:
                m.command_errors.inc()
                raise

"""`cuehub replay`: refold every match from the event store and check what is kept beside it.

The stored events are the whole truth; everything else is derived. This command reads every
match's stream (one ordered pass over the events table), folds it with the rules, builds the
projection, and compares what the catalog keeps beside the stream (the match row's `status` and
`version`, which the listings and the "one open match per table" index use) with the fold.
With `--repair`, rows that disagree are rewritten from the fold. Live projections are never
stored: a hub process rebuilds them the same way on first access, so after a restore or an
upgrade of the rules this is the whole rebuild.

Every draw is folded too (hub/draws), and each result the draw holds is compared with its match's
fold: a bracket whose winner or scores differ from the match's, or that holds a result of a match
that is not finished, is reported (`BRACKET`). `--repair` does not touch those: a running hub's
flow takes a match's result again when the match moved on since the draw took it
(hub/tournaments/draw_results.py); what it refused (a match fed by the result has been played
since) is for the desk to put right.

Progress goes to stderr (a bar on a terminal, a line every few seconds otherwise); the summary
goes to stdout; the exit status is 1 when any match failed to fold or disagreed (unrepaired).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from hub import draws
from hub.settings import Settings
from hub.store import catalog, tournament_events
from hub.store.match_events import _row_event
from hub.store.schema import events, matches


@dataclass
class Report:
    matches: int = 0
    events: int = 0
    voided: int = 0
    seconds: float = 0.0
    by_status: dict[str, int] = field(default_factory=dict)
    failed: list[tuple[str, str]] = field(default_factory=list)      # (match id, error)
    mismatched: list[tuple[str, str]] = field(default_factory=list)  # (match id, what differs)
    repaired: int = 0
    draws: int = 0
    # (tournament id, key, match id, what differs): a draw's result that is not its match's
    brackets: list[tuple[str, str, str, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failed and len(self.mismatched) == self.repaired and not self.brackets

    def as_json(self) -> dict[str, Any]:
        return {
            "matches": self.matches, "events": self.events, "voided": self.voided,
            "seconds": round(self.seconds, 3),
            "events_per_second": round(self.events / self.seconds) if self.seconds > 0 else None,
            "by_status": self.by_status, "failed": [{"match_id": m, "error": e} for m, e in self.failed],
            "mismatched": [{"match_id": m, "differs": d} for m, d in self.mismatched],
            "repaired": self.repaired, "draws": self.draws,
            "brackets": [{"tournament_id": t, "key": k, "match_id": m, "differs": d} for t, k, m, d in self.brackets],
            "ok": self.ok,
        }


class Progress:
    """A progress bar on stderr: redrawn in place on a terminal, a plain line every 2 s otherwise."""

    def __init__(self, total: int, stream: TextIO | None = None, width: int = 30) -> None:
        self.total, self.stream, self.width = max(total, 0), stream or sys.stderr, width
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.t0 = time.perf_counter()
        self.last = 0.0
        self.done = 0
        self.events = 0

    def update(self, done: int, events: int, *, final: bool = False) -> None:
        self.done, self.events = done, events
        now = time.perf_counter()
        if not final and now - self.last < (0.1 if self.tty else 2.0):
            return
        self.last = now
        frac = done / self.total if self.total else 1.0
        filled = int(frac * self.width)
        elapsed = now - self.t0
        rate = events / elapsed if elapsed > 0 else 0.0
        line = (f"replay [{'#' * filled}{'.' * (self.width - filled)}] {done}/{self.total} matches "
                f"{events} events {elapsed:.1f}s {rate:,.0f} ev/s")
        if self.tty:
            self.stream.write("\r" + line + ("\n" if final else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


async def replay(
    engine: AsyncEngine, rules: Any, *, match_ids: Sequence[str] | None = None, repair: bool = False,
    progress: Progress | None = None, batch: int = 500,
) -> Report:
    """Refold every match (or `match_ids`) from the store; see the module docstring."""
    report = Report()
    t0 = time.perf_counter()
    rows = await catalog.list_matches(engine)
    rows.reverse()  # oldest first, the order they were created
    if match_ids:
        wanted = set(match_ids)
        rows = [r for r in rows if r.id in wanted]
    if progress is not None:
        progress.total = len(rows)
    # What each draw match's fold says of its result, to check the draws against (small: no events).
    outcomes: dict[str, MatchOutcome] = {}
    # Events for a batch of matches in one query each: few round trips, bounded memory.
    for start in range(0, len(rows), batch):
        chunk = rows[start:start + batch]
        ids = [r.id for r in chunk]
        streams: dict[str, list[Any]] = {i: [] for i in ids}
        async with engine.connect() as conn:
            result = await conn.stream(
                sa.select(events).where(events.c.match_id.in_(ids)).order_by(events.c.match_id, events.c.version)
            )
            async for stored in result:
                streams[stored.match_id].append(_row_event(stored))
        for row in chunk:
            stream = streams[row.id]
            report.matches += 1
            report.events += len(stream)
            report.voided += sum(1 for e in stream if e.voided)
            try:
                setup = rules.validate_setup(
                    row.setup, match_id=row.id, tournament_id=row.tournament_id, table_id=row.table_id
                )
                state = rules.fold(setup, stream)
                proj = rules.projection(state)
                # Serialisable, as the hub sends it.
                json.dumps(proj)
            except Exception as exc:  # noqa: BLE001 - a bad stream is reported, not fatal
                report.failed.append((row.id, f"{type(exc).__name__}: {exc}"))
                continue
            status = str(proj.get("status"))
            version = stream[-1].version if stream else 0
            if row.draw_key is not None:
                outcomes[row.id] = MatchOutcome(status, proj.get("winner"),
                                                {p["id"]: p["score"] for p in proj.get("players") or []})
            report.by_status[status] = report.by_status.get(status, 0) + 1
            differs = []
            if row.status != status:
                differs.append(f"status {row.status} -> {status}")
            if row.version != version:
                differs.append(f"version {row.version} -> {version}")
            if differs:
                report.mismatched.append((row.id, ", ".join(differs)))
                if repair:
                    try:
                        async with engine.begin() as conn:
                            await conn.execute(
                                matches.update().where(matches.c.id == row.id).values(status=status, version=version)
                            )
                        report.repaired += 1
                    except Exception as exc:  # noqa: BLE001 - e.g. two open matches on one table
                        report.failed.append((row.id, f"repair failed: {type(exc).__name__}: {exc}"))
            if progress is not None:
                progress.update(report.matches, report.events)
    for tid in sorted({r.tournament_id for r in rows if r.draw_key is not None}):
        await check_draw(engine, tid, outcomes, report)
    report.seconds = time.perf_counter() - t0
    if progress is not None:
        progress.update(report.matches, report.events, final=True)
    return report


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    status: str
    winner: str | None
    scores: dict[str, int]


async def check_draw(engine: AsyncEngine, tid: str, outcomes: dict[str, MatchOutcome], report: Report) -> None:
    """Fold the tournament's draw and report each result it holds that is not its match's."""
    try:
        state = draws.fold(tid, await tournament_events.read(engine, tid))
    except Exception as exc:  # noqa: BLE001 - a bad stream is reported, not fatal
        report.failed.append((tid, f"the draw: {type(exc).__name__}: {exc}"))
        return
    report.draws += 1
    for key, result in sorted(state.results.items()):
        match = outcomes.get(result.match_id)
        if match is None:  # not replayed (--match), or gone
            continue
        if match.status != "finished":
            differs = f"the bracket holds a result ({result.winner} won), the match is {match.status}"
        elif result.winner != match.winner or dict(result.scores) != match.scores:
            differs = (f"the bracket says {result.winner} won {_scores(result.scores)}, "
                       f"the match {match.winner} won {_scores(match.scores)}")
        else:
            continue
        report.brackets.append((tid, key, result.match_id, differs))


def _scores(scores: Any) -> str:
    return ":".join(str(v) for _, v in sorted(dict(scores).items()))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="cuehub replay", description="refold every match from the event store and verify")
    ap.add_argument("--database-url", default=None, help="default HUB_DATABASE_URL")
    ap.add_argument("--match", action="append", default=None, help="only this match id (repeatable)")
    ap.add_argument(
        "--repair", action="store_true", help="rewrite match rows (status, version) that disagree with the fold"
    )
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    ap.add_argument("--no-progress", action="store_true", help="no progress output on stderr")
    args = ap.parse_args(list(argv) if argv is not None else None)

    from hub.store.db import make_engine

    settings = Settings.from_env()
    if args.database_url:
        settings = settings.with_(database_url=args.database_url)
    rules = importlib.import_module("hub.rules")

    async def run() -> Report:
        engine = make_engine(settings)
        try:
            return await replay(
                engine, rules, match_ids=args.match, repair=args.repair,
                progress=None if args.no_progress else Progress(0),
            )
        finally:
            await engine.dispose()

    report = asyncio.run(run())
    if args.json:
        print(json.dumps(report.as_json(), indent=2))
    else:
        rate = f"{report.events / report.seconds:,.0f} events/s" if report.seconds > 0 else "-"
        statuses = ", ".join(f"{k} {v}" for k, v in sorted(report.by_status.items())) or "none"
        print(f"replayed {report.matches} matches, {report.events} events ({report.voided} voided) "
              f"in {report.seconds:.2f}s, {rate}")
        print(f"status: {statuses}")
        for mid, err in report.failed:
            print(f"FAILED {mid}: {err}")
        for mid, what in report.mismatched:
            print(f"{'repaired' if args.repair else 'MISMATCH'} {mid}: {what}")
        for tid, key, mid, what in report.brackets:
            print(f"BRACKET {tid} {key} (match {mid}): {what}")
        print("ok" if report.ok else "NOT ok")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""`cuehub serve | migrate | replay | demo | simulate`."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import sys
from typing import Sequence

from hub.settings import Settings


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from hub.app import create_app

    settings = Settings.from_env()
    settings = settings.with_(
        host=args.host or settings.host,
        port=args.port or settings.port,
        database_url=args.database_url or settings.database_url,
    )
    from hub.logs import json_enabled, log_config

    uvicorn.run(
        create_app(settings),
        # One JSON object per log line (match/table ids included); HUB_LOG_FORMAT=text opts out.
        log_config=log_config(args.log_level, json_format=json_enabled()),
        host=settings.host,
        port=settings.port,
        # Frames a little over the cap get a bad_command reject from the table socket; far over it,
        # uvicorn closes the connection before reading them whole.
        ws_max_size=max(settings.max_body_bytes * 4, 1 << 20),
        log_level=args.log_level,
    )
    return 0


def _migrate(args: argparse.Namespace) -> int:
    from hub.store.db import make_engine, migrate

    settings = Settings.from_env()
    if args.database_url:
        settings = settings.with_(database_url=args.database_url)

    async def run() -> None:
        engine = make_engine(settings)
        try:
            await migrate(engine)
        finally:
            await engine.dispose()

    asyncio.run(run())
    print(f"migrated {settings.database_url} to head")
    return 0


def _passthrough(module: str, argv: Sequence[str]) -> int:
    # Imported lazily: the demo and the simulator are optional parts with their own arguments.
    result = importlib.import_module(module).main(list(argv))
    return int(result or 0)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "demo":
        return _passthrough("hub.demo", argv[1:])
    if argv and argv[0] == "simulate":
        return _passthrough("hub.simulate", argv[1:])
    if argv and argv[0] == "replay":
        return _passthrough("hub.replay", argv[1:])

    parser = argparse.ArgumentParser(prog="cuehub", description="Real-time billiards scoring hub")
    sub = parser.add_subparsers(dest="cmd", required=True)
    serve = sub.add_parser("serve", help="run the hub (HTTP + WebSockets)")
    serve.add_argument("--host", default=None, help="default 127.0.0.1 (HUB_HOST)")
    serve.add_argument("--port", type=int, default=None, help="default 8000 (HUB_PORT)")
    serve.add_argument("--database-url", default=None, help="default HUB_DATABASE_URL or sqlite+aiosqlite:///./cuehub.db")
    serve.add_argument("--log-level", default="info")
    migrate = sub.add_parser("migrate", help="alembic upgrade head")
    migrate.add_argument("--database-url", default=None)
    sub.add_parser("replay", help="refold every match from the event store, verify (see `cuehub replay --help`)")
    sub.add_parser("demo", help="start a hub with a demo tournament (see `cuehub demo --help`)")
    sub.add_parser("simulate", help="play simulated matches against a hub (see `cuehub simulate --help`)")
    args = parser.parse_args(argv)
    return {"serve": _serve, "migrate": _migrate}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())

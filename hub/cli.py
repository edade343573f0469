"""`cuehub serve | gateway | migrate | reset-admin-token | replay | people rebuild | ratings rebuild |
demo | simulate | --version`.

`serve` prints where the desk is (`http://HOST:PORT/desk`) before it starts; `reset-admin-token`
makes a new admin token (printed once; a lost one cannot be read back, only its hash is stored)
and ends every desk session.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import sys
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from hub.ops.resources import MissingPiece
from hub.settings import Settings, SettingsError, exit_on_bad_settings


def uvicorn_options(settings: Settings, app: Any) -> dict[str, Any]:
    """What `cuehub serve` and `cuehub demo` give uvicorn besides the app, host, port and logging:
    one place, so the two cannot serve watchers differently.

    - `ws`: /ws/watch upgrades go to the watch gateway's websockets front of the app's own core
      (hub/watch/uvicorn_front.py: coalesced writes, one frame per change for every watcher); every
      other WebSocket path (the tablets' /ws/tables/...) to uvicorn's own protocol and the app;
    - heartbeats (a ping every HUB_WS_PING_S, closed when unanswered as long) on both;
    - the frame cap of the table sockets (watch sockets have the gateway's, 1 MiB);
    - no proxy headers from uvicorn: the app believes X-Forwarded-For/-Proto only from
      HUB_TRUSTED_PROXIES, and logs one it ignores (hub/guards/peer.py);
    - idle and slow clients closed, the fd ceiling kept (hub/ops/ports.py: keep-alive, head and body
      deadlines, the connection guard in uvicorn's httptools protocol).
    """
    from hub.ops.ports import port_options
    from hub.watch.uvicorn_front import watch_protocol

    return {
        "ws": watch_protocol(app),
        # Frames a little over the cap get a bad_command reject from the table socket; far over it,
        # uvicorn closes the connection before reading them whole.
        "ws_max_size": max(settings.max_body_bytes * 4, 1 << 20),
        "ws_ping_interval": settings.ws_ping_s, "ws_ping_timeout": settings.ws_ping_s,
        "proxy_headers": False,
        **port_options(settings),
    }


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from hub.app import create_app

    settings = _options(
        Settings.from_env(),
        host=args.host, port=args.port, database_url=args.database_url, watch_port=args.watch_port,
    )
    from hub.ops.logs import announce, log_config

    app = create_app(settings)
    desk = desk_address(settings.host, settings.port)
    announce(f"cuehub: the desk is at {desk}", json_format=settings.log_format == "json", logger="hub.cli", desk=desk)
    uvicorn.run(
        app,
        # One JSON object per log line (match/table ids included); HUB_LOG_FORMAT=text opts out.
        log_config=log_config(args.log_level, json_format=settings.log_format == "json"),
        host=settings.host,
        port=settings.port,
        log_level=args.log_level,
        **uvicorn_options(settings, app),
    )
    return 0


def desk_address(host: str, port: int) -> str:
    """http://HOST:PORT/desk as a browser on this machine reaches it (a wildcard host: 127.0.0.1)."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/desk"


def _reset_admin_token(args: argparse.Namespace) -> int:
    """A new admin token replaces the stored one (printed once) and every desk session ends."""
    import secrets

    from hub.store import catalog, removal
    from hub.store.db import make_engine, migrate

    settings = _options(Settings.from_env(), database_url=args.database_url)
    token = secrets.token_urlsafe(24)

    async def run() -> None:
        engine = make_engine(settings)
        try:
            await migrate(engine)
            await catalog.ensure_admin_token(engine, token)
            await removal.end_every_session(engine)
        finally:
            await engine.dispose()

    asyncio.run(run())
    print(f"cuehub: the new admin token (shown once, keep it): {token}")
    print("cuehub: every desk session has ended; restart running hubs so they take the new token", file=sys.stderr)
    if settings.admin_token:
        print("cuehub: HUB_ADMIN_TOKEN is set: it replaces this token at the next start; change it there instead",
              file=sys.stderr)
    return 0


def _gateway(args: argparse.Namespace) -> int:
    """A watch gateway process: /ws/watch on the websockets server, fed by the bus (Redis)."""
    from hub.ops.logs import configure
    from hub.watch.server import main_gateway

    settings = _options(Settings.from_env(), database_url=args.database_url, bus_url=args.bus_url)
    if settings.bus_url.startswith("memory"):
        print("cuehub gateway: needs a shared bus (--bus-url redis://...); memory:// would hear nothing",
              file=sys.stderr)
        return 2
    configure(args.log_level, json_format=settings.log_format == "json")  # JSON lines, as `cuehub serve`
    main_gateway(settings, args.host or settings.watch_host or settings.host,
                 args.port if args.port is not None else (settings.watch_port or 8001))
    return 0


def _migrate(args: argparse.Namespace) -> int:
    from hub.ops.logs import configure
    from hub.store.db import check_migrations, make_engine, migrate

    settings = _options(Settings.from_env(), database_url=args.database_url)
    check_migrations()
    configure("info", json_format=settings.log_format == "json")  # alembic's "Running upgrade" lines

    async def run() -> None:
        engine = make_engine(settings)
        try:
            await migrate(engine)
        finally:
            await engine.dispose()

    asyncio.run(run())
    print(f"migrated {settings.database_url} to head")
    return 0


def _options(settings: Settings, **options: object) -> Settings:
    """`settings` with the command-line options that were given (None: not given)."""
    given = {k: v for k, v in options.items() if v is not None}
    try:
        return settings.with_(**given) if given else settings
    except ValidationError as exc:
        bad = "; ".join(f"--{str(e['loc'][0]).replace('_', '-')}: {e['msg']}" for e in exc.errors() if e.get("loc"))
        raise SettingsError(f"bad option {bad}") from None


def _passthrough(module: str, argv: Sequence[str]) -> int:
    # Imported lazily: the demo and the simulator are optional parts with their own arguments.
    result = importlib.import_module(module).main(list(argv))
    return int(result or 0)


def main(argv: Sequence[str] | None = None) -> int:
    """Every subcommand: a bad HUB_* setting or option is one line on stderr and exit status 2; a
    missing part of the install (pages, migrations) one line and exit status 1."""
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    except SettingsError as exc:
        exit_on_bad_settings(exc)
    except MissingPiece as exc:
        print(f"cuehub: {exc}", file=sys.stderr, flush=True)
        return 1


def _main(argv: list[str]) -> int:
    if argv and argv[0] not in ("-h", "--help"):
        Settings.from_env()  # a bad HUB_* variable stops every subcommand before it starts anything
    if argv and argv[0] == "demo":
        return _passthrough("hub.tools.demo", argv[1:])
    if argv and argv[0] == "simulate":
        return _passthrough("hub.tools.simulate", argv[1:])
    if argv and argv[0] == "replay":
        return _passthrough("hub.tools.replay", argv[1:])
    if argv[:2] == ["people", "rebuild"]:
        return _passthrough("hub.people.rebuild", argv[2:])
    if argv[:2] == ["ratings", "rebuild"]:
        return _passthrough("hub.ratings.rebuild", argv[2:])

    import hub

    parser = argparse.ArgumentParser(prog="cuehub", description="Real-time billiards scoring hub")
    parser.add_argument("--version", action="version", version=f"cuehub {hub.__version__}")
    sub = parser.add_subparsers(dest="cmd", required=True)
    serve = sub.add_parser("serve", help="run the hub (HTTP + WebSockets)")
    serve.add_argument("--host", default=None, help="default 127.0.0.1 (HUB_HOST)")
    serve.add_argument("--port", type=int, default=None, help="default 8000 (HUB_PORT)")
    serve.add_argument("--database-url", default=None, help="default HUB_DATABASE_URL or sqlite+aiosqlite:///./cuehub.db")
    serve.add_argument("--log-level", default="info")
    serve.add_argument("--watch-port", type=int, default=None,
                       help="also serve /ws/watch on the websockets gateway on this port (HUB_WATCH_PORT)")
    gateway = sub.add_parser("gateway", help="a watch gateway process: /ws/watch fed by the Redis bus")
    gateway.add_argument("--host", default=None, help="default HUB_WATCH_HOST or HUB_HOST (127.0.0.1)")
    gateway.add_argument("--port", type=int, default=None, help="default HUB_WATCH_PORT or 8001")
    gateway.add_argument("--bus-url", default=None, help="default HUB_BUS_URL (must be redis://...)")
    gateway.add_argument("--database-url", default=None, help="default HUB_DATABASE_URL (since replays, resyncs)")
    gateway.add_argument("--log-level", default="warning")
    migrate = sub.add_parser("migrate", help="alembic upgrade head")
    migrate.add_argument("--database-url", default=None)
    reset = sub.add_parser("reset-admin-token", help="reset the admin token: a new one is made, printed once, and "
                           "every desk session ends (for a lost token)",
                           description="Reset the admin token: a new token replaces the stored one (it is printed "
                           "once) and every desk session ends. Restart running hubs afterwards.")
    reset.add_argument("--database-url", default=None, help="default HUB_DATABASE_URL")
    sub.add_parser("replay", help="refold every match from the event store, verify (see `cuehub replay --help`)")
    people = sub.add_parser("people", help="people across events: `cuehub people rebuild` makes their links and "
                            "read models again from the stored events")
    people.add_argument("action", choices=["rebuild"])
    ratings = sub.add_parser("ratings", help="ratings: `cuehub ratings rebuild` fits every discipline again from the "
                             "stored history (docs/ratings.md)")
    ratings.add_argument("action", choices=["rebuild"])
    sub.add_parser("demo", help="start a hub with a demo tournament (see `cuehub demo --help`)")
    sub.add_parser("simulate", help="play simulated matches against a hub (see `cuehub simulate --help`)")
    args = parser.parse_args(argv)
    commands = {"serve": _serve, "gateway": _gateway, "migrate": _migrate, "reset-admin-token": _reset_admin_token}
    return commands[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())

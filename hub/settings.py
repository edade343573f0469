"""Every knob of the hub: one pydantic-settings class, read from HUB_* environment variables.

    Settings()                    defaults, then HUB_* from the environment, then the arguments given
    Settings.from_env()           the same, and a bad value raises SettingsError naming its variable
    settings.with_(port=9000)     a validated copy with some fields changed (the environment is not read again)

A field's variable is HUB_<FIELD NAME> unless it says otherwise (`validation_alias`). An empty
variable counts as unset. A bad value (`HUB_PORT=abc`) is a `SettingsError` whose message names the
variable; every entry point (`cuehub ...`, `uvicorn --factory hub.app:create_app`) prints that one
line and exits with status 2 (`exit_on_bad_settings`).

Adding a knob: a typed field with a default and a comment saying why it exists, a bound where a
wrong value could hurt (`Field(ge=...)`), and a row in the settings tables of docs/operations.md.
"""

from __future__ import annotations

import ipaddress
import sys
from collections.abc import Mapping
from typing import Annotated, Any, Literal, NoReturn

from pydantic import AliasChoices, Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

ENV_PREFIX = "HUB_"
# Fields whose values must never be echoed in an error message.
_SECRET_FIELDS = frozenset({"admin_token"})


class SettingsError(ValueError):
    """A HUB_* variable has a value the hub cannot use; the message names it (one line)."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_ignore_empty=True,
        frozen=True,
        extra="forbid",
        populate_by_name=True,
    )

    database_url: str = "sqlite+aiosqlite:///./cuehub.db"
    # Optional PostgreSQL schema (search_path); lets tests and shared servers isolate a hub.
    database_schema: str | None = None
    admin_token: str | None = None
    bus_url: str = "memory://"
    # The deployment this hub belongs to, carried in the Redis channel name (`cuehub:<deployment>:
    # <channel>`): Redis pub/sub ignores database numbers, so hubs of different deployments on one
    # Redis are kept apart by name. Unset: `db<N>`, N the bus URL's database number.
    deployment: str | None = Field(None, pattern=r"^[A-Za-z0-9_.\-]{1,64}$")
    # The Redis bus's subscriber PINGs its own connection this often and counts it silent (then
    # resyncs from the store and reconnects) after 3 heartbeats without a word.
    bus_heartbeat_s: float = Field(1.0, gt=0, le=60)
    max_body_bytes: int = Field(64 * 1024, ge=1024)
    # Run Alembic "upgrade head" when the app starts, so a bare `cuehub serve` works.
    auto_migrate: bool = True
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=0, le=65535)
    # Browser origins allowed by CORS and by the WebSocket Origin check; ("*",) allows every origin
    # (SECURITY.md explains why that is the demo default). HUB_ALLOWED_ORIGINS: comma-separated.
    allowed_origins: Annotated[tuple[str, ...], NoDecode] = ("*",)
    # Command frames per second a table socket may send (token bucket), and the burst above it.
    table_rate_per_s: float = Field(50.0, gt=0, validation_alias=AliasChoices("HUB_TABLE_RATE", "table_rate_per_s"))
    table_rate_burst: int = Field(100, ge=1, validation_alias=AliasChoices("HUB_TABLE_BURST", "table_rate_burst"))
    # The watch gateway (hub/watch/server.py) in this process, on its own port (None: off);
    # HUB_WATCH_HOST defaults to HUB_HOST. HUB_WATCH_URL is what GET /api/config advertises to the
    # pages (e.g. "/ws/watch" behind a proxy that routes it to gateway processes, or
    # "ws://scores.example:8001/ws/watch"); unset, the pages are told the port alone.
    watch_port: int | None = Field(None, ge=0, le=65535)
    watch_host: str | None = None
    watch_url: str | None = None
    # Snapshots of one watch channel a minute from one client address, every socket of a process
    # together (hub/watch/budgets.py): a fresh socket has a fresh per-socket budget, an address does
    # not. Leave room for a venue's phones behind one NAT address.
    snapshots_per_address: int = Field(120, ge=1)
    # Heartbeats on every WebSocket (tablets, /ws/watch, the gateway port): a ping every this many
    # seconds, and a socket that has not answered one within as long again is closed (its
    # watcher's subscriptions go with it).
    ws_ping_s: float = Field(20.0, gt=0)
    # One JSON object per log line (every process), or plain text for a person at a terminal.
    log_format: Literal["json", "text"] = "json"
    # This process keeps people's read models (history, statistics, places: hub/people/keeper.py)
    # after its own writes. Off: it leaves them to another process of the same store, whose sweep
    # finds this one's writes (a deployment may keep them in one process off the command path).
    people_keeper: bool = True

    # --- bounds: no client can wear a hub down -------------------------------------------------
    # Refused commands are remembered (a resend gets the first answer) within these bounds: at most
    # this many per match (the oldest are forgotten first) and for this many seconds; pruned on write,
    # and a start reloads no more than that. A resend of a forgotten id is judged afresh.
    refusals_per_match: int = Field(1000, ge=1)
    refusal_ttl_s: float = Field(7 * 86400.0, gt=0)
    # Matches a process keeps in memory (folded, with their command ids), and how many of those may
    # be finished ones (hub/matches/cache.py); the watch history of `since` keeps the updates of as
    # many finished matches (hub/watch/feeds.py). A match's memory grows with its events: beyond
    # these the least recently used are dropped and folded again from the store when needed.
    match_cache: int = Field(512, ge=1)
    finished_match_cache: int = Field(16, ge=0)
    # Slow and idle clients on the hub's port (and the gateway's handshake): a connection must finish
    # a request's head within header_timeout_s (from connecting, or from its previous response), its
    # body within body_timeout_s, and an idle keep-alive connection is closed after keep_alive_s.
    header_timeout_s: float = Field(10.0, gt=0)
    body_timeout_s: float = Field(30.0, gt=0)
    keep_alive_s: float = Field(5.0, gt=0)

    # --- tablet links --------------------------------------------------------------------------
    # A table whose tablets have not been heard for this many seconds has its shot clock paused (a
    # stored `link_lost`) until one is back; until then no time foul is stored for it either.
    tablet_grace_s: float = Field(3.0, gt=0)

    # --- desk sign-in and tablet pairing (PROTOCOL.md section 8; docs/competition.md "The desk") -----------
    # A desk session ends after this many seconds unused (each use slides it; 7 days at most).
    session_idle_s: float = Field(12 * 3600.0, gt=0)
    # Proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (IPs or CIDRs, "*" for any;
    # "none" or empty: none, the default, so no local process can pick its own address).
    # hub/guards/peer.py applies it: it decides the client address the sign-in and pairing backoff
    # count per, and whether the session cookie is marked Secure (the request came over HTTPS).
    trusted_proxies: Annotated[tuple[str, ...], NoDecode] = ()
    # The address tablets reach the hub at, for the QR code on table cards (e.g.
    # "https://scores.example.org"); unset, the address the desk itself was opened at.
    public_url: str | None = None

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _split_proxies(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = () if value.strip().lower() == "none" else value.split(",")
        if isinstance(value, (list, tuple)):
            proxies = tuple(str(p).strip() for p in value if str(p).strip())
            for proxy in proxies:
                if proxy != "*":
                    try:
                        ipaddress.ip_network(proxy, strict=False)
                    except ValueError:
                        raise ValueError(f"{proxy!r} is not an IP address, a network (CIDR) or *") from None
            return proxies
        return value

    @field_validator("public_url", mode="before")
    @classmethod
    def _no_trailing_slash(cls, value: Any) -> Any:
        return (value.rstrip("/") or None) if isinstance(value, str) else value

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.split(",")
        if isinstance(value, (list, tuple)):
            origins = tuple(str(o).strip().rstrip("/") for o in value if str(o).strip())
            return origins or ("*",)
        return value

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """The settings from `env` (default: the process environment); SettingsError on a bad value."""
        try:
            if env is None:
                return cls()
            values = {name: env[var] for name, var in env_names().items() if env.get(var)}
            return cls.model_validate(values)
        except ValidationError as exc:
            raise SettingsError(describe(exc)) from None

    def with_(self, **changes: object) -> Settings:
        """A copy with `changes` applied and validated (the environment is not read again)."""
        return type(self).model_validate({**self.model_dump(), **changes})


def env_names() -> dict[str, str]:
    """field name -> the environment variable it is read from."""
    out: dict[str, str] = {}
    for name, field in Settings.model_fields.items():
        alias = field.validation_alias
        if isinstance(alias, AliasChoices):
            out[name] = str(alias.choices[0])
        elif isinstance(alias, str):
            out[name] = alias
        else:
            out[name] = ENV_PREFIX + name.upper()
    return out


def describe(exc: ValidationError) -> str:
    """One line naming the variable(s) at fault: `HUB_PORT='abc': Input should be a valid integer`."""
    by_alias = {var.upper(): name for name, var in env_names().items()}
    names = env_names()
    parts = []
    for err in exc.errors():
        loc = str(err["loc"][0]) if err.get("loc") else ""
        field = by_alias.get(loc.upper(), loc)
        var = names.get(field, loc or "settings")
        shown = (
            ""
            if field in _SECRET_FIELDS or "input" not in err or isinstance(err["input"], dict)
            else f"={err['input']!r}"
        )
        parts.append(f"{var}{shown}: {err['msg']}")
    return "bad setting " + "; ".join(parts)


def exit_on_bad_settings(exc: SettingsError, prog: str = "cuehub") -> NoReturn:
    """What every entry point does with a SettingsError: one line on stderr, exit status 2."""
    print(f"{prog}: {exc}", file=sys.stderr, flush=True)
    raise SystemExit(2)


"""Where the hub's own files are: the web pages and the Alembic migrations.

The repository keeps them at its top level (`clients/web/`, `migrations/`); the wheel carries them
inside the package as `hub/web/` and `hub/migrations/` (setup.py maps them at build time). So an
installed hub finds them inside itself, and a checkout (an editable install, or PYTHONPATH) finds
them beside the `hub` package. Neither there: `MissingPiece`, and the hub does not start.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

# name inside the installed package -> where the checkout keeps it
CHECKOUT_DIRS = {"web": Path("clients") / "web", "migrations": Path("migrations")}


class MissingPiece(RuntimeError):
    """A part of the hub is missing from this install (pages, migrations, a router)."""


@functools.cache
def locate(name: str) -> Path:
    """The directory of `name` ("web" or "migrations"), inside the installed package or the checkout."""
    package = Path(str(resources.files("hub")))
    inside = package / name
    if inside.is_dir():
        return inside
    checkout = package.parent / CHECKOUT_DIRS[name]
    if checkout.is_dir():
        return checkout
    raise MissingPiece(
        f"the hub's {name} files are missing: neither {inside} (an installed wheel) nor {checkout} "
        "(a checkout) exists; reinstall cuehub from a complete wheel"
    )


def web_root() -> Path:
    return locate("web")


def migrations_dir() -> Path:
    return locate("migrations")


def require_files(root: Path, relative: list[str], what: str) -> None:
    """Raise MissingPiece naming every file of `relative` that is not under `root`."""
    missing = [r for r in relative if not (root / r).is_file()]
    if missing:
        raise MissingPiece(f"{what} in {root} is incomplete: missing {', '.join(missing)}")

"""A series' body checked, and the points of a place (pure).

``points`` maps the first place of each band to the points every place of that band gets:
``{"1": 100, "2": 75, "3": 55, "5": 35, "9": 20}`` gives places 3 and 4 55 points, 5 to 8 35, and
9 and every place after it 20 (the last band has no end; a band of 0 points ends the paid places).
``best`` (optional) counts only a person's k best events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.rules.names import BadName, clean_name

MAX_NAME = 200
MAX_BANDS = 64
MAX_POINTS = 1_000_000
MAX_PLACE = 100_000


class SeriesError(ValueError):
    """A bad series body: ``code`` for the API (422)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_name(value: Any) -> str:
    """The name as every stored name (hub/rules/names.py: control characters refused, invisible
    ones stripped)."""
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
        raise SeriesError("bad_series", f"name must be a non-empty string of at most {MAX_NAME} characters")
    try:
        return clean_name(value, "name").strip()
    except BadName as exc:
        raise SeriesError("bad_series", str(exc)) from None


def check_points(value: Any) -> dict[str, int]:
    """The bands, keys as places in order ("1", "2", "3", "5", ...); SeriesError when a key is not
    a place (a whole number from 1) or a value is not whole points."""
    if not isinstance(value, Mapping) or not value:
        raise SeriesError("bad_points", 'points must be an object of bands: {"<first place>": points, ...}')
    if len(value) > MAX_BANDS:
        raise SeriesError("bad_points", f"points: at most {MAX_BANDS} bands")
    bands: dict[int, int] = {}
    for key, points in value.items():
        text = str(key)
        if not (text.isascii() and text.isdigit()) or text != str(int(text)) or not 1 <= int(text) <= MAX_PLACE:
            raise SeriesError("bad_band", f"points: {text[:20]!r} is not a place (a whole number from 1)")
        if not _whole(points) or not 0 <= points <= MAX_POINTS:
            raise SeriesError("bad_points", f"points.{text}: whole points from 0 to {MAX_POINTS}")
        bands[int(text)] = points
    return {str(place): bands[place] for place in sorted(bands)}


def check_best(value: Any) -> int | None:
    if value is None:
        return None
    if not _whole(value) or not 1 <= value <= 1000:
        raise SeriesError("bad_best", "best must be a whole number of events from 1, or null")
    return int(value)


def points_for(bands: Mapping[str, int], place: int) -> int:
    """The points of ``place``: those of the band it falls in (the last key at or before it)."""
    got = 0
    for first, points in sorted(((int(k), v) for k, v in bands.items())):
        if first > place:
            break
        got = points
    return got

"""What a name shown on the screens may hold: one check for every name the hub stores (players
and their clubs, match players and their renames, tables, tournaments).

- Control characters are refused: C0 (U+0000-U+001F: tab, line feed ...), DEL (U+007F) and C1
  (U+0080-U+009F: NEL U+0085 ...), and the line and paragraph separators U+2028 and U+2029. A name
  is one line: these break a CSV row, a log line, a screen's layout, or show as nothing at all.
- Bidirectional controls (the embeddings and overrides U+202A-U+202E, the isolates U+2066-U+2069)
  are refused: they make a name display reversed ("\u202eoY gnaY" shows as "Yang Yo") or reorder the
  text around it, so one player could look like another. A real name never needs them: the pages
  isolate every name (``<bdi>``), which is all mixed Chinese, Arabic and Latin names need.
- Invisible characters that only hide differences are stripped, wherever they are: the zero-width
  space U+200B, the word joiner and invisible operators U+2060-U+2064, the byte-order mark U+FEFF,
  the Mongolian vowel separator U+180E, the soft hyphen U+00AD and the directional marks U+200E,
  U+200F, U+061C. "Yang\u200bFan" is stored as "YangFan", so it cannot pass for another "Yang Fan"
  that merely looks the same. The zero-width joiner and non-joiner (U+200D, U+200C) are kept: Persian
  and Indic names and emoji sequences need them. A name left empty by stripping is refused.

Pure: no I/O; the callers turn ``BadName`` into their own 422 (with their code: `bad_request` for
the REST bodies, `bad_setup` for a match's players, `bad_command` for a rename command).
"""

from __future__ import annotations

CONTROLS = frozenset(chr(c) for c in [*range(0x00, 0x20), *range(0x7F, 0xA0)])
SEPARATORS = frozenset(("\u2028", "\u2029"))
BIDI_CONTROLS = frozenset(chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)])
INVISIBLE = frozenset(chr(c) for c in [0x200B, 0x200E, 0x200F, 0x061C, 0x180E, 0x00AD, 0xFEFF,
                                       *range(0x2060, 0x2065)])
_STRIP = {ord(c): None for c in INVISIBLE}


class BadName(ValueError):
    """A name that may not be stored; the message says why, naming the character."""


_REFUSED = CONTROLS | SEPARATORS | BIDI_CONTROLS


def refused_char(value: str) -> str | None:
    """The first character of ``value`` no name may hold, or None."""
    return next((c for c in value if c in _REFUSED), None)


def clean_name(value: str, what: str = "name") -> str:
    """``value`` without invisible characters, trimmed; ``BadName`` when it holds a control
    character, a line or paragraph separator or a bidi control (or nothing is left). Length limits
    are the caller's."""
    bad = refused_char(value)
    if bad in BIDI_CONTROLS:
        raise BadName(f"{what} must not contain bidirectional control characters (U+{ord(bad):04X}): "
                      "they can make a name display reversed or mimic another")
    if bad in SEPARATORS:
        raise BadName(f"{what} must be one line: no line or paragraph separators (U+{ord(bad):04X})")
    if bad is not None:
        raise BadName(f"{what} must not contain control characters (U+{ord(bad):04X})")
    cleaned = value.translate(_STRIP).strip()
    if not cleaned:
        raise BadName(f"{what} must not be empty")
    return cleaned

"""Toneless pinyin of Chinese characters, for finding a Chinese name by how it sounds (`wang ye`
finds 王也). Pure (a read-only table), no I/O after the first use.

The readings come from `pypinyin`'s table of single characters (every reading of each character:
曾 is `ceng` and `zeng`, 单 `dan`, `chan` and `shan`, as a surname is read). Its phrase dictionary
is not loaded: names are not words of the dictionary, and the phrases cost 45 MB of memory and
half a second at the first use; without them pypinyin takes 11 MB and 30 ms
(`PYPINYIN_NO_PHRASES`, `PYPINYIN_NO_DICT_COPY`: pypinyin's own switches, set here before its
first import unless the environment set them already). pypinyin is imported on the first Chinese
name, so a hub whose names are all Latin never loads it.
"""

from __future__ import annotations

import os
import unicodedata
from functools import cache
from typing import Any

# Ideographs pypinyin knows: CJK unified ideographs and their extensions, compatibility ideographs, 〇.
_IDEOGRAPHS = ((0x3007, 0x3007), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x323AF))
MAX_READINGS = 3  # per character: enough for the surnames read apart from their common reading


def is_ideograph(ch: str) -> bool:
    code = ord(ch)
    return any(lo <= code <= hi for lo, hi in _IDEOGRAPHS)


@cache
def _pinyin() -> Any:
    os.environ.setdefault("PYPINYIN_NO_PHRASES", "1")
    os.environ.setdefault("PYPINYIN_NO_DICT_COPY", "1")
    import pypinyin

    return pypinyin


def _toneless(syllable: str) -> list[str]:
    """`lǚ` -> [`lu`, `lv`]: tone marks off; ü typed as u or v."""
    decomposed = unicodedata.normalize("NFKD", syllable.lower())
    base = "".join(c for c in decomposed if not unicodedata.combining(c))
    return [base, base.replace("u", "v")] if "u\u0308" in decomposed else [base]


@cache
def readings(ch: str) -> tuple[str, ...]:
    """Every toneless reading of one ideograph, the common one first (empty for other characters)."""
    if not is_ideograph(ch):
        return ()
    lib = _pinyin()
    found = lib.pinyin(ch, style=lib.Style.TONE, heteronym=True, errors="ignore")
    out: list[str] = []
    for syllable in (found[0] if found else [])[:MAX_READINGS]:
        for plain in _toneless(syllable):
            if plain and plain.isascii() and plain not in out:
                out.append(plain)
    return tuple(out)


def spellings(run: str) -> list[list[str]]:
    """The syllables of a run of ideographs, one list of readings per character (a character
    without a reading gives [])."""
    return [list(readings(ch)) for ch in run]

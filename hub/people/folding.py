"""How names are compared and found (PROTOCOL.md section 12): pure, no I/O.

`fold(text)`: the form two names are compared in (the link rule) and searched in:
- NFKC first: full-width letters and digits are half-width (ＷＡＮＧ is WANG), the ideographic
  space U+3000 is a space, compatibility forms are plain;
- case folded (`casefold`: ß is ss);
- accents off: the combining marks of the canonical decomposition are dropped (Ünal is unal, Đ
  stays đ: it is a letter of its own, not a D with a mark);
- whitespace runs (any Unicode space, U+3000 included) are one space, none at either end, and
  none between two characters of a script written without spaces (王 也 is 王也).

`terms(name, club, aliases)`: the search terms of a person, computed once when the person is
written (stored with the row and in the `people_terms` index). A query finds a person when each
of its words is the beginning of one of their terms. The terms are:
- every word of the folded name, each alias and the club (words are split at anything that is
  not a letter or a digit: O'Brien gives `o` and `brien`), and each text's words run together
  from each word on (`zhengyubo` for Zheng Yubo; `seanobrien` and `obrien` for Seán O'Brien);
- for a run of ideographs, kana or hangul, every suffix of the run (王也, 也: a query matches
  any part of a Chinese name) and, for ideographs, the toneless pinyin (hub/people/romanize.py):
  each syllable in its common reading, the first character (the surname) in every reading
  (`wang`, `ye`; 曾 gives `ceng` and `zeng`), and the run spelled whole in its common reading and
  with each reading of its first character: `wangye`, `zengfan`. (Other readings of the given
  name's characters are left out: 也 is also `yi`, and `wang yi` should not find 王也.)
So `wang ye`, `wangye`, `wang y`, `王`, `也`, `WANG` and `ｗａｎｇ　ｙｅ` all find 王也.

`query_words(q)`: the query split the same way (at most MAX_QUERY_WORDS words).
`link_key(name, club)`: what the link rule compares (folded name and club).
`sort_key(name)`: the directory's order: the name spelled in pinyin where it is Chinese, then folded.
"""

from __future__ import annotations

import unicodedata

from hub.people import romanize

MAX_TERMS = 96
MAX_TERM_CHARS = 48
MAX_QUERY_WORDS = 8
MAX_JOINED = 6  # spellings of a run of ideographs run together (readings of the surname)


def _unspaced(ch: str) -> bool:
    """A character of a script written without spaces between words: ideographs, kana, hangul."""
    code = ord(ch)
    return (romanize.is_ideograph(ch) or 0x3040 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF
            or 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF)


def fold(text: str | None) -> str:
    if not text:
        return ""
    plain = unicodedata.normalize("NFKC", text).casefold()
    plain = "".join(c for c in unicodedata.normalize("NFKD", plain) if not unicodedata.combining(c))
    plain = unicodedata.normalize("NFKC", plain)
    out: list[str] = []
    pending_space = False
    for ch in plain:
        if ch.isspace():
            pending_space = bool(out)
            continue
        if pending_space and not (_unspaced(out[-1]) and _unspaced(ch)):
            out.append(" ")
        pending_space = False
        out.append(ch)
    return "".join(out)


def _runs(word: str) -> list[str]:
    """A word cut where it passes between a spaced and an unspaced script (`abc王也` -> abc, 王也)."""
    out: list[str] = []
    for ch in word:
        if out and _unspaced(out[-1][-1]) == _unspaced(ch):
            out[-1] += ch
        else:
            out.append(ch)
    return out


def words(folded: str) -> list[str]:
    """The words of a folded text: runs of letters and digits, a spaced script apart from an unspaced one."""
    cleaned = "".join(ch if ch.isalnum() else " " for ch in folded)
    return [run for word in cleaned.split() for run in _runs(word)]


def _spoken_forms(run: str) -> list[str]:
    """A run of ideographs spelled whole: its common reading, then with the surname's other
    readings (empty when no character of it has a reading)."""
    syllables = romanize.spellings(run)
    if not any(syllables):
        return []
    common = [options[0] if options else "" for options in syllables]
    return ["".join(common)] + [first + "".join(common[1:]) for first in syllables[0][1:MAX_JOINED]]


def _text_terms(text: str | None) -> list[str]:
    found = words(fold(text))
    out = list(found)
    out += ["".join(found[i:]) for i in range(len(found) - 1)]  # run together: zhengyubo, obrien
    for word in found:
        if _unspaced(word[0]):
            out += [word[i:] for i in range(1, len(word))]
            syllables = romanize.spellings(word)
            out += syllables[0] + [options[0] for options in syllables[1:] if options]
            out += _spoken_forms(word)
    return out


def terms(name: str, club: str | None = None, aliases: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The search terms of a person, distinct, each at most MAX_TERM_CHARS, at most MAX_TERMS."""
    out: dict[str, None] = {}
    for text in (name, *aliases, club):
        for term in _text_terms(text):
            if term:
                out.setdefault(term[:MAX_TERM_CHARS], None)
    return list(out)[:MAX_TERMS]


def query_words(q: str | None) -> list[str]:
    """The words of a query, distinct, each cut to MAX_TERM_CHARS (a longer word cannot be the
    beginning of a stored term anyway)."""
    out: dict[str, None] = {}
    for word in words(fold(q)):
        out.setdefault(word[:MAX_TERM_CHARS], None)
    return list(out)[:MAX_QUERY_WORDS]


def link_key(name: str, club: str | None) -> str:
    """What the link rule compares: the folded name and the folded club (none is empty)."""
    return f"{fold(name)}\x1f{fold(club)}"


def sort_key(name: str) -> str:
    """The directory's order: Chinese names among the Latin ones by their pinyin (王也 near Wang Yi)."""
    folded = fold(name)
    spoken = []
    for word in words(folded):
        syllables = [options[0] for options in romanize.spellings(word) if options]
        spoken.append(" ".join(syllables) if syllables and romanize.is_ideograph(word[0]) else word)
    return f"{' '.join(spoken)} {folded}"[:200]

"""The one rule for names (hub/rules/names.py), as properties over any text: what it refuses, what it
strips, and that what it keeps is kept as it is."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hub.rules.names import BIDI_CONTROLS, INVISIBLE, BadName, clean_name, refused_char

# Every character the rule is about, so the generated text meets them often, among any others.
SPECIAL = sorted(BIDI_CONTROLS | INVISIBLE | {chr(c) for c in range(0x20)} | {chr(c) for c in range(0x7F, 0xA0)}
                 | {"\u2028", "\u2029", "\u3000", " ", "\u200c", "\u200d"})
TEXT = st.text(st.one_of(st.sampled_from(SPECIAL), st.characters(blacklist_categories=("Cs",))), max_size=30)


def not_one_line(c: str) -> bool:
    """Independent of the module's sets: Unicode's own categories for controls and separators."""
    return unicodedata.category(c) in ("Cc", "Zl", "Zp")


@settings(max_examples=400, deadline=None)
@given(TEXT)
@example("Open\x7f2026")
@example("Open\u0085")
@example("Li\u2028Ming")
@example("\u200b\u200b")
def test_a_name_is_refused_exactly_when_it_holds_a_refused_character_or_nothing(value: str) -> None:
    holds_refused = any(not_one_line(c) or c in BIDI_CONTROLS for c in value)
    kept = "".join(c for c in value if c not in INVISIBLE).strip()
    try:
        cleaned = clean_name(value, "name")
    except BadName as exc:
        assert holds_refused or not kept, (value, exc)
        bad = refused_char(value)
        if bad is not None:
            assert f"U+{ord(bad):04X}" in str(exc)  # the message names the character
        return
    assert not holds_refused and kept, value
    assert refused_char(value) is None
    assert cleaned == kept  # only invisible characters go, and the ends' spaces; nothing else changes
    assert not any(c in INVISIBLE or not_one_line(c) or c in BIDI_CONTROLS for c in cleaned)
    assert clean_name(cleaned) == cleaned  # what is stored passes again unchanged


@pytest.mark.parametrize("value, says", [
    ("a\x7fb", "control characters (U+007F)"), ("a\x85b", "control characters (U+0085)"),
    ("a\tb", "control characters (U+0009)"), ("a\u2028b", "one line: no line or paragraph separators (U+2028)"),
    ("a\u202eb", "bidirectional control characters (U+202E)"),
])
def test_the_refusal_says_why(value: str, says: str) -> None:
    with pytest.raises(BadName, match=r"^club must") as exc:
        clean_name(value, "club")
    assert says in str(exc.value)


def test_names_in_any_script_are_kept() -> None:
    for name in ["李　明", "Zheng Yubo", "محمد Ali", "Mehdi\u200cpour", "👨\u200d👩\u200d👧"]:
        assert clean_name(name) == name

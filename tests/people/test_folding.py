"""hub/people/folding.py and romanize.py: how names are compared and found (pure)."""

from __future__ import annotations

import pytest

from hub.people import romanize
from hub.people.folding import fold, link_key, query_words, sort_key, terms


def finds(query: str, name: str, club: str | None = None, aliases: tuple[str, ...] = ()) -> bool:
    """What the directory's search does: every word of the query begins one of the person's terms."""
    have = terms(name, club, list(aliases))
    return bool(query_words(query)) and all(any(t.startswith(w) for t in have) for w in query_words(query))


@pytest.mark.parametrize(("raw", "folded"), [
    ("Wang Ye", "wang ye"),
    ("ＷＡＮＧ　ＹＥ", "wang ye"),  # full-width letters, ideographic space U+3000
    ("  Wang \t\u3000 Ye  ", "wang ye"),  # every run of whitespace is one space, none at the ends
    ("Ünal Şahin", "unal sahin"),  # accents off
    ("José ÁLVAREZ", "jose alvarez"),
    ("Straße", "strasse"),  # case folding, not lowering
    ("王 也", "王也"),  # no space between two ideographs
    ("王　也", "王也"),
    ("Ｏ’Ｂｒｉｅｎ", "o’brien"),
    ("", ""),
])
def test_fold(raw: str, folded: str) -> None:
    assert fold(raw) == folded


def test_link_key_compares_folded_name_and_club() -> None:
    assert link_key("Wang Ye", "Beijing") == link_key("ＷＡＮＧ　ｙｅ", "beijing ")
    assert link_key("José", None) == link_key("jose", "")
    assert link_key("Wang Ye", "Beijing") != link_key("Wang Ye", "Shanghai")
    assert link_key("Wang Ye", None) != link_key("Wang Yi", None)


def test_pinyin_readings_toneless_every_reading() -> None:
    assert romanize.readings("王")[0] == "wang"
    assert romanize.readings("也")[0] == "ye"
    assert {"ceng", "zeng"} <= set(romanize.readings("曾"))  # 曾 as a surname is zeng
    assert "shan" in romanize.readings("单")
    assert {"lu", "lv"} <= set(romanize.readings("吕"))  # ü typed as u or v
    assert romanize.readings("a") == () and romanize.readings("한") == ()


@pytest.mark.parametrize("query", ["wang ye", "wangye", "WANGYE", "wang", "wang y", "ye", "王", "也", "王也",
                                   "ｗａｎｇ　ｙｅ", "Wang\u3000Ye", "王 也"])
def test_a_chinese_name_is_found_by_its_characters_and_toneless_pinyin(query: str) -> None:
    assert finds(query, "王也")


@pytest.mark.parametrize("query", ["wang yi", "li", "yewang", "王业", "wangyex"])
def test_a_chinese_name_is_not_found_by_other_words(query: str) -> None:
    assert not finds(query, "王也")


def test_surname_read_apart_from_its_common_reading() -> None:
    assert finds("zeng fan", "曾帆") and finds("zengfan", "曾帆") and finds("cengfan", "曾帆")
    assert finds("shan", "单丹") and finds("lv", "吕明") and finds("lu ming", "吕明")


def test_latin_names_aliases_and_clubs() -> None:
    assert finds("zheng", "Zheng Yubo") and finds("yubo", "Zheng Yubo") and finds("zhengyubo", "Zheng Yubo")
    assert finds("obrien", "Seán O'Brien") and finds("sean o brien", "Seán O'Brien")
    assert finds("SEAN", "Seán O'Brien") and finds("seán", "Sean O'Brien")
    assert finds("dragon", "Wu Jiaqing", aliases=("Dragon",))
    assert finds("golden cue", "Wu Jiaqing", "Golden Cue Club")
    assert not finds("club zzz", "Wu Jiaqing", "Golden Cue Club")
    assert not finds("", "Wu Jiaqing") and not finds("   ", "Wu Jiaqing")


def test_mixed_scripts_split_into_words() -> None:
    assert query_words("abc王也") == ["abc", "王也"]
    assert finds("王也", "Ye 王也") and finds("ye wangye", "Ye 王也")


def test_sort_key_puts_chinese_names_among_latin_ones_by_pinyin() -> None:
    names = ["Zheng Yubo", "王也", "Wang Yi", "Alan", "阿里"]
    assert sorted(names, key=sort_key) == ["阿里", "Alan", "王也", "Wang Yi", "Zheng Yubo"]  # a li, alan


def test_terms_are_bounded() -> None:
    long = " ".join(f"word{i}" for i in range(200))
    got = terms(long, long, [long] * 10)
    assert len(got) <= 96 and all(len(t) <= 48 for t in got)
    assert len(query_words(" ".join(f"w{i}" for i in range(50)))) == 8

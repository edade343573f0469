"""The pages' language tables (clients/web/js/strings/<language>/<area>.js, read as data by
tests/strings_data.py): both languages have the same areas and keys, no empty text, the same
placeholders; a key lives in one area; no file is over 400 lines; and js/i18n.js serves each of
them as written."""

from __future__ import annotations

import re
from typing import Any

from tests.strings_data import LANGUAGES, STRINGS_DIR, areas, load, table

from .conftest import REPO, Hub

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def test_both_languages_have_the_same_areas_and_keys() -> None:
    """A key missing in Chinese would show English."""
    assert len(areas("en")) >= 9 and areas("en") == areas("zh-CN")
    for area in areas():
        en, zh = load("en", area), load("zh-CN", area)
        assert len(en) > 10, area  # the file was read
        assert sorted(set(en) - set(zh)) == [] and sorted(set(zh) - set(en)) == [], area


def test_no_empty_text_and_the_same_placeholders() -> None:
    for area in areas():
        en, zh = load("en", area), load("zh-CN", area)
        assert [k for k in en if not en[k].strip()] == [] and [k for k in zh if not zh[k].strip()] == [], area
        differ = {k: (en[k], zh[k]) for k in en if set(PLACEHOLDER.findall(en[k])) != set(PLACEHOLDER.findall(zh[k]))}
        assert differ == {}, area


def test_a_key_lives_in_one_area_and_no_file_is_long() -> None:
    for language in LANGUAGES:
        seen: dict[str, str] = {}
        for area in areas(language):
            for key in load(language, area):
                assert key not in seen, f"{language}: {key} is in {seen[key]} and {area}"
                seen[key] = area
    for path in STRINGS_DIR.glob("*/*.js"):
        assert len(path.read_text(encoding="utf-8").splitlines()) <= 400, path


def test_english_strings_carry_no_chinese_terms() -> None:
    """The English strings say "Table run", "Previous player": no 小金 or 上家 in an English verdict
    (only the language switch, which names the other language, is written in it)."""
    en = table("en")
    assert len(en) > 500
    chinese = {k: v for k, v in en.items() if re.search(r"[\u3400-\u9fff]", v) and not k.startswith("lang_switch")}
    assert chinese == {}


def test_chinese_strings_use_full_width_brackets() -> None:
    """Chinese text puts names and details in full-width brackets （…）, with no space after one."""
    zh = table("zh-CN")
    assert {k: v for k, v in zh.items() if re.search(r"[()]", v)} == {}
    assert {k: v for k, v in zh.items() if re.search(r"）\s", v)} == {}
    # a value that ends in a bracket, put into a sentence: no space after it either
    for key in (k for k in zh if k.startswith("dk_enc_")):
        said = zh["dk_p_file_read"].replace("{encoding}", zh[key]).replace("{name}", "名单.csv")
        assert not re.search(r"）\s", said), said


def test_the_desk_knows_the_hubs_refusals_in_both_languages() -> None:
    """Every refusal code the hub's tournament and correction routes answer with has the desk's own
    sentence (desk_err_<code>) in English and Chinese, so a Chinese desk never shows the hub's English."""
    codes: set[str] = set()
    for py in [*(REPO / "hub" / "api").glob("*.py"), *(REPO / "hub" / "draws").glob("*.py")]:
        src = py.read_text(encoding="utf-8")
        codes |= set(re.findall(r'ApiError\(4\d\d, "([a-z_]+)"', src))
        codes |= set(re.findall(r'conflict\("([a-z_]+)"', src))
        codes |= set(re.findall(r'DrawReject\(4\d\d, "([a-z_]+)"', src))
    # said elsewhere: unknown input the desk never sends (bad_request), the session (401: signed
    # out), a match's own commands (the tablet's, rej_*), pairing
    codes -= {"bad_request", "unauthorized", "session_expired", "bad_command", "unknown_match"}
    assert len(codes) > 20, codes  # the scan found them
    en, zh = table("en"), table("zh-CN")
    missing = sorted(c for c in codes if f"desk_err_{c}" not in en or f"desk_err_{c}" not in zh)
    assert missing == []
    assert not any(re.search(r"[A-Za-z]{4,}", zh[f"desk_err_{c}"]) for c in codes)  # Chinese sentences


def test_the_pages_show_every_string_as_written(hub_process: Hub, browser: Any) -> None:
    """js/i18n.js imports every area of both languages: each key gives its own text (placeholders
    left as they are when no value is given)."""
    ctx = browser.new_context(locale="en-US")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{hub_process.url}/watch/none")
        tables = {language: table(language) for language in LANGUAGES}
        got = page.evaluate(
            """async (tables) => {
                const i18n = await import('/static/js/i18n.js');
                const out = {};
                for (const [language, strings] of Object.entries(tables)) {
                    i18n.setLang(language);
                    const said = (k) => [k, i18n.t(k, {}, "\\u0000missing")];
                    out[language] = Object.fromEntries(Object.keys(strings).map(said));
                }
                return out;
            }""",
            tables,
        )
        assert got == tables
        assert errors == []
    finally:
        ctx.close()

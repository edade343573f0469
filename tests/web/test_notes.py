"""The hub's `last.notes` on the screens: every note shape the rules make (hub/rules,
`note.append`) has a zh-CN/en template in clients/web/js/i18n.js, player ids become names, and
anything unknown is shown exactly as sent."""

from __future__ import annotations

import json
import re
from typing import Any

from .conftest import REPO, XSS_NAME, Hub

I18N = REPO / "clients" / "web" / "js" / "i18n.js"


def _shape(s: str) -> str:
    """A note with its slots blanked: f"{fouler} pays {f} to {payee}" -> "{} pays {} to {}"."""
    return re.sub(r"\{[^{}]*\}", "{}", s)


def rule_notes() -> set[str]:
    out = set()
    for py in sorted((REPO / "hub" / "rules").glob("*.py")):
        src = py.read_text()
        for m in re.finditer(r'note\.append\(f?"((?:[^"\\]|\\.)*)"\)', src):
            out.add(_shape(m.group(1)))
        for m in re.finditer(r'\(f?"((?:[^"\\]|\\.)*)",\)\)', src):  # the undo's note tuple
            out.add(_shape(m.group(1)))
    return out


def page_patterns() -> set[str]:
    src = I18N.read_text()
    block = src[src.index("const NOTE_PATTERNS"):src.index("const LOSS_REASONS")]
    return {_shape(p) for p in re.findall(r'\["\w+", "([^"]+)"\]', block)}


def test_every_rules_note_has_a_translation() -> None:
    notes = rule_notes()
    assert len(notes) > 30, notes  # the scan found the rules' notes
    missing = sorted(notes - page_patterns())
    assert missing == [], f"notes the screens do not translate (add them to NOTE_PATTERNS in i18n.js): {missing}"
    # chinese_eight's loss reasons, used in "{lost}: the rack is lost"
    src = (REPO / "hub" / "rules" / "chinese_eight.py").read_text()
    reasons = set(re.findall(r'lost = "([^"]+)"', src))
    js = I18N.read_text()
    assert reasons and all(json.dumps(r) in js for r in reasons), reasons


SAMPLES = [
    # (note, zh-CN, en)
    ("a takes solids", "Zheng Yubo 选定全色球", "Zheng Yubo takes Solids"),
    ("foul: b pays 1 to a", f"犯规：{XSS_NAME} 付给 Zheng Yubo 1分", f"Foul: {XSS_NAME} pays 1 to Zheng Yubo"),
    ("foul: a +1", "犯规：Zheng Yubo +1分", "Foul: Zheng Yubo +1"),
    ("rack 2 to b (small_gold, win_ball)", f"第2局 {XSS_NAME} 胜（小金，打进胜利球）",
     f"Rack 2 to {XSS_NAME} (Table run, win ball)"),
    ("rack 3 to a (normal, loss)", "第3局 Zheng Yubo 胜（普胜，对手本局判负）",
     "Rack 3 to Zheng Yubo (Win, opponent lost the rack)"),
    ("b withdrew from the event", f"{XSS_NAME} 退出赛事", f"{XSS_NAME} withdrew from the event"),
    ("match over: shared top (points)", "比赛结束：并列第一（按积分）", "Match over: Shared top (on points)"),
    ("the 8 pocketed on a foul: the rack is lost", "犯规时打进8号球：本局判负",
     "The 8 pocketed on a foul: the rack is lost"),
    ("a chooses to break: a breaks", "Zheng Yubo 选择：开球；Zheng Yubo 开球",
     "Zheng Yubo chooses: Break; Zheng Yubo breaks"),
    ("b chooses pass", f"{XSS_NAME} 选择：让对方打", f"{XSS_NAME} chooses: Pass (opponent shoots)"),
    ("the 9 is respotted", "9号球复位", "The 9 is respotted"),
    ("event 7 undone", "第7条记录已撤销", "Entry #7 undone"),
    ("result entered by the desk: 2 : 1", "记分台录入结果：2 : 1", "Result entered at the desk: 2 : 1"),
    # Not a known shape, or not a player of this match: shown exactly as sent.
    ("something new from the rules", "something new from the rules", "something new from the rules"),
    ("zz takes solids", "zz takes solids", "zz takes solids"),
    ("<b>bold</b> takes solids", "<b>bold</b> takes solids", "<b>bold</b> takes solids"),
    ("a takes toString", "a takes toString", "a takes toString"),
]


def test_notes_in_both_languages(hub: Hub, browser: Any) -> None:
    ctx = browser.new_context(locale="en-US")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{hub.url}/watch/none")
        players = [{"id": "a", "name": "Zheng Yubo"}, {"id": "b", "name": XSS_NAME}]
        got = page.evaluate(
            """async ([notes, players]) => {
                const i18n = await import('/static/js/i18n.js');
                const ui = await import('/static/js/ui.js');
                const match = {players};
                const out = {};
                for (const lang of ['zh-CN', 'en']) {
                    i18n.setLang(lang);
                    out[lang] = notes.map((n) => ui.noteText(match, n));
                }
                return out;
            }""",
            [[s[0] for s in SAMPLES], players],
        )
        assert got["zh-CN"] == [s[1] for s in SAMPLES]
        assert got["en"] == [s[2] for s in SAMPLES]
        assert errors == []
    finally:
        ctx.close()


def test_english_strings_carry_no_chinese_terms() -> None:
    """The English strings say "Table run", "Previous player": no 小金 or 上家 in an English verdict
    (only the language switch, which names the other language, is written in it)."""
    import re
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2] / "clients/web/js/i18n.js").read_text(encoding="utf-8")
    blocks = re.findall(r"\n  en: \{(.*?)\n  \},", source, re.S)
    assert len(blocks) >= 3, "the en blocks of i18n.js were not found"
    chinese = [line.strip() for block in blocks for line in block.splitlines()
               if re.search(r"[\u3400-\u9fff]", line) and not line.strip().startswith(("lang_switch", "//"))]
    assert chinese == []


def _tables(path: str) -> list[tuple[dict[str, str], dict[str, str]]]:
    """Each string table of a page script as (en, zh-CN) dicts of key -> text (one `key: "text",`
    a line, as the tables are written)."""
    import re

    source = (REPO / "clients" / "web" / "js" / path).read_text(encoding="utf-8")
    line = re.compile(r'^    (\w+): "((?:[^"\\]|\\.)*)",?$', re.M)
    en = re.findall(r"\n  en: \{(.*?)\n  \},", source, re.S)
    zh = re.findall(r'\n  "zh-CN": \{(.*?)\n  \},', source, re.S)
    assert len(en) == len(zh) and en, f"the en / zh-CN tables of {path} were not found"
    return [(dict(line.findall(a)), dict(line.findall(b))) for a, b in zip(en, zh, strict=True)]


def test_english_and_chinese_tables_have_the_same_keys() -> None:
    """Every string of the pages in both languages (a key missing in Chinese would show English)."""
    for path in ("i18n.js", "i18n-fans.js"):
        for en, zh in _tables(path):
            assert len(en) > 10, path  # the lines were read
            assert sorted(set(en) - set(zh)) == [] and sorted(set(zh) - set(en)) == [], path


def test_chinese_strings_use_full_width_brackets() -> None:
    """Chinese text puts names and details in full-width brackets （…）, with no space after one."""
    import re

    for path in ("i18n.js", "i18n-fans.js"):
        for _, zh in _tables(path):
            ascii_brackets = {k: v for k, v in zh.items() if re.search(r"[()]", v)}
            assert ascii_brackets == {}, path
            spaced = {k: v for k, v in zh.items() if re.search(r"）\s", v)}
            assert spaced == {}, path
    # a value that ends in a bracket, put into a sentence: no space after it either
    desk = next(zh for _, zh in _tables("i18n.js") if "dk_p_file_read" in zh)
    for key in (k for k in desk if k.startswith("dk_enc_")):
        said = desk["dk_p_file_read"].replace("{encoding}", desk[key]).replace("{name}", "名单.csv")
        assert not re.search(r"）\s", said), said


def test_the_desk_knows_the_hubs_refusals_in_both_languages() -> None:
    """Every refusal code the hub's tournament and correction routes answer with has the desk's own
    sentence (desk_err_<code>) in English and Chinese, so a Chinese desk never shows the hub's English."""
    import re

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
    en, zh = next((a, b) for a, b in _tables("i18n.js") if "desk_err_result_used" in a)
    missing = sorted(c for c in codes if f"desk_err_{c}" not in en or f"desk_err_{c}" not in zh)
    assert missing == []
    assert not any(re.search(r"[A-Za-z]{4,}", zh[f"desk_err_{c}"]) for c in codes)  # Chinese sentences

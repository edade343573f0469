"""The hub's `last.notes` on the screens: every note shape the rules make (hub/rules,
`note.append`) has a pattern in clients/web/js/i18n.js and a zh-CN/en template in
clients/web/js/strings/<language>/notes.js, player ids become names, and anything unknown is shown
exactly as sent."""

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

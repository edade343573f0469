"""The hub's notes on the screens: `last.note_codes` (hub/rules/notes.py) said by the templates of
clients/web/js/strings/<language>/notes.js, player ids shown as names; a note the page cannot say (a
code it does not know, an id that is not a player of the match) is the hub's English, as sent.
(That every code has both templates with its arguments is tests/rules/test_notes.py's.)"""

from __future__ import annotations

from typing import Any

from hub.rules import notes
from hub.rules.notes import ARG_KINDS, NOTES

from .conftest import XSS_NAME, Hub

SAMPLES = [
    # (note, zh-CN, en)
    (notes.TAKES_GROUP(player="a", group="solids"), "Zheng Yubo 选定全色球", "Zheng Yubo takes Solids"),
    (notes.FOUL_PAYS(fouler="b", points=1, payee="a"), f"犯规：{XSS_NAME} 付给 Zheng Yubo 1分",
     f"Foul: {XSS_NAME} pays 1 to Zheng Yubo"),
    (notes.FOUL_GAINS(player="a", points=1), "犯规：Zheng Yubo +1分", "Foul: Zheng Yubo +1"),
    (notes.RACK_TO(rack=2, player="b", win_type="small_gold", reason="win_ball"),
     f"第2局 {XSS_NAME} 胜（小金，打进胜利球）", f"Rack 2 to {XSS_NAME} (Table run, win ball)"),
    (notes.RACK_TO(rack=3, player="a", win_type="normal", reason="loss"), "第3局 Zheng Yubo 胜（普胜，对手本局判负）",
     "Rack 3 to Zheng Yubo (Win, opponent lost the rack)"),
    (notes.WITHDREW(player="b"), f"{XSS_NAME} 退出赛事", f"{XSS_NAME} withdrew from the event"),
    (notes.MATCH_OVER(winner=None, reason="points"), "比赛结束：并列第一（按积分）",
     "Match over: Shared top (on points)"),
    (notes.RACK_LOST(loss="eight_foul"), "犯规时打进8号球：本局判负", "The 8 pocketed on a foul: the rack is lost"),
    (notes.CHOOSES_BREAK(player="a", choice="break", breaker="a"), "Zheng Yubo 选择：开球；Zheng Yubo 开球",
     "Zheng Yubo chooses: Break; Zheng Yubo breaks"),
    (notes.CHOOSES(player="b", choice="pass"), f"{XSS_NAME} 选择：让对方打",
     f"{XSS_NAME} chooses: Pass (opponent shoots)"),
    (notes.RESPOTTED(ball=9), "9号球复位", "The 9 is respotted"),
    (notes.UNDONE(event=7), "第7条记录已撤销", "Entry #7 undone"),
    (notes.RESULT_ENTERED(scores=[2, 1]), "记分台录入结果：2 : 1", "Result entered at the desk: 2 : 1"),
]
# What the page cannot say is the hub's English, as sent.
AS_SENT = [
    {"code": "something_new", "args": {}},  # a code added to the hub later
    {"code": "takes_group", "args": {"player": "zz", "group": "solids"}},  # not a player of this match
    {"code": "takes_group", "args": {"player": "<b>bold</b>", "group": "solids"}},
    {"code": "takes_group", "args": {"player": "a", "group": "toString"}},
    {"code": "respotted", "args": {"ball": "9"}},  # a number that is not one
    {"code": "rack_lost", "args": {"loss": "constructor"}},
    {"code": "toString", "args": {}},
]
SAMPLE_ARGS: dict[str, Any] = {"player": "a", "winner": "b", "number": 3, "numbers": [2, 1], "win_type": "big_gold",
                               "reason": "race", "choice": "pass", "penalty": "device", "scope": "match",
                               "group": "stripes", "loss": "eight_off"}

SAY = """async ([notes, english, players]) => {
    const i18n = await import('/static/js/i18n.js');
    const ui = await import('/static/js/ui.js');
    const match = {players, last: {notes: english, note_codes: notes}};
    const out = {};
    for (const lang of ['zh-CN', 'en']) {
        i18n.setLang(lang);
        out[lang] = ui.noteTexts(match);
    }
    out.without_codes = ui.noteTexts({players, last: {notes: english}});
    return out;
}"""


def _say(hub_process: Hub, browser: Any, codes: list[dict[str, Any]], english: list[str]) -> dict[str, Any]:
    ctx = browser.new_context(locale="en-US")
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{hub_process.url}/watch/none")
        players = [{"id": "a", "name": "Zheng Yubo"}, {"id": "b", "name": XSS_NAME}]
        got: dict[str, Any] = page.evaluate(SAY, [codes, english, players])
        assert errors == []
        return got
    finally:
        ctx.close()


def test_notes_in_both_languages(hub_process: Hub, browser: Any) -> None:
    english = [n.english() for n, _, _ in SAMPLES] + [f"as sent {i}" for i in range(len(AS_SENT))]
    got = _say(hub_process, browser, [n.json() for n, _, _ in SAMPLES] + AS_SENT, english)
    assert got["zh-CN"] == [zh for _, zh, _ in SAMPLES] + english[len(SAMPLES):]
    assert got["en"] == [en for _, _, en in SAMPLES] + english[len(SAMPLES):]
    assert got["without_codes"] == english  # a hub that sends no codes: its English


def test_every_code_is_said_in_both_languages(hub_process: Hub, browser: Any) -> None:
    """Each of the registry's codes, with an argument of each kind, is said by the page's own
    template: not the hub's English, no placeholder left, the players named."""
    codes = [kind(**{name: SAMPLE_ARGS[ARG_KINDS[name]] for name in kind.args}) for kind in NOTES.values()]
    got = _say(hub_process, browser, [n.json() for n in codes], [n.english() for n in codes])
    for language in ("zh-CN", "en"):
        for note, text in zip(codes, got[language], strict=True):
            assert text != note.english() and "{" not in text, (language, note, text)
            if {"player", "winner"} & {ARG_KINDS[a] for a in note.args}:
                assert "Zheng Yubo" in text or XSS_NAME in text, (language, note, text)

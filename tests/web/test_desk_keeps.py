"""The desk keeps what the organiser typed and reads what Excel saves, in a real Chromium against
`cuehub serve`: pasted names survive Next, a reload and a closed tab (and the draw step says they
are not added yet); a GBK/GB18030 CSV (Excel on Chinese Windows), a UTF-16 one (Excel's Unicode
text) and UTF-8 with or without a byte order mark are read, a workbook or binary file is said
plainly; a header row in either language is no player wherever it is (a second file loaded below
the first) and its columns are followed; `;` lines with quotes, taken seeds added unseeded, equal
names all tagged. Then a tournament's life at the desk: a player removed before the draw (Remove,
both languages) and withdrawn after it, late entries while the draw is stale and the redraw that
takes them in, delete (nothing played) or archive (results), and sign out everywhere."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import PageWatch, shot
from .test_desk import ADMIN, ServedHub, open_desk

SIZES = {"laptop": (1366, 768), "tablet": (1280, 800)}


@pytest.fixture(scope="module")
def hub_process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedHub]:
    served = ServedHub(tmp_path_factory.mktemp("deskkeeps")).start()
    try:
        yield served
    finally:
        served.stop()


def new_tournament(hub_process: ServedHub, name: str = "Keeps") -> str:
    return hub_process.admin_post("/api/tournaments", {"name": f"{name} {uuid.uuid4().hex[:4]}"})["id"]


def load(page: Any, name: str, data: bytes) -> None:
    page.set_input_files("#players-file", files=[{"name": name, "mimeType": "text/csv", "buffer": data}])


def preview_names(page: Any) -> list[str]:
    return [r.split("\t")[1].replace("same name as another", "").strip()
            for r in page.locator("#players-preview tbody tr").all_inner_texts()]


@pytest.mark.parametrize("size", list(SIZES))
def test_pasted_names_survive_next_a_reload_and_a_closed_tab(hub_process: ServedHub, browser: Any, size: str) -> None:
    tid = new_tournament(hub_process)
    guard = PageWatch()
    ctx, page = open_desk(browser, hub_process, size)
    guard.attach(page)
    names = "Zheng Yubo\n杨帆, 北京, 2\nWu Jiaqing"
    try:
        page.goto(f"{hub_process.url}/desk/{tid}/players")
        page.fill("#players-text", names)
        page.wait_for_selector("#players-kept")
        page.click("#next-step")  # to the tables, before "Add 3 players"
        page.wait_for_selector("#step-tables")
        page.click("[data-step=draw]")
        page.wait_for_selector("#draw-unsent")
        assert "3 names" in page.inner_text("#draw-unsent")
        shot(page, f"desk-keeps-draw-unsent-{size}")
        page.click("#draw-unsent a")
        page.wait_for_selector("#players-text")
        assert page.input_value("#players-text") == names
        page.reload()
        page.wait_for_selector("#players-text")
        assert page.input_value("#players-text") == names
        page.close()  # the tab closed; a new one in the same browser
        page = guard.attach(ctx.new_page())
        page.goto(f"{hub_process.url}/desk/{tid}/players")
        page.wait_for_selector("#players-text")
        assert page.input_value("#players-text") == names
        assert preview_names(page) == ["Zheng Yubo", "杨帆", "Wu Jiaqing"]
        page.click("#add-players")
        page.wait_for_selector("#player-list li >> nth=2")
        assert page.input_value("#players-text") == ""  # added: nothing kept any more
        page.reload()
        page.wait_for_selector("#player-list li >> nth=2")
        assert page.input_value("#players-text") == ""
        added = [p["name"] for p in hub_process.get(f"/api/tournaments/{tid}/players")["players"]]
        assert added == ["Zheng Yubo", "杨帆", "Wu Jiaqing"]
        assert guard.errors == [] and guard.dialogs == [], (guard.errors, guard.dialogs)
    finally:
        ctx.close()


def test_files_in_every_encoding_excel_saves(hub_process: ServedHub, browser: Any) -> None:
    tid = new_tournament(hub_process)
    guard = PageWatch()
    ctx, page = open_desk(browser, hub_process, "tablet")
    guard.attach(page)
    rows = "姓名,俱乐部,种子\n张小龙,上海,1\n李娜,北京,\n欧阳 Ouyang,深圳,3\n"
    try:
        page.goto(f"{hub_process.url}/desk/{tid}/players")
        page.wait_for_selector("#players-text")
        for label, data in (("GBK/GB18030", rows.encode("gb18030")),
                            ("UTF-16", rows.encode("utf-16")),  # with its byte order mark, as Excel writes it
                            ("UTF-16", rows.encode("utf-16-le")),  # and without
                            ("UTF-8", rows.encode("utf-8")),
                            ("UTF-8", b"\xef\xbb\xbf" + rows.encode("utf-8"))):
            page.fill("#players-text", "")
            load(page, "players.csv", data)
            page.locator("#players-message").filter(has_text=label).wait_for()
            assert preview_names(page) == ["张小龙", "李娜", "欧阳 Ouyang"], (label, preview_names(page))
            assert "\ufffd" not in page.inner_text("#players-preview")
            if label.startswith("GBK"):
                shot(page, "desk-keeps-gbk-file")
        # A workbook and bytes that are no text: said plainly, nothing added to the list.
        page.fill("#players-text", "")
        load(page, "players.xlsx", b"PK\x03\x04" + bytes(range(256)))
        page.locator("#players-message.err").filter(has_text="Excel workbook").wait_for()
        load(page, "noise.csv", bytes([0x81, 0x20, 0xff, 0xfe, 0x30, 0x80, 0x7f, 0xfe]))
        page.locator("#players-message.err").filter(has_text="noise.csv").wait_for()
        assert "CSV UTF-8" in page.inner_text("#players-message")
        assert page.input_value("#players-text") == ""
        # The GBK file added: the names on the hub are the Chinese ones.
        load(page, "players.csv", rows.encode("gb18030"))
        page.wait_for_selector("#players-parsed")
        page.click("#add-players")
        page.wait_for_selector("#player-list li >> nth=2")
        got = hub_process.get(f"/api/tournaments/{tid}/players")["players"]
        assert [(p["name"], p["club"], p["seed"]) for p in got] == [
            ("张小龙", "上海", 1), ("李娜", "北京", None), ("欧阳 Ouyang", "深圳", 3)]
        assert guard.errors == [], guard.errors
    finally:
        ctx.close()


def test_a_header_row_is_no_player_in_any_file_loaded(hub_process: ServedHub, browser: Any) -> None:
    """Three files loaded one below the other, each with its own header (Chinese, English, and one
    with a row number column and the seed before the club): no header becomes a player, and each
    file's columns are read as its header says."""
    tid = new_tournament(hub_process)
    guard = PageWatch()
    ctx, page = open_desk(browser, hub_process, "laptop")
    guard.attach(page)
    try:
        page.goto(f"{hub_process.url}/desk/{tid}/players")
        page.wait_for_selector("#players-text")
        load(page, "a.csv", "姓名,俱乐部,种子\n张小龙,上海,1\n".encode("gb18030"))
        page.wait_for_selector("#players-parsed")
        load(page, "b.csv", b"\xef\xbb\xbf" + b"Name,Club,Seed\nZheng Yubo,Beijing,2\n")
        page.locator("#players-message").filter(has_text="b.csv").wait_for()
        load(page, "c.csv", "序号，名字，种子，俱乐部\n1，李　明，3，广州\n".encode())
        page.locator("#players-message").filter(has_text="c.csv").wait_for()
        assert page.input_value("#players-text").count("\n") >= 5  # all three files are in the box
        assert preview_names(page) == ["张小龙", "Zheng Yubo", "李　明"], preview_names(page)
        assert "players-problems" not in page.content()
        page.click("#add-players")
        page.wait_for_selector("#player-list li >> nth=2")
        got = hub_process.get(f"/api/tournaments/{tid}/players")["players"]
        assert [(p["name"], p["club"], p["seed"]) for p in got] == [
            ("张小龙", "上海", 1), ("Zheng Yubo", "Beijing", 2), ("李　明", "广州", 3)]
        shot(page, "desk-keeps-headers")
        assert guard.errors == [], guard.errors
    finally:
        ctx.close()


@pytest.mark.parametrize("locale, remove, withdraw", [("en-US", "Remove", "Withdraw"), ("zh-CN", "移除", "退赛")])
def test_remove_before_the_draw_withdraw_after_it(hub_process: ServedHub, browser: Any, locale: str, remove: str,
                                                 withdraw: str) -> None:
    tid = new_tournament(hub_process, "Remove")
    hub_process.admin_post(f"/api/tournaments/{tid}/tables", {"name": "T1"})
    names = ("甲", "乙", "丙", "丁", "戊")
    hub_process.admin_post(f"/api/tournaments/{tid}/players", {"players": [{"name": n} for n in names]})
    guard = PageWatch()
    ctx, page = open_desk(browser, hub_process, "laptop", locale)
    guard.attach(page)
    try:
        page.goto(f"{hub_process.url}/desk/{tid}/players")
        row = ".player-row[data-player='p2']"
        page.wait_for_selector(f"{row} [data-action=remove]")
        assert page.locator("[data-action=withdraw]").count() == 0  # before the draw: nobody withdraws
        assert page.inner_text(f"{row} [data-action=remove]") == remove
        page.click(f"{row} [data-action=remove]")
        page.wait_for_selector("#modal-confirm")
        assert "乙" in page.inner_text("#modal-text")
        shot(page, f"desk-keeps-remove-confirm-{locale}")
        page.click("#modal-confirm")
        page.wait_for_selector(row, state="detached")
        assert page.locator(".player-row").count() == 4
        players = hub_process.get(f"/api/tournaments/{tid}/players")["players"]
        assert [p["name"] for p in players] == ["甲", "丙", "丁", "戊"]  # gone, not withdrawn
        assert all(p["status"] == "active" for p in players)
        # The draw made (from another desk): Withdraw, no Remove.
        hub_process.admin_post(f"/api/tournaments/{tid}/draw", {"type": "single_elimination", "seed": 1, "match": {
            "discipline": "wpa_nine", "format": {"race_to": 3}, "options": {}}})
        page.wait_for_selector(".player-row[data-player='p3'] [data-action=withdraw]")
        assert page.locator("[data-action=remove]").count() == 0
        assert page.inner_text(".player-row[data-player='p3'] [data-action=withdraw]") == withdraw
        shot(page, f"desk-keeps-withdraw-after-draw-{locale}")
        assert guard.errors == [], guard.errors
    finally:
        ctx.close()


def test_semicolons_taken_seeds_and_equal_names(hub_process: ServedHub, browser: Any) -> None:
    tid = new_tournament(hub_process)
    hub_process.admin_post(f"/api/tournaments/{tid}/players", {"name": "Seeded Already", "seed": 5})
    ctx, page = open_desk(browser, hub_process, "laptop")
    try:
        page.goto(f"{hub_process.url}/desk/{tid}/players")
        page.fill("#players-text", '"Smith, John";;\n"Doe, Jane";Club "X";5\nHan Yu\nhan yu\nHan Yu\n李明\n李　明')
        page.wait_for_selector("#players-parsed")
        assert preview_names(page) == ["Smith, John", "Doe, Jane", "Han Yu", "han yu", "Han Yu", "李明", "李　明"]
        cells = [r.split("\t") for r in page.locator("#players-preview tbody tr").all_inner_texts()]
        assert cells[1][2] == 'Club "X"' and cells[1][3].strip() == ""  # seed 5 is taken: added without one
        assert "seed 5 is already Seeded Already's: added without a seed" in page.inner_text("#players-problems")
        # all three, the first too; and 李明 and 李　明 (an ideographic space): one name (ui.js foldName)
        assert page.locator("#players-preview tbody tr.dup").count() == 5
        assert "Add 7 players" in page.inner_text("#add-players")
    finally:
        ctx.close()


def test_late_entries_make_the_draw_stale_until_the_redraw(hub_process: ServedHub, browser: Any) -> None:
    tid = new_tournament(hub_process, "Late")
    for i in (1, 2):
        hub_process.admin_post(f"/api/tournaments/{tid}/tables", {"name": f"T{i}"})
    hub_process.admin_post(f"/api/tournaments/{tid}/players", {"players": [{"name": f"P{i}"} for i in range(1, 5)]})
    hub_process.admin_post(f"/api/tournaments/{tid}/draw", {"type": "single_elimination",
                                                   "match": {"discipline": "wpa_nine", "format": {"race_to": 2}}})
    guard = PageWatch()
    ctx, page = open_desk(browser, hub_process, "tablet")
    guard.attach(page)
    try:
        page.goto(f"{hub_process.url}/desk/{tid}/players")
        page.wait_for_selector("#players-text")
        assert "late entries can still join" in page.inner_text("#players-after-draw")
        page.fill("#players-text", "Late Comer")
        page.click("#add-players")
        page.wait_for_selector("#players-stale")
        assert hub_process.get(f"/api/tournaments/{tid}")["draw"]["stale"] is True
        shot(page, "desk-keeps-late-entry-stale")
        page.click("#players-stale a")
        page.wait_for_selector("#draw-stale")
        page.click("#start-draw")
        page.click("#modal-confirm")
        page.wait_for_selector("#step-run")
        draw = hub_process.get(f"/api/tournaments/{tid}")["draw"]
        assert not draw.get("stale")
        late = next(p["id"] for p in hub_process.get(f"/api/tournaments/{tid}")["players"] if p["name"] == "Late Comer")
        assert any(late in (m["players"] or []) for m in draw["matches"])
        assert page.locator("#run-stale").count() == 0
        # A result closes late entries: the players step says so and names the match.
        m = next(m for m in draw["matches"] if m["status"] == "called")
        r = httpx.post(
            f"{hub_process.url}/api/matches/{m['match_id']}/result",
            headers={"Authorization": f"Bearer {ADMIN}"},
            json={"winner": m["players"][0], "score": {m["players"][0]: 2, m["players"][1]: 0}},
            timeout=10,
        )
        assert r.status_code == 200, r.text
        page.click("[data-step=players]")
        page.locator("#players-after-draw").filter(has_text=m["key"]).wait_for()
        assert page.locator("#players-text").count() == 0
        assert guard.errors == [], guard.errors
    finally:
        ctx.close()


def test_delete_archive_and_sign_out_everywhere(hub_process: ServedHub, browser: Any) -> None:
    empty = new_tournament(hub_process, "Typo")
    played = new_tournament(hub_process, "Played")
    hub_process.admin_post(f"/api/tournaments/{played}/tables", {"name": "T1"})
    hub_process.admin_post(f"/api/tournaments/{played}/players", {"players": [{"name": "A"}, {"name": "B"}]})
    hub_process.admin_post(
        f"/api/tournaments/{played}/draw",
        {"type": "single_elimination", "match": {"discipline": "wpa_nine", "format": {"race_to": 1}}},
    )
    m = hub_process.get(f"/api/tournaments/{played}")["draw"]["matches"][0]
    r = httpx.post(
        f"{hub_process.url}/api/matches/{m['match_id']}/result",
        headers={"Authorization": f"Bearer {ADMIN}"},
        json={"winner": m["players"][0], "score": {m["players"][0]: 1, m["players"][1]: 0}},
        timeout=10,
    )
    assert r.status_code == 200, r.text
    guard = PageWatch()
    ctx, page = open_desk(browser, hub_process, "laptop")
    other_ctx, other = open_desk(browser, hub_process, "tablet")
    guard.attach(page)
    try:
        page.wait_for_selector(f"#tournament-list [data-tournament='{empty}'] [data-action=delete]")
        page.click(f"#tournament-list [data-tournament='{empty}'] [data-action=delete]")
        page.click("#modal-confirm")
        page.wait_for_selector(f"#tournament-list [data-tournament='{empty}']", state="detached")
        assert httpx.get(f"{hub_process.url}/api/tournaments/{empty}").status_code == 404
        # With results: archive, not delete; gone from the public list, its page still answers.
        row = f"#tournament-list [data-tournament='{played}']"
        assert page.locator(f"{row} [data-action=delete]").count() == 0
        page.click(f"{row} [data-action=archive]")
        page.click("#modal-confirm")
        page.wait_for_selector(f"#archived-list [data-tournament='{played}']", state="attached")
        assert played not in [x["id"] for x in hub_process.get("/api/tournaments")["tournaments"]]
        assert hub_process.get(f"/api/tournaments/{played}")["id"] == played
        shot(page, "desk-keeps-archived")
        page.click("#archived summary")
        page.click(f"#archived-list [data-tournament='{played}'] [data-action=unarchive]")
        page.wait_for_selector(f"#tournament-list [data-tournament='{played}']")
        assert played in [x["id"] for x in hub_process.get("/api/tournaments")["tournaments"]]
        # The API refuses to delete it too, in plain words on the desk.
        status = page.evaluate(
            """async (tid) => (await fetch(`/api/tournaments/${tid}`, {method: 'DELETE',
            headers: {'X-Requested-With': 'cuehub'}})).status""",
            played,
        )
        assert status == 409
        # Sign out everywhere: this desk and the other one are both signed out.
        page.click("#signout-everywhere")
        page.click("#modal-confirm")
        page.wait_for_selector("#signin-token")
        other.reload()
        other.wait_for_selector("#signin-token")
        assert guard.errors == [], guard.errors
    finally:
        ctx.close()
        other_ctx.close()

"""The referee's stroke entry, submit included, fits the first screen of a 10-inch tablet
(1280x800 landscape) for every discipline, and the submit stays on screen (sticky) on a
portrait tablet and a phone, without scrolling."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ARTIFACTS, Hub, PageWatch, shot
from .test_disciplines import new_match

CASES = [
    ("golden_nine", {"racks": 9}, {"kind": "start", "breaker": "a"}),
    ("chinese_eight", {"race_to": 6}, {"kind": "start", "breaker": "a"}),
]
SIZES = [(1280, 800), (800, 1280), (390, 844)]


def submit_on_screen(page: Any) -> None:
    """#enter-stroke lies wholly inside the viewport with the page not scrolled."""
    page.evaluate("window.scrollTo(0, 0)")
    box = page.evaluate("""() => {
        const r = document.getElementById('enter-stroke').getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return {x: r.left, y: r.top, w: r.width, h: r.height, vw: innerWidth, vh: innerHeight, sy: scrollY,
                hit: !!hit && (hit.id === 'enter-stroke' || !!hit.closest('#enter-stroke'))};
    }""")
    assert box["sy"] == 0, box
    assert box["w"] > 0 and box["h"] > 0, box
    assert box["x"] >= 0 and box["x"] + box["w"] <= box["vw"], box
    assert box["y"] >= 0 and box["y"] + box["h"] <= box["vh"], box
    assert box["hit"], box  # not covered by anything


def fully_on_screen(page: Any, selector: str) -> None:
    box = page.evaluate(f"""() => {{
        const r = document.querySelector({selector!r}).getBoundingClientRect();
        return {{top: r.top, bottom: r.bottom, vh: innerHeight}};
    }}""")
    assert box["top"] >= 0 and box["bottom"] <= box["vh"], (selector, box)


def shot_path(name: str) -> Any:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{name}.png"


@pytest.mark.parametrize("discipline,fmt,start", CASES)
def test_stroke_entry_fits_without_scrolling(hub_process: Hub, context: Any, guard: PageWatch,
                                             discipline: str, fmt: dict[str, Any], start: dict[str, Any]) -> None:
    t = new_match(hub_process, discipline, [("a", "Zheng Yubo"), ("b", "Wang Can")], fmt,
                  {"shot_clock": {"shot_s": 45, "extension_s": 30, "break_s": 45}})
    page = guard.attach(context.new_page())
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{hub_process.url}/tablet/{t['table_id']}#token={t['token']}")
    page.wait_for_selector("body[data-conn='live']")
    page.wait_for_selector("#start:not(.hidden)")
    page.click(f"#start [data-breaker='{start['breaker']}']")
    page.wait_for_selector("#stroke:not(.hidden)")
    balls = 15 if discipline == "chinese_eight" else 9
    assert page.locator("#pk-grid .ballbtn").count() == balls

    def check(w: int, h: int, label: str) -> None:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(100)
        submit_on_screen(page)
        if (w, h) == (1280, 800):
            # The whole entry is on the first screen, not only its submit.
            for sel in (
                "#stroke-title",
                "#fc-grid",
                "#pk-grid",
                "#off-grid",
                "#cue-ball",
                "#called-fouls",
                "#clear-stroke",
            ):
                fully_on_screen(page, sel)
        wide = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert wide[0] <= wide[1], (label, wide)
        page.screenshot(path=str(shot_path(f"fit-{discipline}-{label}-{w}x{h}")))

    # The break, then a stroke in play (rail instead of the break count).
    for w, h in SIZES:
        check(w, h, "break")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click("#fc-grid [data-ball='1']")
    page.click("#pk-grid [data-ball='3']")
    page.click("#break-plus")
    page.click("#break-plus")
    page.click("#break-plus")
    page.click("#break-plus")
    page.click("#enter-stroke")
    page.wait_for_selector("#flag-rail")
    for w, h in SIZES:
        check(w, h, "play")
    # A reject banner above the form still leaves the submit on screen at 1280x800.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate(
        "document.getElementById('reject').textContent = 'x'.repeat(300);"
        " document.getElementById('reject').classList.remove('hidden')"
    )
    submit_on_screen(page)
    assert not guard.errors and not guard.dialogs, (guard.errors, guard.dialogs)
    shot(page, f"fit-{discipline}-tablet-full")

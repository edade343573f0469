"""Taps per ordinary stroke on the referee tablet, before and after "one entry, one stroke".

    python bench/tablet_taps.py [--before-tree DIR] [--after-tree DIR]

For each discipline and each ordinary stroke (a safety with a rail, a pot that keeps the turn, a
scratch foul, a safety that misses every rail, a break), the script drives a real headless Chromium
on a real hub and taps the fewest buttons that make the tablet store that stroke as it happened,
then reads the stored event back and checks its facts: a count is only printed for taps that gave
the right stroke. "Before" runs the hub and pages of the tree given by --before-tree (default:
`git archive` of the commit this branch started from, b565392, unpacked in a temporary folder);
"after" runs this tree. The two UIs are driven by their own recipes (the old stepper takes N taps
for a count of N; the new one takes one; the old form has no rail question).

The "no rail" row is the safety that reaches no rail: before, a bare "Enter stroke" stored it (the
default was the verdict, the referees' complaint); after, the referee says "No rail".
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parents[1]
BASE_COMMIT = "b565392"
ADMIN = "taps-admin"
CHROMIUM = os.environ.get("CUEHUB_CHROMIUM", "/usr/bin/chromium")
DISCIPLINES = ("golden_nine", "wpa_nine", "chinese_eight", "chase_nine")


@dataclass
class Case:
    name: str
    facts: dict[str, Any]  # what must be stored
    count: int | None = None  # the break's count (crossings or rails)
    setup: list[str] = field(default_factory=list)


# What happens at the table, the same for both UIs. Before each play case the breaker broke
# legally and pocketed the 2 (and, in chinese_eight, took solids with the 3): still at the table.
CASES = [
    Case("safety with a rail", {"pocketed": [], "cue_ball": "table", "rail": True}),
    Case("pot that keeps the turn", {"pocketed": ["on"], "cue_ball": "table"}),
    Case("foul: scratch", {"pocketed": [], "cue_ball": "pocketed", "rail": True}),
    Case("foul: no rail", {"pocketed": [], "cue_ball": "table", "rail": False}),
    Case("break (4, nothing down)", {"pocketed": [], "cue_ball": "table"}, count=4),
]


class HubProc:
    def __init__(self, tree: Path, workdir: Path) -> None:
        self.tree = tree
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "HUB_ADMIN_TOKEN": ADMIN, "PYTHONPATH": f"{tree}:{tree / 'clients' / 'python'}",
               "HUB_DATABASE_URL": f"sqlite+aiosqlite:///{workdir / f'taps-{uuid.uuid4().hex[:6]}.db'}"}
        env.pop("HUB_BUS_URL", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "--factory", "hub.app:create_app",
                                      "--port", str(self.port), "--log-level", "warning"],
                                     cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > end or self.proc.poll() is not None:
                raise RuntimeError(f"the hub of {tree} did not start")
            time.sleep(0.1)

    def post(self, path: str, body: dict[str, Any], token: str = ADMIN) -> Any:
        r = httpx.post(self.url + path, json=body, headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert r.status_code in (200, 201), r.text
        return r.json()

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait(10)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prepare(hub: HubProc, discipline: str, breaking: bool) -> dict[str, Any]:
    """A match on a fresh table, started; for a play case, after the setup strokes."""
    tid = hub.post("/api/tournaments", {"name": "taps"})["id"]
    tb = hub.post(f"/api/tournaments/{tid}/tables", {"name": "T"})
    players = [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}] + (
        [{"id": "c", "name": "C"}] if discipline == "chase_nine" else []
    )
    fmt = {"racks": 5} if discipline in ("golden_nine", "chase_nine") else {"race_to": 5}
    m = hub.post(
        "/api/matches",
        {"tournament_id": tid, "table_id": tb["id"], "discipline": discipline, "players": players, "format": fmt},
    )

    def send(cmd: dict[str, Any]) -> Any:
        envelope = {"id": uuid.uuid4().hex, "match_id": m["id"], "command": cmd}
        return hub.post(f"/api/matches/{m['id']}/commands", envelope, tb["token"])

    send(
        {"kind": "start", "order": ["a", "b", "c"]} if discipline == "chase_nine" else {"kind": "start", "breaker": "a"}
    )
    if not breaking:
        count = {"break_crossings": 4} if discipline == "golden_nine" else {"break_rails": 4}
        send({"kind": "shot", "player": "a", "first_contact": 1, "pocketed": [2], **count})
        if discipline == "chinese_eight":
            send({"kind": "shot", "player": "a", "first_contact": 3, "pocketed": [3]})  # solids
    return {"table_id": tb["id"], "token": tb["token"], "match_id": m["id"]}


def ball_on(discipline: str) -> int:
    """The ball hit first in every case: the nine-ball ball-on, a solid for chinese_eight."""
    return 1


class Taps:
    """Clicks on the page, counted."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.n = 0

    def tap(self, selector: str) -> None:
        self.page.click(selector)
        self.n += 1


def enter(ui: str, page: Any, discipline: str, case: Case) -> int:
    taps = Taps(page)
    breaking = case.count is not None
    preselected = page.locator("#fc-grid .ballbtn.on").count() > 0 and page.locator(
        "#fc-grid .ballbtn.on"
    ).get_attribute("data-ball") == str(ball_on(discipline))
    if not preselected:
        taps.tap(f"#fc-grid [data-ball='{ball_on(discipline)}']")
    if "on" in case.facts["pocketed"]:
        taps.tap("#pk-grid [data-ball='4']")
    if case.facts["cue_ball"] != "table":
        taps.tap(f"#cue-ball [data-cue='{case.facts['cue_ball']}']")
    if breaking:
        if ui == "before":
            for _ in range(case.count or 0):
                taps.tap("#break-plus")
        else:
            taps.tap(f"#break-counts [data-count='{case.count}']")
    elif not case.facts["pocketed"] and page.locator("#rail-question.hidden").count() == 0:
        # (a scratch asks no rail question: a foul whatever the rail; the tablet stores rail true)
        if case.facts.get("rail") is True:
            taps.tap("#flag-rail")
        elif case.facts.get("rail") is False and ui == "after":
            taps.tap("#flag-no-rail")
    taps.tap("#enter-stroke")
    return taps.n


def stored_ok(hub: HubProc, t: dict[str, Any], discipline: str, case: Case, before_version: int) -> bool:
    evs = httpx.get(f"{hub.url}/api/matches/{t['match_id']}/events?since={before_version}", timeout=10).json()["events"]
    if len(evs) != 1 or evs[0]["kind"] != "shot":
        return False
    d = evs[0]["data"]
    want = dict(case.facts)
    want["pocketed"] = [4] if "on" in want["pocketed"] else []
    ok = (
        d["first_contact"] == ball_on(discipline)
        and d["pocketed"] == want["pocketed"]
        and d["cue_ball"] == want["cue_ball"]
    )
    if "rail" in want:
        ok = ok and d["rail"] is want["rail"]
    if case.count is not None:
        ok = ok and d["break_crossings" if discipline == "golden_nine" else "break_rails"] == case.count
    return ok


def measure(ui: str, tree: Path, browser: Any, workdir: Path) -> dict[tuple[str, str], int | str]:
    hub = HubProc(tree, workdir)
    out: dict[tuple[str, str], int | str] = {}
    try:
        ctx = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
        page = ctx.new_page()
        for discipline in DISCIPLINES:
            for case in CASES:
                t = prepare(hub, discipline, case.count is not None)
                version = httpx.get(f"{hub.url}/api/matches/{t['match_id']}", timeout=10).json()["version"]
                page.goto(f"{hub.url}/tablet/{t['table_id']}#token={t['token']}")
                page.wait_for_selector("body[data-conn='live']")
                page.wait_for_selector("#stroke:not(.hidden)")
                n = enter(ui, page, discipline, case)
                page.wait_for_selector(f"body[data-version='{version + 1}']", timeout=10000)
                out[(discipline, case.name)] = n if stored_ok(hub, t, discipline, case, version) else f"{n}?"
        ctx.close()
    finally:
        hub.stop()
    return out


def before_tree(workdir: Path) -> Path:
    target = workdir / "before"
    target.mkdir()
    archive = subprocess.run(["git", "-C", str(HERE), "archive", BASE_COMMIT], check=True, capture_output=True).stdout
    tar_path = workdir / "before.tar"
    tar_path.write_bytes(archive)
    with tarfile.open(tar_path) as tar:
        tar.extractall(target)
    return target


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before-tree", type=Path)
    ap.add_argument("--after-tree", type=Path, default=HERE)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        workdir = Path(tmp)
        browser = p.chromium.launch(executable_path=CHROMIUM,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        before = measure("before", args.before_tree or before_tree(workdir), browser, workdir)
        after = measure("after", args.after_tree, browser, workdir)
        browser.close()
    print(f"{'discipline':<14} {'stroke':<26} {'before':>6} {'after':>6}")
    for discipline in DISCIPLINES:
        for case in CASES:
            b, a = before[(discipline, case.name)], after[(discipline, case.name)]
            print(f"{discipline:<14} {case.name:<26} {b!s:>6} {a!s:>6}")
    print("(a count with ? stored a stroke whose facts differ from what happened)")


if __name__ == "__main__":
    main()

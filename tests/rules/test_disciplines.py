"""The registry (hub/rules/disciplines.py) is the one source of what a discipline is.

The rule this file enforces (issue 30): a discipline's name appears in `hub/`, `clients/web/js/` and
the Python client (`clients/python/cuehub_client/`) only in
- its own module (the file of its `Discipline` class: `hub/rules/<module>.py`),
- the registry `hub/rules/disciplines.py`,
- the pages' language tables (every file under `clients/web/js/strings/`: tests/strings_data.py).
Strict: code, strings, comments and docstrings alike (a comment that names a discipline becomes
stale when the discipline changes, as a name check does). The vendored API-docs bundles
(`hub/api/docs_assets/`) are not ours and are skipped. A name that is an ordinary word (`other`: also
a called-foul code, a metrics label and plain English) is looked for as the discipline only: a
quoted literal of it on a line that also says "discipline".

So a new discipline touches at most four files: its module, its registry line, its names in the
language tables, and its test (tests/api/test_disciplines.py plays a throwaway one over the API).
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from hub.rules import core
from hub.rules.disciplines import DISCIPLINES, catalogue, names, traits_of
from hub.rules.setup import validate_setup
from tests.strings_data import LANGUAGES, STRINGS_DIR, table

ROOT = Path(__file__).resolve().parents[2]
SCANNED = (ROOT / "hub", ROOT / "clients" / "web" / "js", ROOT / "clients" / "python" / "cuehub_client")
SKIPPED = (ROOT / "hub" / "api" / "docs_assets",)
REGISTRY = ROOT / "hub" / "rules" / "disciplines.py"


def is_language_table(path: Path) -> bool:
    js = ROOT / "clients" / "web" / "js"
    return (js / "strings") in path.parents


def own_module(name: str) -> Path:
    return Path(inspect.getfile(type(DISCIPLINES[name])))


def pattern(name: str) -> re.Pattern[str]:
    if "_" in name:
        return re.compile(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])")
    # an ordinary word: the discipline only, a quoted literal on a line about disciplines
    return re.compile(rf"""(?i)^(?=.*discipline).*["']{re.escape(name)}["']""")


def misplaced(path: Path, text: str, disciplines: list[str]) -> list[str]:
    """`path:line: name` for every discipline name in `text` outside the places allowed for it."""
    if path == REGISTRY or is_language_table(path):
        return []
    found = []
    for name in disciplines:
        if name in DISCIPLINES and path == own_module(name):
            continue
        rx = pattern(name)
        for number, line in enumerate(text.splitlines(), 1):
            if rx.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {name}")
    return found


def scanned_files() -> list[Path]:
    files = []
    for root in SCANNED:
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".js") and not any(s in path.parents for s in SKIPPED):
                files.append(path)
    return files


def test_discipline_names_appear_only_in_their_module_the_registry_and_the_language_tables() -> None:
    files = scanned_files()
    assert len(files) > 150 and any(p.name == "tablet.js" for p in files)
    bad = [hit for path in files for hit in misplaced(path, path.read_text(encoding="utf-8"), list(names()))]
    assert not bad, "discipline names outside their module, the registry and the language tables:\n" + "\n".join(bad)


def test_the_scan_finds_what_it_looks_for() -> None:
    """The rule is not vacuous: a name check, a comment and a literal are each found where they do not belong."""
    tablet = ROOT / "clients" / "web" / "js" / "tablet.js"
    found = misplaced(tablet, 'if (d === "chinese_eight") x();', list(names()))
    assert found == ["clients/web/js/tablet.js:1: chinese_eight"]
    assert misplaced(ROOT / "hub" / "rules" / "core.py", "# as in wpa_nine\n", ["wpa_nine"])
    assert misplaced(ROOT / "hub" / "rules" / "setup.py", 'if discipline == "other":', ["other"])
    assert not misplaced(ROOT / "hub" / "rules" / "core.py", 'CALLED_FOULS = ("other",)', ["other"])
    assert not misplaced(own_module("wpa_ten"), 'name="wpa_ten"', ["wpa_ten"])
    assert misplaced(own_module("wpa_ten"), "as wpa_nine", ["wpa_nine"])  # another discipline's module
    assert not misplaced(STRINGS_DIR / "en" / "common.js", '"d_wpa_ten": "Ten-ball",', ["wpa_ten"])
    assert misplaced(ROOT / "clients" / "web" / "js" / "i18n.js", '"d_wpa_ten": "Ten-ball",', ["wpa_ten"])
    assert not misplaced(REGISTRY, "WpaTen(),  # wpa_ten", ["wpa_ten"])


def test_every_language_table_names_every_discipline() -> None:
    for language in LANGUAGES:
        words = table(language)
        for name in names():
            assert words.get(f"d_{name}"), f"d_{name} is missing in {language}"


def test_the_registry_and_the_traits_agree() -> None:
    assert list(names()) == list(DISCIPLINES) and len(names()) == len(set(names()))
    for name, discipline in DISCIPLINES.items():
        traits = traits_of(name)
        assert traits.name == discipline.name == name
        assert traits.formats and set(traits.formats) <= {"race_to", "racks", "minutes"}
        assert set(traits.format_defaults) <= set(traits.formats)
        assert set(traits.called_fouls_break) | set(traits.called_fouls_play) <= set(core.CALLED_FOULS)
        assert traits.win_ball is None or traits.win_ball in traits.balls
        assert traits.players in (2, 3) and traits.lag == (traits.players == 2)
        assert (traits.ranked or traits.rack_paid_by) == (traits.players == 3)
    assert [entry["name"] for entry in catalogue()] == list(names())


def test_a_setup_takes_what_the_traits_say() -> None:
    """Every discipline: its usual format with its defaults is taken; a format it does not list is refused."""
    for name in names():
        traits = traits_of(name)
        players = [{"id": f"p{i}", "name": f"P{i}"} for i in range(traits.players)]
        fmt: dict[str, object] = {traits.formats[0]: 3}
        if traits.named_game:
            fmt["game"] = "snooker"
        setup = validate_setup({"discipline": name, "players": players, "format": fmt,
                                "options": {"shot_clock": {}}}, match_id="m", tournament_id="t", table_id="tb")
        assert setup.traits is traits and setup.scoring == traits.scorings[0] and setup.break_mode == traits.breaks[0]
        clock = setup.shot_clock
        assert clock is not None
        assert clock.first_shot_s == traits.shot_clock.get("first_shot_s", clock.shot_s)
        assert clock.extensions_per_rack == traits.shot_clock["extensions_per_rack"]
        for other in {"race_to", "racks", "minutes"} - set(traits.formats):
            try:
                validate_setup({"discipline": name, "players": players, "format": {other: 3}},
                               match_id="m", tournament_id="t", table_id="tb")
            except Exception as exc:  # noqa: BLE001 - the engine's SetupError
                assert f"format.{other} is for" in str(exc)
            else:
                raise AssertionError(f"{name} took format.{other}")

"""The draw-format registry: nothing outside it names a format (the pages included: they read each
format's served ``view``), a format added through it alone works end to end in the pure fold, and what
it serves (settings, disciplines, race sides, the view) is what it checks and makes."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from hub import draws
from hub.draws import draw_formats, race_lengths
from hub.draws.draw_commands import MAX_DRAW_MATCHES
from hub.draws.draw_formats.base import SAMPLE_FIELD, DrawFormat, Param, Params, Rounds
from hub.draws.settle import DrawMatch, TypeResult, settle
from hub.draws.state import DrawSpec, TournamentState
from hub.tournaments.round_names import NAMES, namer
from tests import strings_data

from .harness import TEMPLATES, Stream

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = ROOT / "hub" / "draws" / "draw_formats"
PAGES = ROOT / "clients" / "web"
LANGUAGE_TABLES = PAGES / "js" / "strings"  # keyed by a format's name (dt_<name>...): words, not code


def _demo_events(tree: ast.AST) -> list[range]:
    """The lines of each discipline's `demo_event` (data: the draw `cuehub demo` runs in it)."""
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id == "demo_event" for t in targets):
            spans.append(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return spans


def _named_in_python(path: Path) -> list[str]:
    """String constants equal to a format name (a docstring mentioning one is no dispatch; a
    discipline's demo event is data)."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    demo = _demo_events(tree)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in draw_formats.FORMATS
                and not any(node.lineno in span for span in demo)):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}")
    return found


def _named_in_page(path: Path, text: str) -> list[str]:
    """Every format name in a page's file (JS, CSS, HTML), code, strings and comments alike: a page
    reads what it needs of a format from its served ``view`` (js/draw-formats.js)."""
    names = "|".join(map(re.escape, draw_formats.FORMATS))
    word = re.compile(rf"(?<![A-Za-z0-9])({names})(?![A-Za-z0-9])")
    return [f"{path.relative_to(ROOT)}:{number}: {m.group(1)}"
            for number, line in enumerate(text.splitlines(), 1) for m in word.finditer(line)]


def page_files() -> list[Path]:
    return [p for p in sorted(PAGES.rglob("*")) if p.suffix in (".js", ".css", ".html")
            and not p.is_relative_to(LANGUAGE_TABLES)]


def test_no_module_outside_the_registry_names_a_draw_format() -> None:
    found = [hit for path in sorted((ROOT / "hub").rglob("*.py"))
             if not path.is_relative_to(REGISTRY) for hit in _named_in_python(path)]
    assert found == [], "ask the registry (hub/draws/draw_formats/) instead:\n" + "\n".join(found)
    # the check sees a name where there is one
    assert _named_in_python(REGISTRY / "round_robin.py")


def test_no_page_names_a_draw_format() -> None:
    """Not `type === "round_robin"` in a page's script, nor `[data-type="chase_groups"]` in its CSS."""
    files = page_files()
    assert len(files) > 40 and PAGES / "js" / "bracket-draw.js" in files and PAGES / "css" / "bracket.css" in files
    found = [hit for path in files for hit in _named_in_page(path, path.read_text(encoding="utf-8"))]
    assert found == [], "read the format's view (js/draw-formats.js) instead:\n" + "\n".join(found)
    # the check sees a name where there is one, a comment's too; a key built from the type is no name
    draw_view = PAGES / "js" / "draw-view.js"
    assert _named_in_page(draw_view, 'if (type === "double_elimination") x();') == [
        "clients/web/js/draw-view.js:1: double_elimination"]
    assert _named_in_page(draw_view, "// as round_robin does\nt(`br_type_chase_groups`)") == [
        "clients/web/js/draw-view.js:1: round_robin", "clients/web/js/draw-view.js:2: chase_groups"]
    assert _named_in_page(draw_view, "t(`dk_then_summary_${d.type}`)") == []


class Pairs(DrawFormat):
    """A toy format: neighbours in seeding order play each other ``legs`` times; most wins is first."""

    name = "pairs"
    params = (Param("legs", 1, 9, 1, "times each pair meets"),)
    about = "Neighbours play each other."

    def size(self, players: int, params: Params) -> int:
        return players // 2 * self.value(params, "legs")

    def rounds(self, n: int, params: Params, advance: int | None) -> Rounds:
        return race_lengths.numbered_rounds(self.value(params, "legs"), "group")

    def derive(self, state: TournamentState, spec: DrawSpec) -> TypeResult:
        pairs = [spec.entrants[i:i + 2] for i in range(0, len(spec.entrants) - 1, 2)]
        matches: list[DrawMatch] = []
        wins: dict[str, int] = {pid: 0 for pid in spec.entrants}
        for leg in range(1, self.value(spec.params, "legs") + 1):
            for i, pair in enumerate(pairs, start=1):
                key = f"P{leg}-{i}"
                st = settle(state, key, pair, spec.version)
                matches.append(DrawMatch(key, f"R{leg}", "group", None, tuple(pair), st.status, st.match_id,
                                         st.table_id, st.winner, st.losers, st.scores, ready_at=st.ready_at,
                                         resolved_at=st.resolved_at, order=len(matches)))
                if st.status == "finished" and st.winner is not None:
                    wins[st.winner] += 1
        best = max(spec.entrants, key=lambda pid: (wins[pid], -spec.entrants.index(pid)))
        return TypeResult(tuple(matches), best, None, {}, None)


@pytest.fixture
def pairs(monkeypatch: pytest.MonkeyPatch) -> Pairs:
    toy = Pairs()
    monkeypatch.setitem(draw_formats.FORMATS, toy.name, toy)
    return toy


def _play(s: Stream, tables: int = 2) -> None:
    """Call the ready matches to the free tables and finish each with its first player winning, to the end."""
    free = {f"tb{i}": True for i in range(1, tables + 1)}
    while s.view["draw"]["status"] != "finished":
        for key, table in draws.dispatch(s.state, list(free.items())):
            s.call(key, table)
            free[table] = False
        for key in list(draws.calls(s.state)):
            if key not in s.state.results:
                s.result(key, s.state.calls[key].players[0])
                free[s.state.calls[key].table_id] = True


def test_a_format_added_through_the_registry_works_end_to_end(pairs: Pairs) -> None:
    s = Stream()
    ids = s.add(6, seeded=True)
    match = {**TEMPLATES["wpa_nine"], "by_round": {"R2": {"format": {"race_to": 7}}}}
    made = s.do({"kind": "make_draw", "type": "pairs", "seeding": "seeded", "seed": 1, "match": match, "legs": 2})
    assert made.data["legs"] == 2 and made.data["groups"] is None and made.data["rounds"] is None
    draw = s.view["draw"]
    assert (draw["type"], draw["legs"], draw["groups"]) == ("pairs", 2, None)
    assert [m["key"] for m in draw["matches"]] == ["P1-1", "P1-2", "P1-3", "P2-1", "P2-2", "P2-3"]
    assert draw["stages"][0]["rounds"] == [{"round": "R1", "side": "group", "format": {"race_to": 5}},
                                           {"round": "R2", "side": "group", "format": {"race_to": 7}}]
    assert draws.match_body(s.state, "P2-1")["format"] == {"race_to": 7}
    _play(s)
    view = s.view
    assert view["draw"]["status"] == "finished" and view["draw"]["champion"] == ids[0]
    assert view["draw"]["counts"] == {"matches": 6, "played": 6, "walkovers": 0, "left": 0}
    assert {p["id"]: p["status"] for p in view["players"]}[ids[0]] == "champion"
    assert draws.fold("t1", s.events).derived == s.state.derived  # the stored events replay to the same draw
    assert namer(view["draw"])(view["draw"]["matches"][3]) == "Round 2"
    listed = next(f for f in draw_formats.catalogue()["formats"] if f["name"] == "pairs")
    assert listed["params"] == [{"name": "legs", "type": "integer", "minimum": 1, "maximum": 9, "default": 1,
                                 "about": "times each pair meets"}]
    assert "chase_nine" not in listed["disciplines"] and listed["then"] is None


def test_a_format_added_through_the_registry_is_checked_like_the_others(pairs: Pairs) -> None:
    s = Stream()
    s.add(4)

    def refused(**fields: Any) -> str:
        body = {"kind": "make_draw", "type": "pairs", "seed": 1, "match": TEMPLATES["wpa_nine"], **fields}
        r = s.reject(body)
        return f"{r.code}: {r.message}"

    assert refused(legs=10).startswith("bad_request: legs must be between 1 and 9")
    assert refused(groups=2) == "bad_request: groups is only for a round_robin draw"
    assert refused(match=TEMPLATES["chase_nine"]).startswith("bad_request: a pairs draw plays 2 players a match")
    assert refused(then={"type": "single_elimination", "advance": 2}).startswith("bad_request: then follows a ")
    assert refused(match={**TEMPLATES["wpa_nine"], "by_round": {"R3": {"format": {"race_to": 3}}}}).startswith(
        "bad_request: match.by_round: this draw has no round 'R3'")
    assert s.reject({"kind": "make_draw", "type": "round_robin", "seed": 1, "match": TEMPLATES["wpa_nine"],
                     "legs": 2}).message == "legs is only for a pairs draw"
    big = Stream()
    big.add(512)
    big.add(512)  # 512 pairs 9 times: 4,608 matches
    r = big.reject({"kind": "make_draw", "type": "pairs", "seed": 1, "match": TEMPLATES["wpa_nine"], "legs": 9})
    assert MAX_DRAW_MATCHES < 512 * 9
    assert r.code == "draw_too_large" and "split the field" in r.message


@pytest.mark.parametrize("name", list(draw_formats.FORMATS))
def test_what_is_served_is_what_is_checked(name: str) -> None:
    """Each served setting's bounds and default are those make_draw applies, and the served race sides
    are the ones ``by_round`` may name."""
    served = next(f for f in draw_formats.catalogue()["formats"] if f["name"] == name)
    kind = draw_formats.format_of(name)
    template = TEMPLATES["chase_nine" if served["players_per_match"] == 3 else "wpa_nine"]
    assert template["discipline"] in served["disciplines"]
    for p in served["params"]:
        s = Stream()
        s.add(12)
        base: dict[str, Any] = {"kind": "make_draw", "type": name, "seed": 1, "match": template}
        assert s.reject({**base, p["name"]: p["maximum"] + 1}).code == "bad_request"
        assert s.reject({**base, p["name"]: p["minimum"] - 1}).code == "bad_request"
        assert s.do(base).data[p["name"]] == p["default"]
    for side in served["race_sides"]:
        s = Stream()
        s.add(12)
        s.do({"kind": "make_draw", "type": name, "seed": 1, "match": {**template, "by_round": {side: {
            "format": {"racks": 2}}}}})
    assert served["race_sides"] == race_lengths.sides_of(kind.rounds(12, {}, None))
    assert (served["then"] is None) == (kind.next_stage is None)
    if kind.next_stage is not None:
        assert served["then"]["types"] == list(draw_formats.knockouts())
        assert served["then"]["advance"] == kind.next_stage.advance.json()


@pytest.mark.parametrize("name", list(draw_formats.FORMATS))
def test_every_format_has_its_names_in_both_languages(name: str) -> None:
    """The pages' names of a format (keyed by its name) in English and Chinese, and the exports' words
    for every round-name code it gives."""
    english, chinese = strings_data.table("en"), strings_data.table("zh-CN")
    kind = draw_formats.format_of(name)
    keys = [f"dt_{name}", f"dk_about_{name}", f"br_type_{name}"]
    if kind.next_stage is not None:
        keys += [f"dk_then_advance_{name}", f"dk_then_help_{name}", f"dk_then_summary_{name}"]
    keys += [f"dk_{p.name}" for p in kind.params]
    for key in keys:
        assert english.get(key) and chinese.get(key), key
    rounds = kind.rounds(SAMPLE_FIELD, {}, None)
    last = {"W": 4, "K": 4}
    codes = {label[0] for r, _ in rounds if (label := kind.round_label(r, "A", last)) is not None}
    for words in NAMES.values():
        assert codes <= set(words), codes - set(words)



@pytest.mark.parametrize("name", list(draw_formats.FORMATS))
def test_the_served_view_says_what_the_draw_makes(name: str) -> None:
    """What a page that has only a match's key and round makes of it from the format's ``view`` (js/
    draw-view.js ``drawEntry``: GF<r> the final, L<r> the losers, else ``view.bracket``; the group from
    the key when ``group_in_key``) is the entry the draw made; ``losers`` is whether it has a losers
    side, and a ``bracket`` layout's rounds are W<r>, L<r> and GF<r>."""
    served = next(f for f in draw_formats.catalogue()["formats"] if f["name"] == name)
    view = served["view"]
    assert view == draw_formats.format_of(name).view.json()
    s = Stream()
    s.add(12)
    extra = {"groups": 2} if any(p["name"] == "groups" for p in served["params"]) else {}
    s.draw(name, **extra)
    matches = s.view["draw"]["matches"]
    assert len(matches) >= 6
    for m in matches:
        rnd = m["round"]
        bracket = "final" if rnd.startswith("GF") else "losers" if re.match(r"L\d", rnd) else view["bracket"]
        group = (re.match(r"([A-Z]+)-", m["key"]) or [None, None])[1] if view["group_in_key"] else None
        assert (bracket, group) == (m["bracket"], m.get("group")), m
    assert view["losers"] == any(m["bracket"] == "losers" for m in matches)
    if view["layout"] == "bracket":
        assert all(re.fullmatch(r"(W|L|GF)\d*", m["round"]) for m in matches), [m["round"] for m in matches]
    if view["group_in_key"]:
        assert {m.get("group") for m in matches} == {"A", "B"}

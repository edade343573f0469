"""Readable names of a draw's rounds for exports: "Winners round 2", "Losers round 1", "Grand final".

The draw names rounds by key (`W2`, `L1`, `GF`, `R3`); people read these instead. English by
default, Chinese with `lang="zh-CN"` (the pages' own names are in clients/web/js/strings/). Which
name a round gets is its format's (`round_label` in hub/draws/draw_formats/: a code and its
arguments); the words for each code are here:

- double elimination: `W{r}` "Winners round r", `L{r}` "Losers round r", `GF` "Grand final",
  `GF2` "Grand final reset";
- single elimination: the last round "Final", then "Semi-finals", "Quarter-finals", else "Round r";
- round robin: "Group A, round r"; chase groups: "Round r";
- a knockout stage (`K{r}`): "Knockout final", "Knockout semi-finals", "Knockout quarter-finals",
  else "Knockout, round r".

`bye_word(lang)`: what an export writes in the place of a bye's missing player ("(bye)", 轮空).
"""

from __future__ import annotations

import re
from typing import Any

from hub.draws import draw_formats

NAMES = {
    "en": {"GF": "Grand final", "GF2": "Grand final reset", "W": "Winners round {r}", "L": "Losers round {r}",
           "final": "Final", "semi": "Semi-finals", "quarter": "Quarter-finals", "round": "Round {r}",
           "group": "Group {g}, round {r}", "K": "Knockout, round {r}", "Kfinal": "Knockout final",
           "Ksemi": "Knockout semi-finals", "Kquarter": "Knockout quarter-finals", "bye": "(bye)",
           "entered": "by hand"},
    "zh-CN": {"GF": "总决赛", "GF2": "总决赛加赛", "W": "胜者组第{r}轮", "L": "败者组第{r}轮",
              "final": "决赛", "semi": "半决赛", "quarter": "四分之一决赛", "round": "第{r}轮",
              "group": "{g}组第{r}轮", "K": "淘汰赛第{r}轮", "Kfinal": "淘汰赛决赛", "Ksemi": "淘汰赛半决赛",
              "Kquarter": "淘汰赛四分之一决赛", "bye": "轮空",
              "entered": "手动录入"},
}


def language(lang: str | None) -> str:
    return "zh-CN" if lang and lang.lower().startswith("zh") else "en"


def bye_word(lang: str | None = None) -> str:
    return NAMES[language(lang)]["bye"]


def entered_word(lang: str | None = None) -> str:
    """What the matches CSV writes beside a result entered by hand at the desk."""
    return NAMES[language(lang)]["entered"]


def namer(draw: dict[str, Any], lang: str | None = None) -> Any:
    """A function (match entry) -> the readable name of its round, for this draw: its stage's format
    says which name (a code and its arguments, hub/draws/draw_formats/), NAMES has the words."""
    words = NAMES[language(lang)]
    kinds = {1: draw.get("type")} | {s.get("stage"): s.get("type") for s in draw.get("stages") or []}
    last: dict[str, int] = {}  # each round prefix's last round number (W, K, ...)
    for e in draw.get("matches") or []:
        if (m := re.fullmatch(r"([A-Z]+)(\d+)", e.get("round") or "")) is not None:
            last[m.group(1)] = max(last.get(m.group(1), 0), int(m.group(2)))

    def name(entry: dict[str, Any]) -> str:
        key, rnd = entry.get("key") or "", entry.get("round") or ""
        kind = draw_formats.FORMATS.get(str(kinds.get(entry.get("stage") or 1)))
        label = kind.round_label(rnd, entry.get("group"), last) if kind is not None else None
        if label is None:
            return rnd or key
        code, args = label
        return str(words[code]).format(**args)

    return name

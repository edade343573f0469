"""hub/people/tally.py: statistics as one mergeable value (pure)."""

from __future__ import annotations

from hub.people import tally


def strokes(*ms: int) -> tally.Tally:
    t = tally.empty()
    for x in ms:
        t["strokes"] += 1
        tally.add_stroke_time(t, x)
    return t


def test_adding_tallies_adds_every_count_and_the_histograms() -> None:
    a, b = strokes(1_000, 2_000), strokes(3_000)
    a["fouls_by_code"] = {"scratch": 1}
    b["fouls_by_code"] = {"scratch": 2, "no_rail": 1}
    b["breaks"] = 4
    both = tally.total([a, b])
    assert both["strokes"] == 3 and both["breaks"] == 4
    assert both["fouls_by_code"] == {"scratch": 3, "no_rail": 1}
    assert tally.summary(both)["strokes"] == {"count": 3, "timed": 3, "median_ms": 2_250, "p90_ms": 3_250}
    assert a["strokes"] == 2  # total() leaves its inputs alone


def test_a_career_is_the_sum_of_its_events_whatever_the_grouping() -> None:
    times = [400, 1_200, 7_700, 7_900, 15_000, 30_000, 61_000, 95_000, 200_000, 5_100]
    whole = tally.summary(strokes(*times))
    grouped = tally.summary(tally.total([strokes(*times[:3]), strokes(*times[3:7]), strokes(*times[7:])]))
    assert whole == grouped


def test_bins_and_quantiles() -> None:
    assert [tally.stroke_bin(ms) for ms in (0, 499, 500, 59_999, 60_000, 64_999, 65_000, 179_999, 180_000,
                                            10**9)] == [0, 0, 1, 119, 120, 120, 121, 143, 144, 144]
    assert tally.bin_middle(0) == 250 and tally.bin_middle(120) == 62_500 and tally.bin_middle(144) == 180_000
    assert tally.quantile_ms({}, 0.5) is None
    h = strokes(*([1_000] * 9 + [50_000]))["stroke_ms"]
    assert tally.quantile_ms(h, 0.5) == 1_250 and tally.quantile_ms(h, 0.9) == 1_250
    assert tally.quantile_ms(h, 1.0) == 50_250


def test_stats_json_has_a_total_and_each_discipline() -> None:
    nine, eight = strokes(1_000), strokes(2_000)
    nine["matches"], eight["matches"] = 2, 1
    out = tally.stats_json({"wpa_nine": nine, "chinese_eight": eight})
    assert out["total"]["matches"]["played"] == 3 and out["total"]["strokes"]["count"] == 2
    assert list(out["disciplines"]) == ["chinese_eight", "wpa_nine"]
    assert out["disciplines"]["wpa_nine"]["matches"]["played"] == 2
    assert tally.stats_json({})["total"]["matches"] == {"played": 0, "won": 0, "entered": 0}


def test_a_tally_from_a_later_version_merges_without_loss() -> None:
    future = {**tally.empty(), "jump_shots": 3}
    assert tally.total([future, future])["jump_shots"] == 6

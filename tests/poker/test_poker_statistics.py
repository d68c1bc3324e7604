"""The shared poker round statistics: exact grouped counts and the joint rows of a play mask, against plain loops."""
import random
from fractions import Fraction

import numpy as np
import pytest

from analyzer.poker import statistics
from analyzer.poker.settlement import Paytable
from analyzer.poker.statistics import (COMPONENTS, PlayStatistics, grouped_counts, joint_classes, masked_counts,
                                       round_outcomes, with_side_bet)
from cython_ext import group_sums

PAYS = Paytable(Fraction(2), tuple(Fraction(c + 1) for c in range(10)), tuple(Fraction(c + 1) for c in range(10)),
                (Fraction(0),) * 10, tuple(Fraction(1, 2) * c for c in range(10)))


def plain_grouped(counts, weights, groups, n_groups, mask):
    """(weight x counts by group where mask holds, weight by group elsewhere), in Python integers, row by row."""
    out, rest = np.zeros((n_groups,) + counts.shape[1:], dtype=object), np.zeros(n_groups, dtype=object)
    for i in range(len(weights)):
        if mask[i]:
            out[groups[i]] = out[groups[i]] + int(weights[i]) * counts[i].astype(object)
        else:
            rest[groups[i]] += int(weights[i])
    return out, rest


def agree(got, plain, dtype=np.int64):
    return all(g.dtype == dtype and g.shape == p.shape and (g.astype(object) == p).all() for g, p in zip(got, plain))


@pytest.mark.parametrize("shape", [(300, 4), (300, 10, 4), (70_000, 3, 4)])
def test_grouped_counts_equal_a_plain_loop(shape):
    rng = np.random.default_rng(3)
    counts = rng.integers(0, 1000, size=shape).astype(np.uint32)
    weights = rng.integers(0, 25, size=shape[0])
    groups = rng.integers(0, 7, size=shape[0])
    mask = rng.random(shape[0]) < 0.6
    assert agree(grouped_counts(counts, weights, groups, 7, mask), plain_grouped(counts, weights, groups, 7, mask))


COUNT_DTYPES = [np.uint8, np.uint16, np.uint32, np.int32, np.int64, np.uint64]


@pytest.mark.parametrize("count_dtype", COUNT_DTYPES)
@pytest.mark.parametrize("weight_dtype", [np.uint8, np.int16, np.int64])
@pytest.mark.parametrize("group_dtype", [np.uint8, np.int32, np.int64])
def test_the_kernel_path_equals_a_plain_loop_for_every_dtype(count_dtype, weight_dtype, group_dtype):
    """Every dtype the kernel reads as it is, and those copied to int64 first, give the plain sums."""
    rng = np.random.default_rng(11)
    for m, cells in [(0, 4), (1, 4), (257, 1), (500, 4), (200, 40)]:
        counts = rng.integers(0, 200, size=(m, cells)).astype(count_dtype)
        weights = rng.integers(0, 25, size=m).astype(weight_dtype)
        groups = rng.integers(0, 5, size=m).astype(group_dtype)
        for mask in (rng.random(m) < 0.4, None):
            plain = plain_grouped(counts, weights, groups, 5, np.ones(m, dtype=bool) if mask is None else mask)
            assert agree(grouped_counts(counts, weights, groups, 5, mask), plain)


@pytest.mark.parametrize("cells", range(10))
def test_the_column_blocks_equal_a_plain_loop_for_runs_of_one_group(cells):
    """Narrow rows are summed a block of 4 columns at a time, each run of one group in locals: every width
    (a last block of 0 to 4 columns, wide rows row by row), long runs, runs of one row, one run, no rows."""
    rng = np.random.default_rng(25)
    for m in (0, 1, 2, 5, 1000):
        counts = rng.integers(0, 2**31, size=(cells, m)).astype(np.uint32).T     # column-major, as the Stud table
        weights = rng.integers(0, 25, size=m).astype(np.uint8)
        for groups in (np.sort(rng.integers(0, 6, size=m)), rng.integers(0, 6, size=m), np.full(m, 5)):
            for dtype in (np.uint8, np.int64):
                for mask in (None, rng.random(m) < 0.5, np.zeros(m, dtype=bool), np.ones(m, dtype=bool)):
                    plain = plain_grouped(counts, weights, groups, 6, np.ones(m, dtype=bool) if mask is None else mask)
                    assert agree(grouped_counts(counts, weights, groups.astype(dtype), 6, mask), plain)


def test_the_kernel_path_reads_a_transposed_table_and_stays_exact_near_the_int64_bound():
    """Caribbean Stud's counts are a (m, 4) view of a (4, m) array; sums near 2**63 stay in int64 and exact."""
    rng = np.random.default_rng(12)
    by_outcome = rng.integers(0, 2**32, size=(4, 300), dtype=np.uint64).astype(np.uint32)
    counts, weights = by_outcome.T, rng.integers(0, 256, size=300).astype(np.uint8)
    groups, mask = rng.integers(0, 3, size=300).astype(np.uint8), rng.random(300) < 0.5
    assert agree(grouped_counts(counts, weights, groups, 3, mask), plain_grouped(counts, weights, groups, 3, mask))
    mask = np.array([True, True, False])
    big = np.full((3, 1), 2**60, dtype=np.int64)               # bound 3 x 2**60 x 3 > int64: Python integers
    plain = plain_grouped(big, np.array([3, 1, 2]), np.array([0, 0, 0]), 1, mask)
    assert agree(grouped_counts(big, np.array([3, 1, 2]), np.array([0, 0, 0]), 1, mask), plain, object)
    assert plain[0].tolist() == [[4 * 2**60]] and plain[1].tolist() == [2]
    fits = np.full((3, 1), 2**59, dtype=np.int64)              # bound 3 x 2**59 x 3 < 2**63: int64, exact
    plain = plain_grouped(fits, np.array([3, 1, 2]), np.array([0, 0, 0]), 1, mask)
    assert agree(grouped_counts(fits, np.array([3, 1, 2]), np.array([0, 0, 0]), 1, mask), plain)
    heavy = np.full(3, 2**62, dtype=np.int64)                  # zero counts, weights summing past int64 outside
    plain = plain_grouped(np.zeros((3, 1), dtype=np.int64), heavy, np.array([0, 0, 0]), 1, ~mask)
    assert agree(grouped_counts(np.zeros((3, 1), dtype=np.int64), heavy, np.array([0, 0, 0]), 1, ~mask), plain,
                 object)


def test_grouped_counts_refuse_negative_values_and_groups_out_of_range():
    with pytest.raises(ValueError, match="non-negative"):
        grouped_counts(np.array([[1], [-1]]), np.array([1, 1]), np.array([0, 0]), 1)
    with pytest.raises(ValueError, match="non-negative"):
        grouped_counts(np.array([[1], [1]]), np.array([1, -1]), np.array([0, 0]), 1)
    for groups in (np.array([0, 2]), np.array([0, -1]), np.array([0, 2], dtype=np.uint8), np.array([-1, -1]),
                   np.array([2, 0]), np.array([-1, 0])):
        for cells in (1, 6, 9):                       # blocks of columns (the bad row first, or starting a run), rows
            with pytest.raises(ValueError, match="outside"):
                grouped_counts(np.ones((2, cells), dtype=np.uint32), np.array([1, 1]), groups, 2)


@pytest.mark.parametrize("shape", [(2000, 4), (500, 10, 4)])
def test_masked_counts_from_a_near_mask_equal_a_plain_loop(shape, monkeypatch):
    """Masks summed from the nearest one already summed (rows moved out, then in), or reused, or afresh."""
    afresh = []
    monkeypatch.setattr(statistics, "grouped_counts", lambda *a: afresh.append(1) or grouped_counts(*a))
    rng = np.random.default_rng(14)
    m = shape[0]
    counts = rng.integers(0, 2**20, size=shape).astype(np.uint32)
    weights, groups = rng.integers(0, 25, size=m).astype(np.uint8), rng.integers(0, 6, size=m).astype(np.uint8)
    first = rng.random(m) < 0.5
    near = first.copy()
    near[rng.choice(m, m // 10, replace=False)] ^= True               # 10% of the rows differ: moved
    nearer = near.copy()
    nearer[rng.choice(m, 3, replace=False)] ^= True
    summed = []
    for mask in (first, near, nearer, near.copy(), ~first, np.ones(m, dtype=bool), np.zeros(m, dtype=bool)):
        got = masked_counts(counts, weights, groups, 6, mask, summed)
        assert agree(got, plain_grouped(counts, weights, groups, 6, mask))
    assert len(summed) == 6 and len(afresh) == 4                        # near ones moved, the repeated one reused
    assert masked_counts(counts, weights, groups, 6, near, summed)[0] is summed[1][1]


@pytest.mark.parametrize("big", [False, True], ids=["int64", "python-ints"])
def test_played_counts_summed_over_side_classes_equal_the_plain_weighted_rows(big):
    rng = np.random.default_rng(21)
    counts = rng.integers(0, 1_070_190, (7_000, 10, 4)).astype(np.uint32)
    weights = rng.integers(1, 25, 7_000)
    if big:
        weights = weights.astype(object) * 2**50                        # no int64 bound holds these sums
    side, play = rng.integers(0, 5, 7_000), rng.random(7_000) < 0.5
    played, folded = statistics.played_counts(weights, counts, play, 10, side=side, n_side=5, cache={})
    expected = (counts[play].astype(object) * weights[play, None, None].astype(object)).sum(axis=0)
    assert (played.sum(axis=0) == expected).all()
    assert sum(int(x) for x in folded) == sum(int(w) for w in weights[~play])
    assert played.dtype == (object if big else np.int64)


def test_the_cache_is_keyed_by_the_side_classes_themselves():
    """Equal classes (another array) reuse the groups and sums; classes differing in one row, or changed in
    place since, or other categories, never do: every lookup compares the kept copies in full."""
    rng = np.random.default_rng(22)
    m = 3_000
    counts = rng.integers(0, 50, size=(m, 4)).astype(np.uint32)
    weights, play = rng.integers(1, 25, size=m).astype(np.uint8), rng.random(m) < 0.5
    category = rng.integers(0, 10, size=m).astype(np.uint8)
    side = category.copy()
    cache = {}

    def check(side, category, n_side=10):
        got = statistics.played_counts(weights, counts, play, 10, category=category, side=side, n_side=n_side,
                                       cache=cache)
        groups = side.astype(np.int64) * 10 + category
        plain = plain_grouped(counts, weights, groups, n_side * 10, play)
        assert (got[0].reshape(n_side * 10, 4) == plain[0]).all()
        assert (got[1] == plain[1].reshape(n_side, 10).sum(axis=1)).all()

    check(side, category)                           # one entry: the side classes are the categories' values
    check(category, category)                       # the same values, the categories' own array: reused
    check(side.astype(np.int64), category)          # the same values in another dtype: reused
    check(np.repeat(side, 2)[::2], category[::-1][::-1])    # ... and in arrays that are not contiguous
    assert len(cache["round_outcomes"]) == 1
    other = side.copy()
    other[1234] = (other[1234] + 1) % 10
    check(other, category)                          # one row differs: a new entry
    side[17] = (side[17] + 3) % 10                  # changed in place after it was kept
    check(side, category)
    shifted = category.copy()
    shifted[5] = (shifted[5] + 1) % 10
    check(other, shifted)                           # the same side classes, other categories
    check(other, category, n_side=12)               # another number of side classes
    assert len(cache["round_outcomes"]) == 5
    check(category, category)
    assert len(cache["round_outcomes"]) == 5
    with pytest.raises(ValueError, match="side class"):
        check(np.full(m, 10), category)
    with pytest.raises(ValueError, match="category"):
        check(side, np.full(m, 300))                # never wrapped into range by a cast


def test_read_only_classes_are_found_by_identity_and_any_other_array_is_compared(monkeypatch):
    """The very read-only arrays the groups were made of need no comparison; the same values in a writable
    array, or in a read-only view of one, are compared row by row as before."""
    rng = np.random.default_rng(24)
    category = rng.integers(0, 10, size=2_000).astype(np.uint8)
    category.flags.writeable = False
    compared = []
    joint = statistics.group_sums.are_joint_classes
    monkeypatch.setattr(statistics.group_sums, "are_joint_classes", lambda *a: compared.append(1) or joint(*a))
    entry = statistics.SideClasses.of(category, 10, category, 10)
    assert entry.made_of == (category, category)
    assert entry.holds(category, 10, category, 10) and compared == []
    writable = category.copy()
    assert entry.holds(writable, 10, writable, 10) and len(compared) == 1
    view = writable[:]
    view.flags.writeable = False                    # read-only, but its base can still change
    assert not statistics.unchangeable(view) and entry.holds(view, 10, view, 10) and len(compared) == 2
    assert statistics.SideClasses.of(writable, 10, writable, 10).made_of == ()
    writable[0] = (writable[0] + 1) % 10
    assert not entry.holds(writable, 10, writable, 10)


def plain_are_joint_classes(groups, side, n_side, category, n_categories):
    """The reference: the same length, every class in range, and groups equal to the formula in Python integers."""
    if not len(groups) == len(side) == len(category):
        return False
    return all(0 <= int(s) < n_side and 0 <= int(c) < n_categories and int(g) == int(s) * n_categories + int(c)
               for g, s, c in zip(groups, side, category))


def test_are_joint_classes_equals_the_plain_check():
    rng = np.random.default_rng(23)
    for m in (0, 1, 2, 500):
        for n_side, n_categories in ((10, 10), (3, 10), (25, 10), (40, 10)):
            side = rng.integers(0, n_side, size=m)
            category = rng.integers(0, n_categories, size=m)
            groups = joint_classes(side, n_side, category, n_categories)
            variants = [(side, category)]
            if m:
                i = int(rng.integers(m))
                for change in ((i, 1, 0), (i, 0, 1), (i, -side[i] - 1, 0), (i, 0, n_categories),
                               (i, 1, -n_categories), (i, -1, n_categories)):   # off, out of range, same group
                    other_side, other_category = side.copy(), category.copy()
                    other_side[change[0]] += change[1]
                    other_category[change[0]] += change[2]
                    variants.append((other_side, other_category))
            variants.append((side[:-1], category[:-1]) if m else (np.zeros(1, np.int64), np.zeros(1, np.int64)))
            for s, c in variants:
                for s_dtype, c_dtype in ((np.int64, np.int64), (np.uint8, np.uint8), (np.uint8, np.int64),
                                         (np.int64, np.uint8)):
                    if (s_dtype == np.uint8 and len(s) and s.min() < 0) or (c_dtype == np.uint8 and len(c)
                                                                           and c.min() < 0):
                        continue
                    expected = plain_are_joint_classes(groups, s, n_side, c, n_categories)
                    assert group_sums.are_joint_classes(groups, s.astype(s_dtype), n_side, c.astype(c_dtype),
                                                        n_categories) == expected
            assert group_sums.are_joint_classes(groups, side, n_side, category, n_categories)
    category = np.arange(256).astype(np.uint8)                      # 8-bit groups, up to 300 categories
    for n_categories in (300, 256, 255):
        got = group_sums.are_joint_classes(category, np.zeros(256, np.uint8), 1, category, n_categories)
        assert got == plain_are_joint_classes(category, np.zeros(256), 1, category, n_categories)
        assert got == (n_categories > 255)


def test_masked_counts_in_python_integers_are_made_afresh():
    counts = np.full((3, 1), 2**60, dtype=np.int64)                    # beyond the int64 bound
    weights, groups = np.array([3, 1, 2]), np.array([0, 1, 0])
    summed = []
    for mask in (np.array([True, True, False]), np.array([True, True, True])):
        got = masked_counts(counts, weights, groups, 2, mask, summed)
        assert agree(got, plain_grouped(counts, weights, groups, 2, mask), object)
    assert masked_counts(counts, weights, groups, 2, np.array([True, False, False]))[0].tolist() == [[3 * 2**60], [0]]


def test_moving_the_changed_rows_equals_summing_afresh():
    """Sums of one packed mask turned into another's by the kernel equal the plain sums of the other, for
    masks of every length mod 8 (the last byte's padding), none or every row changed, empty tables."""
    rng = np.random.default_rng(24)
    for m in (0, 1, 7, 8, 9, 64, 1001, 4099):
        counts = rng.integers(0, 2**20, size=(m, 4)).astype(np.uint32)
        weights, groups = rng.integers(0, 25, size=m).astype(np.uint8), rng.integers(0, 6, size=m).astype(np.uint8)
        was = rng.random(m) < 0.5
        sparse = was.copy()
        sparse[rng.integers(0, m, 3 if m else 0)] ^= True        # a few rows: most words of 64 unchanged
        if m:
            sparse[-1] ^= True                                   # ... and the last row, in the last byte
        for now in (was.copy(), ~was, rng.random(m) < 0.5, sparse, np.ones(m, dtype=bool), np.zeros(m, dtype=bool)):
            inside, outside = grouped_counts(counts, weights, groups, 6, was)
            moved = group_sums.move_changed_rows(counts, weights, groups, np.packbits(was), np.packbits(now),
                                                 inside, outside)
            assert moved == int((was != now).sum())
            assert agree((inside, outside), plain_grouped(counts, weights, groups, 6, now))
            assert group_sums.differing_bits(np.packbits(was), np.packbits(now)) == moved == int(
                np.bitwise_count(np.packbits(was) ^ np.packbits(now)).sum())


def test_moving_rows_refuses_masks_and_groups_out_of_range():
    counts, weights, groups = np.ones((3, 2), dtype=np.uint32), np.ones(3, dtype=np.uint8), np.zeros(3, dtype=np.uint8)
    out, rest = np.zeros((1, 2), dtype=np.int64), np.zeros(1, dtype=np.int64)
    none, last = np.packbits([0, 0, 0]), np.packbits([0, 0, 1])
    with pytest.raises(ValueError, match="one bit per row"):
        group_sums.move_changed_rows(counts, weights, groups, np.packbits([0] * 9), np.packbits([1] * 9), out, rest)
    with pytest.raises(ValueError, match="past the last"):
        group_sums.move_changed_rows(counts, weights, groups, none, np.array([0b00010000], dtype=np.uint8), out,
                                     rest)
    with pytest.raises(ValueError, match="outside"):
        group_sums.move_changed_rows(counts, weights, np.array([0, 0, 1], dtype=np.uint8), none, last, out, rest)
    with pytest.raises(ValueError, match="bytes"):
        group_sums.differing_bits(none, np.packbits([0] * 9))


def test_the_kernel_refuses_mismatched_shapes():
    out = np.zeros((2, 2), dtype=np.int64)
    counts = np.ones((3, 2), dtype=np.uint32)
    with pytest.raises(ValueError, match="one length"):
        group_sums.add_weighted_rows(counts, np.ones(2, dtype=np.uint8), np.zeros(3, dtype=np.uint8), None, out)
    with pytest.raises(ValueError, match="counts per row"):
        group_sums.add_weighted_rows(counts, np.ones(3, dtype=np.uint8), np.zeros(3, dtype=np.uint8), None,
                                     np.zeros((2, 3), dtype=np.int64))


def test_joint_classes_equal_the_int64_formula_and_refuse_classes_out_of_range():
    rng = np.random.default_rng(13)
    for n_side, dtype in [(10, np.uint8), (25, np.uint8), (26, np.int64), (40, np.int64)]:
        side = rng.integers(0, n_side, size=1000).astype(np.uint8)
        category = rng.integers(0, 10, size=1000).astype(np.uint8)
        got = joint_classes(side, n_side, category, 10)
        assert got.dtype == dtype
        assert (got == side.astype(np.int64) * 10 + category.astype(np.int64)).all()
    assert joint_classes(np.zeros(0, dtype=np.uint8), 3, np.zeros(0, dtype=np.uint8), 10).tolist() == []
    with pytest.raises(ValueError, match="side class"):
        joint_classes(np.array([3], dtype=np.uint8), 3, np.array([0], dtype=np.uint8), 10)
    with pytest.raises(ValueError, match="category"):
        joint_classes(np.array([0]), 3, np.array([-1]), 10)


def test_grouped_counts_beyond_int64_are_python_integers():
    counts = np.array([[2**40, 1], [2**40, 3]], dtype=object)
    weights = np.array([2**30, 2**30], dtype=object)
    got, rest = grouped_counts(counts, weights, np.array([0, 0]), 1)
    assert got.dtype == object and got.tolist() == [[2**71, 4 * 2**30]] and rest.tolist() == [0]


def fake_table(rng, m, fixed_category):
    weights = rng.integers(1, 5, size=m)
    if fixed_category:
        counts = rng.integers(0, 6, size=(m, 4))
        counts[:, 3] += 24 - counts.sum(axis=1)           # every class counts 24 continuations
        return weights, counts, rng.integers(0, 10, size=m)
    counts = np.zeros((m, 10, 4), dtype=np.int64)
    for i in range(m):
        for _ in range(24):
            counts[i, rng.integers(10), rng.integers(4)] += 1
    return weights, counts, None


@pytest.mark.parametrize("fixed_category", [True, False])
def test_round_outcomes_equal_settling_every_continuation(fixed_category):
    """Rows against a plain loop that settles every continuation of every class under the mask."""
    rng = np.random.default_rng(5)
    weights, counts, category = fake_table(rng, 40, fixed_category)
    play = rng.random(40) < 0.7
    side = rng.integers(0, 3, size=40)
    rows = round_outcomes(weights, counts, 24, play, PAYS, category=category, side=side, n_side=3)
    plain = {}
    for i in range(40):
        if not play[i]:
            key = (Fraction(-1), Fraction(1), Fraction(0), Fraction(int(side[i])))
            plain[key] = plain.get(key, 0) + int(weights[i]) * 24
            continue
        cells = ([(int(category[i]), o, counts[i, o]) for o in range(4)] if fixed_category else
                 [(c, o, counts[i, c, o]) for c in range(10) for o in range(4)])
        for c, o, n in cells:
            key = (PAYS.net(c, o), Fraction(3), Fraction(1), Fraction(int(side[i])))
            plain[key] = plain.get(key, 0) + int(weights[i]) * int(n)
    assert rows.names == COMPONENTS
    assert dict(rows.rows) == {k: v for k, v in plain.items() if v}
    assert rows.total == int(weights.sum()) * 24


def test_cache_returns_the_same_rows_and_side_bet_combines():
    rng = np.random.default_rng(8)
    weights, counts, category = fake_table(rng, 30, True)
    play, side = rng.random(30) < 0.5, category
    cache = {}
    first = round_outcomes(weights, counts, 24, play, PAYS, category=category, side=side, n_side=10, cache=cache)
    assert len(cache) == 1
    assert round_outcomes(weights, counts, 24, play, PAYS, category=category, side=side, n_side=10,
                          cache=cache) == first
    nets = [Fraction(random.Random(c).randrange(-1, 30)) for c in range(10)]
    joint = with_side_bet(first, "side_bet", lambda c, played: nets[c] if played else Fraction(-1))
    stats = PlayStatistics.of(joint, "side_bet", Fraction(1, 2))
    assert stats.combined.mean == stats.main.mean + Fraction(1, 2) * stats.side.mean
    assert stats.combined.variance == (stats.main.variance + Fraction(1, 4) * stats.side.variance
                                       + stats.covariance)
    assert stats.combined.mean_wagered == stats.main.mean_wagered + Fraction(1, 2)


@pytest.mark.parametrize("big", [False, True], ids=["int64", "python-ints"])
def test_decision_table_figures_with_the_weight_bound_found_once_equal_plain_sums(big):
    from analyzer.poker.decision_table import DecisionTable
    rng = np.random.default_rng(5)
    weights = rng.integers(0, 2**62 if big else 25, 1000, dtype=np.int64)     # big: sums beyond int64
    ev_play = rng.integers(-30, 30, 1000, dtype=np.int64)
    table = DecisionTable(weights, ev_play, 10, Fraction(2))
    for play in (rng.random(1000) < 0.5, np.ones(1000, dtype=bool), np.zeros(1000, dtype=bool)):
        f = table.figures("x", "", play)
        w, e = [int(x) for x in weights], [int(x) for x in ev_play]
        played = sum(wi for wi, p in zip(w, play) if p)
        ev = sum(wi * (ei if p else -10) for wi, ei, p in zip(w, e, play))
        assert f.p_play == Fraction(played, sum(w)) and f.ev == Fraction(ev, sum(w) * 10)
    assert table.weight_bound == int(weights.max())

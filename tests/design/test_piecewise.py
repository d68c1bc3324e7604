"""Exact paytable design: breakpoints, pieces and solutions against brute-force repricing."""
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.design.piecewise import FOLD, FREE, PLAY, PayoutModel, _exact_order

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def instances(draw, values=st.integers(-6, 6) | st.integers(-2, 2), weights=st.integers(1, 5), with_fixed=True):
    m = draw(st.integers(1, 7))
    column = lambda elements: draw(st.lists(elements, min_size=m, max_size=m))
    w, f, a, b = column(weights), column(values), column(values), column(values)
    fixed = draw(st.one_of(st.none(), st.lists(st.sampled_from([FREE, FREE, FOLD, PLAY]), min_size=m, max_size=m))
                 ) if with_fixed else None
    denominator = draw(st.integers(1, 4))
    wager = draw(st.sampled_from([0, 1, 2, Fraction(1, 2)]))
    tie = draw(st.sampled_from(["fold", "play"]))
    lo = Fraction(draw(st.integers(-12, 6)), draw(st.integers(1, 3)))
    hi = lo + Fraction(draw(st.integers(0, 30)), draw(st.integers(1, 3)))
    model = PayoutModel(np.array(w), np.array(f), np.array(a), np.array(b), denominator,
                        None if fixed is None else np.array(fixed), wager=wager, tie=tie)
    return model, lo, hi


def switch_points(model):
    """Brute force: theta -> [(class, direction)] for every free class with b != 0."""
    points = {}
    for i, (f, a, b, fixed) in enumerate(zip(model.f.tolist(), model.a.tolist(), model.b.tolist(),
                                             model.fixed.tolist())):
        if fixed == FREE and b != 0:
            points.setdefault(Fraction(f - a, b), []).append((i, 1 if b > 0 else -1))
    return points


def gap_below(points, theta, floor):
    """A step smaller than the distance from theta to any other switch point."""
    others = [abs(t - theta) for t in points if t != theta]
    return min(others + [floor]) / 4


def grid(lo, hi, parts=24):
    return [lo + (hi - lo) * Fraction(k, parts) for k in range(parts + 1)]


def figure(point, kind):
    return {"rtp": point.rtp, "house_edge": point.house_edge, "ev": point.ev}[kind]


def assert_disjoint(solutions):
    """Solutions come sorted and never overlap or repeat."""
    for before, after in zip(solutions, solutions[1:]):
        assert before.end < after.start or (before.end == after.start and not (before.end_included and after.start_included))


def covered(solutions, theta):
    for s in solutions:
        if s.start < theta < s.end or (theta == s.start and s.start_included) or (theta == s.end and s.end_included):
            return True
    return False


# --- breakpoints and pieces ------------------------------------------------------------------

@SETTINGS
@given(instances())
def test_breakpoints_are_the_kinks_of_a_brute_force_repricing(case):
    model, lo, hi = case
    points = switch_points(model)
    found = model.breakpoints(lo, hi)
    assert found.thetas() == sorted(t for t in points if lo <= t <= hi)
    W, D = model.W, model.D
    for bp in found:
        members = points[bp.theta]
        ups = [i for i, d in members if d > 0]
        downs = [i for i, d in members if d < 0]
        assert (bp.classes_to_play, bp.classes_to_fold) == (len(ups), len(downs))
        assert bp.weight_to_play == sum(int(model.w[i]) for i in ups)
        assert bp.weight_to_fold == sum(int(model.w[i]) for i in downs)
        # repricing either side: a kink whose slope change is exactly the switching classes' w|b|
        step = gap_below(points, bp.theta, Fraction(1))
        left, here, right = (model.reference_point(bp.theta + k * step).ev for k in (-1, 0, 1))
        kink = (right - here) / step - (here - left) / step
        assert kink == Fraction(sum(int(model.w[i]) * abs(int(model.b[i])) for i, _ in members), W * D)
        assert kink > 0


@SETTINGS
@given(instances())
def test_each_piece_is_linear_and_matches_repricing(case):
    model, lo, hi = case
    pieces = model.pieces(lo, hi)
    assert pieces.theta(0) == lo and pieces.theta(len(pieces.num) - 1) == hi
    for piece in pieces:
        start, end = piece.start, piece.end
        middle = (start + end) / 2
        values = [model.reference_point(t).ev for t in (start, middle, end)]
        # three collinear points of a convex function: linear on the whole piece
        assert values[1] - values[0] == values[2] - values[1]
        assert [piece.ev(t) for t in (start, middle, end)] == values
        inside = model.reference_point(middle)
        assert piece.p_play == inside.p_play and piece.rtp(middle) == inside.rtp
        quarter = model.reference_point((3 * start + end) / 4)
        assert piece.rtp((3 * start + end) / 4) == quarter.rtp
    for i in range(len(pieces.num)):
        assert pieces.point(i) == model.reference_point(pieces.theta(i)) == model.point(pieces.theta(i))
    for theta in grid(lo, hi, 7):
        assert pieces.at(theta) == model.reference_point(theta)


@SETTINGS
@given(instances(with_fixed=False))
def test_machine_and_python_integer_paths_agree(case):
    model, lo, hi = case
    slow = PayoutModel(model.w, model.f, model.a, model.b, model.D, wager=model.wager, tie=model.tie,
                       python_ints=True)
    assert slow.w.dtype == object and model.w.dtype == np.int64
    assert list(slow.breakpoints(lo, hi)) == list(model.breakpoints(lo, hi))
    assert list(slow.pieces(lo, hi)) == list(model.pieces(lo, hi))
    target = model.point((lo + hi) / 2).rtp
    assert slow.solve(target, "rtp", lo, hi) == model.solve(target, "rtp", lo, hi)


# --- solving ---------------------------------------------------------------------------------

@SETTINGS
@given(instances(), st.sampled_from(["rtp", "house_edge", "ev"]), st.integers(0, 24))
def test_solve_finds_exactly_the_thetas_a_scan_finds(case, kind, k):
    model, lo, hi = case
    scan = grid(lo, hi)
    target = figure(model.reference_point(scan[k]), kind)
    solution = model.solve(target, kind, lo, hi)
    assert solution.reachable
    assert_disjoint(solution.solutions)
    for theta in scan:                              # the scan and the solutions agree everywhere
        assert covered(solution.solutions, theta) == (figure(model.reference_point(theta), kind) == target)
    for s in solution.solutions:                    # and every solution reprices to the target
        assert lo <= s.start <= s.end <= hi
        probes = [s.start] if s.is_point else [(s.start + s.end) / 2] + \
            [t for t, kept in ((s.start, s.start_included), (s.end, s.end_included)) if kept]
        assert all(figure(model.reference_point(t), kind) == target for t in probes)
    assert solution.at_lo == figure(model.reference_point(lo), kind)
    assert solution.at_hi == figure(model.reference_point(hi), kind)


@SETTINGS
@given(instances(), st.sampled_from(["rtp", "house_edge"]))
def test_unreachable_target_reports_the_range(case, kind):
    model, lo, hi = case
    scan = [figure(model.reference_point(t), kind) for t in grid(lo, hi)]
    solution = model.solve(max(scan) + 1, kind, lo, hi)
    assert not solution.reachable and "unreachable" in solution.describe()
    assert solution.lowest <= min(scan) and solution.highest >= max(scan)
    assert solution.highest < max(scan) + 1
    if kind == "house_edge":                        # -EV is concave and continuous: extremes are attained
        assert solution.lowest == min(solution.at_lo, solution.at_hi)
        assert solution.highest in scan or any(model.solve(solution.highest, kind, lo, hi).solutions)
    with pytest.raises(ValueError):
        solution.theta


@SETTINGS
@given(instances(), st.sampled_from(["rtp", "house_edge", "ev"]), st.integers(0, 40), st.booleans())
def test_reach_doubles_the_range_until_it_holds_the_target(case, kind, k, limited):
    model, lo, hi = case
    hi = max(hi, lo + 1, Fraction(1))
    probe = lo + (hi - lo) * Fraction(k, 4)                    # up to ten times the range
    target = figure(model.reference_point(probe), kind)
    limit = 4 * hi if limited else None
    reached = model.reach(target, kind, lo, hi, limit)
    if limit is None or probe <= limit:
        assert reached is not None
    if reached is None:
        assert not model.solve(target, kind, lo, limit).reachable
        return
    assert model.solve(target, kind, lo, reached).reachable
    assert reached == hi or reached == limit or not model.solve(target, kind, lo, reached / 2).reachable
    assert reached == limit or (reached / hi).denominator == 1 and (reached / hi).numerator.bit_count() == 1


def test_reach_follows_the_line_beyond_the_last_breakpoint():
    # class 0 starts to play at theta = 3, class 1 always gains 4: beyond 3 the EV is theta - 1, 47 at 48
    model = PayoutModel([1, 1], [0, 4], [-6, 4], [2, 0], 1)
    assert model.reach(Fraction(47), "ev", 0, 1) == 64 and model.solve(47, "ev", 0, 64).theta == 48
    assert model.reach(Fraction(47), "ev", 0, 1, limit=40) is None
    assert model.reach(Fraction(1), "ev", 0, 1) is None                   # EV >= 2 everywhere
    flat = PayoutModel([1], [0], [5], [0], 1, fixed="play")
    assert flat.reach(5, "ev", 0, 1) == 1 and flat.reach(4, "ev", 0, 1) is None


def test_forced_strategy_is_linear_with_one_solution():
    rng = np.random.default_rng(7)
    m = 50
    w, f, a = rng.integers(1, 25, m), rng.integers(-40, 0, m), rng.integers(-60, 20, m)
    b = rng.integers(-3, 9, m)
    b[0] = 5                                        # sum w b != 0
    model = PayoutModel(w, f, a, b, 7, fixed="play", wager=2)
    assert len(model.breakpoints(-100, 100)) == 0 and len(model.pieces(-100, 100)) == 1
    W, A, B = int(w.sum()), int((w * a).sum()), int((w * b).sum())
    assert B != 0
    target = Fraction(-3, 100)                      # EV
    expected = (target * W * 7 - A) / B
    solution = model.solve(target, "ev", -10**6, 10**6)
    assert solution.theta == expected and model.reference_point(expected).ev == target
    house_edge = model.solve(-target, "house_edge", -10**6, 10**6)
    assert house_edge.theta == expected
    rtp = model.solve(1 + target / 3, "rtp", -10**6, 10**6)    # P(play) = 1, s = 2
    assert rtp.theta == expected
    # a mask: the same classes fixed per a given strategy are linear too
    mask = rng.random(m) < 0.5
    masked = PayoutModel(w, f, a, b, 7, fixed=np.where(mask, PLAY, FOLD))
    assert len(masked.pieces(-50, 50)) == 1
    for theta in (Fraction(-50), Fraction(3, 7), Fraction(50)):
        assert masked.point(theta) == masked.reference_point(theta)


def test_rtp_jump_over_the_target_is_reported():
    # class 0 switches at theta = 2 (fold below, play above); class 1 always plays and loses
    model = PayoutModel([1, 1], [-1, 0], [-3, -1], [1, 0], 1, [FREE, PLAY], wager=2)
    left, value, right = (model.reference_point(t) for t in (Fraction(2) - Fraction(1, 10**9), 2,
                                                                Fraction(2) + Fraction(1, 10**9)))
    pieces = model.pieces(0, 4)
    left_limit, right_limit = pieces[0].rtp(2), pieces[1].rtp(2)
    assert left_limit != right_limit                # with s > 0 the RTP jumps where P(play) does
    target = (left_limit + right_limit) / 2
    assert min(left_limit, right_limit) < target < max(left_limit, right_limit)
    assert (left_limit, value.rtp, right_limit) == (Fraction(1, 2), Fraction(1, 2), Fraction(2, 3))
    solution = model.solve(target, "rtp", 0, 4)
    assert not solution.reachable
    assert [j.theta for j in solution.jumps] == [2]
    assert (solution.jumps[0].left, solution.jumps[0].value, solution.jumps[0].right) == \
        (left_limit, value.rtp, right_limit)
    assert "jumps over the target at theta = 2" in solution.describe()
    assert model.solve(Fraction(1, 2), "rtp", 0, 4).solutions[0].end == 2     # the value at 2 itself is reached
    assert left.p_play == Fraction(1, 2) and right.p_play == 1 and value.p_play == Fraction(1, 2)


@pytest.mark.parametrize("tie", ["fold", "play"])
def test_always_indifferent_classes_follow_the_tie_rule(tie):
    # class 1 (b = 0, a = f) is indifferent at every theta; class 0 switches at theta = 1
    model = PayoutModel([1, 3], [-2, -1], [-3, -1], [1, 0], 1, wager=2, tie=tie)
    pieces = model.pieces(0, 2)
    plays = 3 if tie == "play" else 0
    assert [piece.p_play for piece in pieces] == [Fraction(plays, 4), Fraction(plays + 1, 4)]
    assert pieces.point(1).p_play == Fraction(plays + (tie == "play"), 4)
    for theta in (0, Fraction(1, 2), 1, Fraction(3, 2), 2):
        assert pieces.at(theta) == model.reference_point(theta)


def test_flat_stretch_comes_back_as_an_interval():
    # EV is constant until class 0 starts to play at theta = 3
    model = PayoutModel([2, 1], [-1, -2], [-7, -2], [2, 0], 1)
    solution = model.solve(model.reference_point(0).ev, "ev", 0, 10)
    assert len(solution.solutions) == 1
    stretch = solution.solutions[0]
    assert (stretch.start, stretch.end, stretch.start_included, stretch.end_included) == (0, 3, True, True)


def test_printable_neighbours():
    model = PayoutModel([3, 1, 2], [-4, -4, -4], [-9, -1, -20], [2, 1, 5], 4, wager=2)
    around = model.printable_neighbours(Fraction(7, 3))
    assert (around.below.theta, around.above.theta) == (2, 3)
    halves = model.printable_neighbours(Fraction(7, 3), "1/2")
    assert (halves.below.theta, halves.above.theta) == (2, Fraction(5, 2))
    exact = model.printable_neighbours(Fraction(5, 2), Fraction(1, 2))
    assert exact.below == exact.above and exact.below.theta == Fraction(5, 2)
    for point in (around.below, around.above, halves.above):
        assert point == model.reference_point(point.theta)
        assert point.house_edge == -point.ev


# --- exactness past int64 --------------------------------------------------------------------

NEAR = 2**62


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_values_near_2_62_agree_with_python_integers(data):
    m = data.draw(st.integers(1, 6))
    near = st.integers(NEAR - 1000, NEAR + 1000) | st.integers(-NEAR - 1000, -NEAR + 1000) | st.integers(-5, 5)
    column = lambda elements: np.array(data.draw(st.lists(elements, min_size=m, max_size=m)), dtype=np.int64)
    w, f, a, b = column(st.integers(1, 3)), column(near), column(near), column(near)
    fast = PayoutModel(w, f, a, b, 3, wager=2)
    slow = PayoutModel(w, f, a, b, 3, wager=2, python_ints=True)
    assert fast.f.dtype == np.int64
    lo, hi = Fraction(-4), Fraction(4)
    expected = sorted({Fraction(int(x) - int(y), int(z)) for x, y, z in zip(f, a, b) if z != 0 and lo <= Fraction(int(x) - int(y), int(z)) <= hi})
    assert fast.breakpoints(lo, hi).thetas() == expected == slow.breakpoints(lo, hi).thetas()
    assert list(fast.pieces(lo, hi)) == list(slow.pieces(lo, hi))
    for theta in (lo, Fraction(-1, 3), Fraction(0), Fraction(5, 2), hi):
        assert fast.point(theta) == slow.point(theta) == fast.reference_point(theta)
    target = fast.reference_point(Fraction(1, 7)).house_edge
    assert fast.solve(target, "house_edge", lo, hi) == slow.solve(target, "house_edge", lo, hi)
    assert covered(fast.solve(target, "house_edge", lo, hi).solutions, Fraction(1, 7))


@SETTINGS
@given(instances(with_fixed=False), st.sampled_from(["rtp", "house_edge", "ev"]), st.integers(0, 24))
def test_past_the_float_range_every_figure_comes_exactly(case, kind, k):
    # every numerator and the denominator times 10**400: no float holds them, the figures are the same
    model, lo, hi = case
    big = 10**400
    f, a, b = (x.astype(object) * big for x in (model.f, model.a, model.b))
    huge = PayoutModel(model.w, f, a, b, model.D * big, wager=model.wager, tie=model.tie)
    target = figure(model.reference_point(grid(lo, hi)[k]), kind)
    assert huge.solve(target, kind, lo, hi) == model.solve(target, kind, lo, hi)
    assert list(huge.pieces(lo, hi)) == list(model.pieces(lo, hi))


def test_fold_minus_play_overflowing_int64():
    f = np.array([2**62 + 5, -(2**62)], dtype=np.int64)
    a = np.array([-(2**62), 2**62 + 7], dtype=np.int64)      # f - a = 2**63 + 5 and -(2**63 + 7)
    b = np.array([2**62, -(2**62 + 1)], dtype=np.int64)
    model = PayoutModel([1, 1], f, a, b, 1)
    assert model.breakpoints(0, 3).thetas() == sorted([Fraction(2**63 + 5, 2**62), Fraction(2**63 + 7, 2**62 + 1)])


@pytest.mark.parametrize("scale", [2**40, 2**61, 2**70, 10**400], ids=["float", "python-division", "object",
                                                                   "past-floats"])
def test_breakpoints_sharing_a_float_key_are_ordered_exactly(scale):
    # distinct fractions (scale + k) / scale that round to one float key (or none, past the float range),
    # equal ones in other terms, and values far apart: the order and its groups are exact
    rng = np.random.default_rng(3)
    k = rng.permutation(np.arange(-300, 300))
    p = np.array([scale + int(x) for x in k] + [2 * (scale + int(x)) for x in k[:50]] + [3, -3],
                 dtype=np.int64 if scale < 2**62 else object)
    q = np.array([scale] * len(k) + [2 * scale] * 50 + [1, 1], dtype=p.dtype)
    order, new = _exact_order(p, q)
    values = [Fraction(int(p[i]), int(q[i])) for i in order]
    assert values == sorted(values)
    assert new.tolist() == [x != y for x, y in zip(values[:-1], values[1:])]


def test_many_classes_against_fraction_sorting():
    rng = np.random.default_rng(11)
    m = 20_000
    D = 1_070_190
    w = rng.integers(1, 25, m)
    f = np.full(m, -D)
    b = rng.integers(-300, 3000, m)
    a = f - (b * rng.integers(0, 64 * 50, m)) // 64                 # many equal breakpoints
    model = PayoutModel(w, f, a, b, D, wager=2)
    found = model.breakpoints(0, 40)
    counts = Counter(Fraction(int(x - y), int(z)) for x, y, z in zip(f, a, b) if z != 0)
    expected = sorted(t for t in counts if 0 <= t <= 40)
    assert found.thetas() == expected
    assert [bp.classes_to_play + bp.classes_to_fold for bp in found] == [counts[t] for t in expected]
    assert len(found.members) == sum(counts[t] for t in expected)
    pieces = model.pieces(0, 40)
    for j in rng.choice(len(pieces), 5, replace=False):
        middle = (pieces[j].start + pieces[j].end) / 2
        assert pieces[j].ev(middle) == model.point(middle).ev
    target = model.point(Fraction(17, 2)).rtp
    assert covered(model.solve(target, "rtp", 0, 40).solutions, Fraction(17, 2))


def test_bad_input_is_refused():
    with pytest.raises(TypeError):
        PayoutModel([1.0], [0], [0], [1], 1)
    with pytest.raises(ValueError):
        PayoutModel([1], [0], [0], [1], 0)
    with pytest.raises(ValueError):
        PayoutModel([1, 2], [0], [0], [1], 1)
    with pytest.raises(ValueError):
        PayoutModel([0], [0], [0], [1], 1)
    model = PayoutModel([1], [0], [0], [1], 1)
    with pytest.raises(ValueError):
        model.breakpoints(2, 1)
    with pytest.raises(ValueError):
        model.solve(1, "margin", 0, 1)
    with pytest.raises(TypeError):
        model.solve(0.5, "rtp", 0, 1)

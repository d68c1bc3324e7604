"""The poker decision table's EV numerators: the compiled row dot products against plain Python sums."""
import numpy as np
import pytest

from analyzer.core.exact import INT64_MAX
from analyzer.poker.decision_table import play_ev_numerators
from cython_ext import row_dot


def plain_numerators(counts, nets, category=None) -> list[int]:
    """sum over (category, outcome) of count x net per class, in Python integers, cell by cell."""
    nets = np.asarray(nets, dtype=object)
    out = []
    for i, row in enumerate(np.asarray(counts).tolist()):
        if category is None:
            out.append(sum(int(n) * int(x) for r, line in zip(row, nets.tolist()) for n, x in zip(r, line)))
        else:
            out.append(sum(int(n) * int(x) for n, x in zip(row, nets[int(category[i])].tolist())))
    return out


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.int32, np.int64, np.uint64])
@pytest.mark.parametrize("rows", [0, 1, 2, 1_000])
def test_numerators_equal_plain_sums_for_every_count_dtype(dtype, rows):
    rng = np.random.default_rng(rows)
    counts = rng.integers(0, 250, size=(rows, 10, 4)).astype(dtype)
    nets = rng.integers(-500, 500, size=(10, 4)).tolist()
    got = play_ev_numerators(counts, nets)
    assert got.dtype == np.int64 and got.tolist() == plain_numerators(counts, nets)


def test_numerators_past_int64_are_python_integers():
    """Counts near 2**32 and nets that make a row's sum leave int64: Python integers, still exact."""
    counts = np.full((3, 10, 4), 2**32 - 1, dtype=np.uint32)
    counts[1] = 0
    big = INT64_MAX // (2**32 - 1) // 40 + 1                     # the bound fails by a little
    nets = [[big if (c + o) % 3 else -big for o in range(4)] for c in range(10)]
    got = play_ev_numerators(counts, nets)
    assert got.dtype == object and got.tolist() == plain_numerators(counts, nets)
    just_fits = [[x // 2 for x in line] for line in nets]        # under the bound: the kernel, exact in int64
    got = play_ev_numerators(counts, just_fits)
    assert got.dtype == np.int64 and got.tolist() == plain_numerators(counts, just_fits)


def test_uint32_counts_with_nets_past_32_bits_take_the_general_loop():
    """Small uint32 counts (their max proves the bound) and nets of 2**40: exact in int64 all the same."""
    rng = np.random.default_rng(9)
    counts = rng.integers(0, 100, size=(500, 10, 4)).astype(np.uint32)
    nets = (rng.integers(-1000, 1000, size=(10, 4)) * 2**40 // 1000).tolist()
    assert max(abs(x) for line in nets for x in line) >= 2**32
    got = play_ev_numerators(counts, nets)
    assert got.dtype == np.int64 and got.tolist() == plain_numerators(counts, nets)


@pytest.mark.parametrize("cells", [0, 1, 7, 40, 41])
def test_row_dot_kernel_on_every_row_width(cells):
    """Every width (none, unrolled or not), counts and nets as large as int64 sums of 41 products allow."""
    rng = np.random.default_rng(cells)
    counts = rng.integers(0, 2**24, size=(20_000, cells)).astype(np.uint32)
    nets = rng.integers(-2**31, 2**31, size=cells)
    out = np.full(len(counts), -7, dtype=np.int64)
    row_dot.dot_rows(counts, nets, out, 2)
    expected = [sum(int(c) * int(n) for c, n in zip(row, nets.tolist())) for row in counts.tolist()]
    assert out.tolist() == expected


def test_numerators_of_a_fixed_category_equal_plain_sums():
    """Caribbean Stud's layout: (m, outcomes) counts and each class's category."""
    rng = np.random.default_rng(5)
    counts = rng.integers(0, 10**6, size=(3_000, 4)).astype(np.uint32)
    category = rng.integers(0, 10, size=3_000)
    nets = rng.integers(-100, 100, size=(10, 4)).tolist()
    assert play_ev_numerators(counts, nets, category).tolist() == plain_numerators(counts, nets, category)


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_row_dot_kernel_equals_numpy_on_random_rows(threads):
    rng = np.random.default_rng(threads)
    counts = rng.integers(0, 2**32, size=(10_001, 40), dtype=np.uint64).astype(np.uint32)
    nets = rng.integers(-1000, 1000, size=40)
    out = np.empty(len(counts), dtype=np.int64)
    row_dot.dot_rows(counts, nets, out, threads)
    assert (out == counts.astype(np.int64) @ nets).all()


def test_row_dot_kernel_refuses_mismatched_shapes():
    counts = np.zeros((3, 4), dtype=np.uint32)
    with pytest.raises(ValueError):
        row_dot.dot_rows(counts, np.zeros(5, dtype=np.int64), np.empty(3, dtype=np.int64))
    with pytest.raises(ValueError):
        row_dot.dot_rows(counts, np.zeros(4, dtype=np.int64), np.empty(2, dtype=np.int64))
    with pytest.raises(ValueError):
        row_dot.dot_rows(counts, np.zeros(4, dtype=np.int64), np.empty(3, dtype=np.int64), 0)


@pytest.mark.parametrize("category", [False, True])
def test_rows_adding_up_to_the_continuations_bound_the_numerators_tighter(category):
    """Every row adds up to `row_total`: |numerator| <= largest net x row_total, so nets that count x cells
    would send to Python integers stay in int64, exact; a row that does not add up keeps the loose bound."""
    rng = np.random.default_rng(3)
    shape = (200, 4) if category else (200, 10, 4)
    counts = rng.multinomial(1000, [1 / np.prod(shape[1:])] * int(np.prod(shape[1:])), size=200).reshape(shape)
    counts = counts.astype(np.uint32)
    classes = rng.integers(0, 10, size=200) if category else None
    big = INT64_MAX // 1000                                   # largest x 1000 fits; x max count x cells does not
    nets = [[big if (c + o) % 3 else -big for o in range(4)] for c in range(10)]
    got = play_ev_numerators(counts, nets, classes, row_total=1000)
    assert got.dtype == np.int64 and got.tolist() == plain_numerators(counts, nets, classes)
    counts.reshape(200, -1)[7, 0] += 1                        # one row adds up to 1001
    got = play_ev_numerators(counts, nets, classes, row_total=1000)
    assert got.dtype == object and got.tolist() == plain_numerators(counts, nets, classes)

"""Exact polynomials (analyzer.games.caribbean_stud.polynomial) against sympy, the reference: the same text as sympy's str()
on many polynomials (signs, zero and unit coefficients, integers, fractions, big numerators, degrees 0 to 3),
the same arithmetic, values and solutions, the text read back, and damaged text refused clearly."""
import itertools
import random
from fractions import Fraction

import pytest
import sympy

from analyzer.core.errors import InputError
from analyzer.games.caribbean_stud.polynomial import Polynomial

J = sympy.Symbol("J", positive=True)          # as the progressive's jackpot was declared
SMALL = [Fraction(0), Fraction(1), Fraction(-1), Fraction(2), Fraction(-2), Fraction(1, 2), Fraction(-1, 2),
         Fraction(3, 4), Fraction(-5, 3), Fraction(7, 1)]


def to_sympy(coefficients, symbol=J):
    return sympy.expand(sum((sympy.Rational(c.numerator, c.denominator) * symbol ** k
                             for k, c in enumerate(coefficients)), sympy.Integer(0)))


def random_coefficient(rng: random.Random) -> Fraction:
    kind = rng.randrange(6)
    if kind == 0:
        return Fraction(0)
    if kind == 1:
        return Fraction(rng.choice([1, -1]))
    if kind == 2:
        return Fraction(rng.randint(-10**6, 10**6))
    if kind == 3:                                   # big numerators and denominators, as the variance has
        return Fraction(rng.randint(-10**40, 10**40), rng.randint(1, 10**30))
    if kind == 4:
        return Fraction(rng.choice([1, -1]), rng.randint(2, 10**12))
    return Fraction(rng.randint(-1000, 1000), rng.randint(1, 1000))


def random_polynomials(count: int, seed: int, max_degree: int = 2):
    rng = random.Random(seed)
    for _ in range(count):
        yield [random_coefficient(rng) for _ in range(rng.randint(1, max_degree + 1))]


def test_text_equals_sympy_on_small_coefficients():
    """Every sign pattern and unit coefficient of degrees 0 to 2 (sympy writes "1 - J" but "J - 1")."""
    for coefficients in itertools.chain(itertools.product(SMALL, repeat=3), itertools.product(SMALL, repeat=2)):
        assert str(Polynomial(coefficients, "J")) == str(to_sympy(coefficients)), coefficients


def test_text_equals_sympy_on_random_polynomials():
    for coefficients in random_polynomials(3000, seed=1, max_degree=3):
        assert str(Polynomial(coefficients, "J")) == str(to_sympy(coefficients)), coefficients


def test_text_reads_back():
    for coefficients in random_polynomials(2000, seed=2, max_degree=3):
        p = Polynomial(coefficients, "J")
        assert Polynomial.parse(str(p), "J") == p
        assert Polynomial.parse(str(p).replace(" ", ""), "J") == p


def test_arithmetic_values_and_solutions_equal_sympys():
    rng = random.Random(3)
    polynomials = list(random_polynomials(400, seed=4))
    for a, b in zip(polynomials, polynomials[1:]):
        p, q, sa, sb = Polynomial(a, "J"), Polynomial(b, "J"), to_sympy(a), to_sympy(b)
        c = random_coefficient(rng) or Fraction(3, 7)
        sc = sympy.Rational(c.numerator, c.denominator)
        for mine, theirs in [(p + q, sa + sb), (p - q, sa - sb), (p * q, sa * sb), (p / c, sa / sc),
                             (c - p, sc - sa), (1 + p, 1 + sa), (c * p ** 2, sc * sa ** 2), (-p, -sa)]:
            assert str(mine) == str(sympy.expand(theirs))
        at = random_coefficient(rng)
        assert p(at) == Fraction(str(sa.subs(J, sympy.Rational(at.numerator, at.denominator))))
        if p.degree == 1:                     # solved for a symbol of any sign (the positive J drops roots <= 0)
            x = sympy.Symbol("x")
            assert [p.solve(c)] == [Fraction(int(r.p), int(r.q)) for r in sympy.solve(sympy.Eq(to_sympy(a, x), sc), x)]


def test_degree_zero_and_equality():
    assert Polynomial((), "J").degree == -1 and str(Polynomial((0, 0), "J")) == "0"
    assert Polynomial((Fraction(3, 4),), "J") == Fraction(3, 4) and hash(Polynomial((3,), "J")) == hash(3)
    assert Polynomial((1, 2), "J") != Polynomial((1, 2), "K")
    with pytest.raises(ValueError, match="degree 1"):
        Polynomial((1, 2, 3), "J").solve(0)


def test_a_float_is_refused():
    J_ = Polynomial.variable("J")
    with pytest.raises(TypeError):
        J_ + 0.5
    with pytest.raises(TypeError):
        Polynomial((0.5,), "J")
    with pytest.raises(TypeError):
        J_(0.25)
    with pytest.raises(ValueError, match="do not combine"):
        J_ + Polynomial.variable("K")


@pytest.mark.parametrize("text, why", [
    ("", "empty"), ("   ", "empty"), ("-", "a sign with no term"), ("J +", "a sign with no term"),
    ("J + + 1", "a sign with no term"), ("2*J/0", "divides by zero"), ("1.5", "'1.5' is not a term"),
    ("x + 1", "'x' is not a term"), ("3 J", "'3 J' is not a term"), ("J**-2", "is not a term"),
    ("J*2", "'J\\*2' is not a term"), ("J/324870 + 6091/15470)", "is not a term"), (None, "not text"),
    ("1e5*J", "is not a term"), ("nan", "is not a term"),
])
def test_damaged_text_is_refused_clearly(text, why):
    with pytest.raises(InputError, match=f"is not a polynomial in J with rational coefficients: .*{why}"):
        Polynomial.parse(text, "J")

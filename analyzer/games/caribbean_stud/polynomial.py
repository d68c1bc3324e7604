"""Exact polynomials in one variable with rational coefficients, written and read as sympy writes them.

The Caribbean Stud progressive's figures are polynomials in the jackpot J of degree at most
two (its RTP and mean are linear in J, its variance quadratic).  They were built with sympy,
and sympy's str() of them is the published text ("47*J/46486281 + 3963384462289/5057242509990").
This type does the little arithmetic they need with Fractions, renders the very same text
(the tests compare it with sympy on random polynomials) and reads it back, so that no command
pays for importing sympy (about 0.2 s) or for its symbolic arithmetic.

>>> J = Polynomial.variable("J")
>>> rtp = J / 324870 + Fraction(6091, 15470)
>>> str(rtp), rtp(100000), str(1 - J ** 2 / 2)
('J/324870 + 6091/15470', Fraction(227911, 324870), '1 - J**2/2')
>>> Polynomial.parse(str(rtp), "J") == rtp, rtp.solve(1)
(True, Fraction(196959, 1))
"""
from __future__ import annotations

import re
from fractions import Fraction

from analyzer.core.errors import InputError


class Polynomial:
    """c0 + c1 x + c2 x^2 + ... in a named variable x, every coefficient an exact rational.

    Numbers (int, Fraction) take part in the arithmetic as constants; a float is refused
    (every figure is exact).  Division is by a number only.
    """

    __slots__ = ("coefficients", "name")

    def __init__(self, coefficients=(), name: str = "x"):
        """`coefficients`: lowest degree first (trailing zeros are dropped: the zero polynomial has none)."""
        values = [_exact(c) for c in coefficients]
        while values and not values[-1]:
            values.pop()
        self.coefficients: tuple = tuple(values)
        self.name = name

    @classmethod
    def variable(cls, name: str) -> Polynomial:
        """The polynomial x itself."""
        return cls((0, 1), name)

    @property
    def degree(self) -> int:
        """The highest power with a nonzero coefficient (-1 for the zero polynomial)."""
        return len(self.coefficients) - 1

    def __call__(self, x) -> Fraction:
        """The value at x, exactly."""
        x, value = _exact(x), Fraction(0)
        for c in reversed(self.coefficients):
            value = value * x + c
        return value

    def solve(self, value) -> Fraction:
        """The x at which this polynomial, of degree 1, equals `value`."""
        if self.degree != 1:
            raise ValueError(f"solve needs a polynomial of degree 1, not {self}")
        c0, c1 = self.coefficients
        return (_exact(value) - c0) / c1

    # --- arithmetic -------------------------------------------------------------------------

    def _other(self, other) -> Polynomial | None:
        if isinstance(other, Polynomial):
            if other.name != self.name:
                raise ValueError(f"polynomials in {self.name} and {other.name} do not combine")
            return other
        if isinstance(other, (int, Fraction)):
            return Polynomial((other,), self.name)
        return None

    def __add__(self, other):
        other = self._other(other)
        if other is None:
            return NotImplemented
        a, b = self.coefficients, other.coefficients
        if len(a) < len(b):
            a, b = b, a
        return Polynomial([x + y for x, y in zip(a, b)] + list(a[len(b):]), self.name)

    __radd__ = __add__

    def __neg__(self) -> Polynomial:
        return Polynomial([-c for c in self.coefficients], self.name)

    def __sub__(self, other):
        other = self._other(other)
        return NotImplemented if other is None else self + -other

    def __rsub__(self, other):
        other = self._other(other)
        return NotImplemented if other is None else other + -self

    def __mul__(self, other):
        other = self._other(other)
        if other is None:
            return NotImplemented
        product = [Fraction(0)] * max(len(self.coefficients) + len(other.coefficients) - 1, 0)
        for i, a in enumerate(self.coefficients):
            for j, b in enumerate(other.coefficients):
                product[i + j] += a * b
        return Polynomial(product, self.name)

    __rmul__ = __mul__

    def __truediv__(self, other):
        if not isinstance(other, (int, Fraction)):
            return NotImplemented
        return Polynomial([c / other for c in self.coefficients], self.name)

    def __pow__(self, power: int) -> Polynomial:
        if not isinstance(power, int) or power < 0:
            return NotImplemented
        result = Polynomial((1,), self.name)
        for _ in range(power):
            result = result * self
        return result

    def __eq__(self, other):
        if isinstance(other, Polynomial):
            return (self.name, self.coefficients) == (other.name, other.coefficients)
        other = self._other(other)
        return NotImplemented if other is None else self.coefficients == other.coefficients

    def __hash__(self):
        # equal to a number when constant: hash as that number does
        return hash(self(0)) if self.degree < 1 else hash((self.name, self.coefficients))

    def __repr__(self) -> str:
        return f"Polynomial({[str(c) for c in self.coefficients]}, {self.name!r})"

    # --- text, as sympy writes it -----------------------------------------------------------

    def __str__(self) -> str:
        """The text sympy's str() gives of this polynomial (in a symbol of this name).

        Highest power first, " + " and " - " between terms; but a positive constant with one
        negative term is written first, as sympy does ("1 - J", not "-J + 1").
        """
        terms = [(c, k) for k, c in reversed(list(enumerate(self.coefficients))) if c]
        if not terms:
            return "0"
        if len(terms) == 2 and terms[1][1] == 0 and terms[1][0] > 0 > terms[0][0]:
            terms.reverse()
        parts = [self._term(*terms[0])]
        for c, k in terms[1:]:
            text = self._term(c, k)
            parts.append(f"- {text[1:]}" if text.startswith("-") else f"+ {text}")
        return " ".join(parts)

    def _term(self, coefficient: Fraction, power: int) -> str:
        """One term, its sign in front: 6091/15470, -J, 47*J/46486281, J**2/2."""
        if power == 0:
            return str(coefficient)
        p, q = coefficient.numerator, coefficient.denominator
        monomial = self.name if power == 1 else f"{self.name}**{power}"
        return ("-" if p < 0 else "") + (monomial if abs(p) == 1 else f"{abs(p)}*{monomial}") + (f"/{q}" if q != 1 else "")

    @classmethod
    def parse(cls, text: str, name: str) -> Polynomial:
        """The polynomial written as `str` writes it (spaces around + and - optional); InputError if it is not one.

        A term is a constant (p or p/q) or [p*]x[**k][/q], with integers p, q, k >= 0.

        >>> str(Polynomial.parse("-J**2+3*J/2 - 7", "J"))
        '-J**2 + 3*J/2 - 7'
        """
        def bad(why: str) -> InputError:
            return InputError(f"{text!r} is not a polynomial in {name} with rational coefficients: {why}")
        if not isinstance(text, str):
            raise bad("not text")
        term = re.compile(rf"(?:(\d+)|(?:(\d+)\*)?{re.escape(name)}(?:\*\*(\d+))?)(?:/(\d+))?")
        pieces = re.split(r"\s*([+-])\s*", text.strip())
        pieces = pieces[1:] if pieces[0] == "" and len(pieces) > 1 else ["+"] + pieces   # a leading sign, or none
        coefficients = {}
        for sign, piece in zip(pieces[0::2], pieces[1::2]):
            match = term.fullmatch(piece)
            if match is None:
                raise bad(f"{piece!r} is not a term" if piece else "a sign with no term after it" if text.strip()
                          else "empty")
            constant, factor, power, denominator = match.groups()
            if denominator is not None and int(denominator) == 0:
                raise bad(f"{piece!r} divides by zero")
            value = Fraction(int(constant if constant is not None else factor or 1), int(denominator or 1))
            degree = 0 if constant is not None else int(power or 1)
            coefficients[degree] = coefficients.get(degree, 0) + (-value if sign == "-" else value)
        return cls([coefficients.get(k, 0) for k in range(max(coefficients) + 1)], name)


def _exact(value) -> Fraction:
    """An int or Fraction as a Fraction; anything else (a float above all) is refused."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    raise TypeError(f"an exact polynomial takes ints and Fractions, not {type(value).__name__} {value!r}")

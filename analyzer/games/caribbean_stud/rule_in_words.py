"""The Caribbean Stud raise/fold rule a person can follow: data, evaluated by code, rendered in words.

A rule is an ordered list of clauses; the first clause whose conditions all hold decides
(raise or fold), and the last clause has no conditions.  Conditions come from a small
vocabulary about what the player sees: his hand's category and rank, his cards by place
(highest first), and the dealer's up card.  The same objects evaluate the rule on every
situation class (numpy masks) and write its words, so the rule printed is the rule
checked.

`derive_rule` fits a rule of a fixed shape to the exact optimal table: which categories
always raise, from which level a lower category raises (a pair of R or better), below
which high card everything folds, and, above it, thresholds on the third and fourth
cards depending on whether the up card pairs one of the player's cards; each choice is
the one whose total exact cost is least.  The shape was written from the structure of
the optimal table; the fit and the check make no other assumption.  `check_rule`
evaluates a rule on every class and lists every class where it differs from the optimal
decision, with the exact cost.

Every condition reads only what the hand's value (its dense rank fixes the category and
the ranks by place) and the up card's rank say: a rule decides all classes of one such
pattern alike.  So a rule is fitted and priced on the patterns (`Patterns`, about 97,000
on the full deck against 5.65 M classes), against each pattern's summed gains
(`PatternGains`), and its decisions are spread to the classes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from analyzer.core.cards import RANKS
from analyzer.core.errors import InvariantError
from analyzer.core.exact import exact_sum
from analyzer.poker.decision_table import SignSums
from analyzer.poker.hands import CATEGORY_WORDS, ONE_PAIR
from cython_ext import handeval, stud_patterns

HIGH_CARD = 0
N_RANKS = len(RANKS)
NEVER = N_RANKS                      # a rank threshold no card reaches
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace")
PLACE_NAMES = ("highest", "second", "third", "fourth", "fifth")
RAISE, FOLD = "raise", "fold"


@dataclass(frozen=True)
class Features:
    """What the player sees in each situation class, as arrays (one entry per class)."""

    category: np.ndarray         # hand category 0..9
    rank: np.ndarray             # dense hand rank 0..7461
    ranks: np.ndarray            # (m, 5) card ranks by place, highest first
    up_rank: np.ndarray          # rank of the dealer's up card
    paired_place: np.ndarray     # place of the (highest) card of the up card's rank; -1 if none

    @classmethod
    def of(cls, keys: np.ndarray, category: np.ndarray, rank: np.ndarray) -> "Features":
        # keys hold the hand descending; rank = card // 4.  The ranks are kept place by place
        # (column-major): every condition and the pairing below read one place at a time.
        ranks = np.empty((len(keys), 5), dtype=np.uint8, order="F")
        for place in range(5):
            np.right_shift(keys[:, place], 2, out=ranks[:, place])
        up_rank = up_ranks(keys)
        paired = np.full(len(keys), -1, dtype=np.int8)
        for place in range(4, -1, -1):                     # the highest paired place wins
            paired[ranks[:, place] == up_rank] = place
        return cls(category=category, rank=rank, ranks=ranks, up_rank=up_rank, paired_place=paired)


N_PATTERNS = stud_patterns.N_PATTERNS           # pattern numbers: dense rank x 13 + up rank


def class_patterns(rank: np.ndarray, up_rank: np.ndarray) -> np.ndarray:
    """Each class's pattern number: dense rank x 13 + the up card's rank (int32).

    The dense rank fixes the category and the ranks by place (not the suits); with the up
    card's rank it is everything the rule's conditions read.
    """
    pattern = np.multiply(rank, N_RANKS, dtype=np.int32)           # made in place: one array, no temporaries
    pattern += up_rank
    return pattern


def up_ranks(keys: np.ndarray) -> np.ndarray:
    """The rank of each class's up card (the key's sixth card), one byte a class."""
    return np.right_shift(keys[:, 5], 2)


@dataclass(frozen=True)
class Patterns:
    """The patterns a table's classes fall in, and what the player sees in each: nothing of a paytable.

    A pattern's classes differ by suits only, and no feature read here reads suits: any one
    class of a pattern stands for all of it.  The table's classes are placed in their
    patterns by the compiled kernels (`cython_ext.stud_patterns`, one pass each, no per-class
    array but the answer), from the table's dense ranks and its up cards' ranks (`up_ranks`,
    5.6 MB kept here on the full deck: every pass reads it rather than the keys' 34 MB).
    """

    numbers: np.ndarray          # the pattern numbers that hold classes, ascending
    sizes: np.ndarray            # how many classes each has
    keys: np.ndarray             # (p, 6) the key of the first class of each
    features: Features           # what the player sees, per pattern (read off those classes)
    class_rank: np.ndarray = field(repr=False)     # the table's dense ranks (not a copy, when contiguous)
    class_up_rank: np.ndarray = field(repr=False)  # its up cards' ranks

    @classmethod
    def of(cls, keys: np.ndarray, category: np.ndarray, rank: np.ndarray) -> "Patterns":
        rank, up_rank = np.ascontiguousarray(rank), up_ranks(keys)
        first, sizes = stud_patterns.pattern_classes(rank, up_rank)
        numbers = np.flatnonzero(first >= 0)
        chosen = first[numbers]
        return cls(numbers, sizes[numbers], keys[chosen], Features.of(keys[chosen], category[chosen], rank[chosen]),
                   rank, up_rank)

    def __len__(self) -> int:
        return len(self.numbers)

    def _by_number(self, values: np.ndarray) -> np.ndarray:
        """One byte per pattern number from one byte-sized value per pattern (0 where no class is)."""
        by_number = np.zeros(N_PATTERNS, dtype=np.uint8)
        by_number[self.numbers] = values.view(np.uint8)
        return by_number

    def spread(self, values: np.ndarray) -> np.ndarray:
        """Per class, the value of its pattern (values: one per pattern, of a one-byte dtype, e.g. bool)."""
        return stud_patterns.spread(self.class_rank, self.class_up_rank, self._by_number(values)).view(values.dtype)

    def classes_in(self, chosen: np.ndarray) -> np.ndarray:
        """The indices (ascending) of the classes whose pattern is chosen (chosen: bool, one per pattern)."""
        return stud_patterns.classes_in(self.class_rank, self.class_up_rank, self._by_number(chosen),
                                        int(self.sizes[chosen].sum()))

    def sign_sums(self, weights: np.ndarray, gain: np.ndarray) -> SignSums:
        """Per pattern (in `numbers` order), the weight and the gain of its classes by the sign of their gain
        (`SignSums`), from per-class gains, by NumPy (exact).  The analysis has them from the pricing
        kernel (`analyzer.games.caribbean_stud.price`), with no per-class gain."""
        pattern = class_patterns(self.class_rank, self.class_up_rank)
        return SignSums.of(pattern, N_PATTERNS, weights, gain).take(self.numbers)


def patterns_of(table) -> Patterns:
    """The patterns of a table (a `SituationCounts`): nothing of a paytable and small (a few MB on the full
    deck), made once and kept with the count for every rule set on it."""
    if "rule patterns" not in table.derived:
        table.derived["rule patterns"] = Patterns.of(table.keys, table.player_category, table.player_rank)
    return table.derived["rule patterns"]


@dataclass(frozen=True)
class PatternGains:
    """One rule set's gains summed by pattern: all that fitting and pricing a rule that reads patterns needs."""

    patterns: Patterns
    sums: SignSums               # per pattern: the weight and the gain of its classes by the sign of their gain
    lost_if_raised: np.ndarray   # per pattern: the gains lost by raising all of it (sum of -gain where gain < 0)
    lost_if_folded: np.ndarray   # per pattern: the gains lost by folding all of it (sum of gain where gain > 0)

    @classmethod
    def of(cls, patterns: Patterns, sums: SignSums) -> "PatternGains":
        """sums: per pattern, from per-class gains (see `derive_rule`)."""
        return cls(patterns, sums, -sums.gains[:, 0], sums.gains[:, 2].copy())

    @property
    def features(self) -> Features:
        return self.patterns.features


def rank_words(rank: int) -> str:
    article = "an" if RANK_NAMES[rank] in ("ace", "8") else "a"
    return f"{article} {RANK_NAMES[rank]}"


def hand_words(ranks: tuple) -> str:
    """'ace-king' for the leading ranks (12, 11)."""
    return "-".join(RANK_NAMES[r] for r in ranks)


# --- conditions ------------------------------------------------------------------------------

@dataclass(frozen=True)
class CategoryAtLeast:
    category: int

    def holds(self, f: Features) -> np.ndarray:
        return f.category >= self.category

    def words(self) -> str:
        return f"you hold {'a ' if self.category == ONE_PAIR else ''}{CATEGORY_WORDS[self.category]} or better"


def level_words(category: int, ranks: tuple) -> str:
    """'ace-king', 'a pair of 6s', 'two pair': a hand level as threshold_value reads it."""
    if category == HIGH_CARD and ranks:
        return hand_words(ranks)
    if category == ONE_PAIR and ranks:
        return f"a pair of {RANK_NAMES[ranks[0]]}s"
    return f"{'a ' if category == ONE_PAIR else ''}{CATEGORY_WORDS[category]}"


def level_rank(category: int, ranks: tuple) -> int:
    """The dense rank of the smallest hand of that level."""
    return handeval.dense_at_least(handeval.threshold_value(category, list(ranks)))


@dataclass(frozen=True)
class HandBelow:
    """A hand below the smallest hand of `category` led by `ranks` (handeval.threshold_value):
    (HIGH_CARD, (12, 11)) is "below ace-king", (ONE_PAIR, (4,)) "below a pair of 6s"."""

    category: int
    ranks: tuple = ()

    def holds(self, f: Features) -> np.ndarray:
        return f.rank < level_rank(self.category, self.ranks)

    def words(self) -> str:
        return f"your hand is below {level_words(self.category, self.ranks)}"


@dataclass(frozen=True)
class HandAtLeast:
    """A hand at least the smallest hand of `category` led by `ranks`."""

    category: int
    ranks: tuple = ()

    def holds(self, f: Features) -> np.ndarray:
        return f.rank >= level_rank(self.category, self.ranks)

    def words(self) -> str:
        return f"you hold {level_words(self.category, self.ranks)} or better"


def leading_ranks(category: int, ranks) -> tuple:
    """The ranks that name a hand's level for HandBelow: the top two of a high-card hand, the
    rank of a pair, none for the other categories (ranks: the hand's five ranks)."""
    ranks = [int(r) for r in ranks]
    if category == HIGH_CARD:
        return tuple(ranks[:2])
    if category == ONE_PAIR:
        return (max(r for r in ranks if ranks.count(r) == 2),)
    return ()


@dataclass(frozen=True)
class UpPairs:
    """The up card pairs one of your cards at these places (an empty tuple: pairs none of them)."""

    places: tuple

    def holds(self, f: Features) -> np.ndarray:
        if not self.places:
            return f.paired_place < 0
        chosen = np.zeros(6, dtype=bool)          # by paired place + 1 (0: pairs nothing)
        chosen[[p + 1 for p in self.places]] = True
        return chosen[f.paired_place + 1]

    def words(self) -> str:
        if not self.places:
            return "the up card pairs none of your cards"
        names = [PLACE_NAMES[p] for p in self.places]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
        return f"the up card pairs your {listed} card"


@dataclass(frozen=True)
class CardAtLeast:
    place: int
    rank: int

    def holds(self, f: Features) -> np.ndarray:
        return f.ranks[:, self.place] >= self.rank

    def words(self) -> str:
        return f"your {PLACE_NAMES[self.place]} card is {rank_words(self.rank)} or better"


@dataclass(frozen=True)
class UpBelowCard:
    """The up card is at least `gap` ranks below your card at `place`."""

    place: int
    gap: int

    def holds(self, f: Features) -> np.ndarray:
        return f.up_rank.astype(np.int16) <= f.ranks[:, self.place].astype(np.int16) - self.gap

    def words(self) -> str:
        if self.gap == 1:
            return f"the up card is below your {PLACE_NAMES[self.place]} card"
        return f"the up card is at least {self.gap} ranks below your {PLACE_NAMES[self.place]} card"


@dataclass(frozen=True)
class Clause:
    action: str                  # RAISE or FOLD
    conditions: tuple = ()       # all must hold; () = always

    def words(self, first: bool) -> str:
        lead = self.action.capitalize() if first else f"Otherwise {self.action}"
        if not self.conditions:
            return f"{lead}."
        return f"{lead} if {' and '.join(c.words() for c in self.conditions)}."


@dataclass(frozen=True)
class StrategyRule:
    """Clauses in order; the first that holds decides."""

    clauses: tuple

    def raises(self, f: Features) -> np.ndarray:
        """The rule's decision for every class (True = raise)."""
        raise_ = np.zeros(len(f.category), dtype=bool)
        for clause, undecided, holds in self.decided(f):
            if clause.action == RAISE:
                raise_[undecided[holds]] = True
        return raise_

    def decided(self, f: Features):
        """(clause, classes not decided before it, where it holds among them) for each clause in order,
        until every class is decided: each clause is asked only of the classes no earlier clause decided."""
        # 32-bit indices where they fit: half the memory of the index arrays
        undecided = np.arange(len(f.category), dtype=np.int32 if len(f.category) < 2**31 else np.intp)
        sub = f
        for clause in self.clauses:
            holds = np.ones(len(undecided), dtype=bool)
            for condition in clause.conditions:
                holds &= condition.holds(sub)
            yield clause, undecided, holds
            if holds.all():
                return
            undecided = undecided[~holds]
            sub = _Taken(f, undecided)
        raise InvariantError("a strategy rule must end with a clause that always holds")

    def words(self) -> list[str]:
        return [clause.words(i == 0) for i, clause in enumerate(self.clauses)]

    def as_data(self) -> list[dict]:
        return [{"action": c.action,
                 "conditions": [{"kind": type(k).__name__, **k.__dict__} for k in c.conditions]}
                for c in self.clauses]


# --- deriving a rule from the optimal table --------------------------------------------------

def derive_rule(gains: PatternGains) -> StrategyRule:
    """The least-cost rule of the shape described in the module docstring.

    gains: the rule set's gains by pattern, from per-class gains weight x (EV of raising -
    EV of folding) as integer numerators (positive: raising is better; 0: exactly equal).
    The shape, first match deciding: raise every category from the lowest that never
    folds; within each lower category but high card, raise from a fitted level (a pair of
    R or better; all; none) and fold the rest; fold high cards below the lowest one worth
    raising (e.g. ace-king); in between, thresholds on the third and fourth cards by how
    the up card pairs the hand.
    """
    f = gains.features

    def best(candidates, region):
        """The candidate clause list of least exact cost on the patterns in `region`."""
        if not region.any():
            return candidates[0]
        index = np.flatnonzero(region)
        within = _Taken(f, index)
        lost_if_raised, lost_if_folded = gains.lost_if_raised[index], gains.lost_if_folded[index]
        costs = [int(np.where(StrategyRule(tuple(c) + (Clause(FOLD),)).raises(within),
                              lost_if_raised, lost_if_folded).sum()) for c in candidates]
        return candidates[int(np.argmin(costs))]

    top_category = int(f.category.max())
    always = lowest_never_folding(f.category, gains.lost_if_raised > 0)
    lower = []
    for c in range(always - 1, HIGH_CARD, -1):
        levels = [[Clause(RAISE, (CategoryAtLeast(c),))], []]
        if c == ONE_PAIR:
            levels += [[Clause(RAISE, (HandAtLeast(ONE_PAIR, (r,)),))] for r in range(1, N_RANKS)]
        level = best(levels, f.category == c)
        if level == levels[0] and not lower:
            always = c                                  # the whole category raises too
        else:
            lower += level + [Clause(FOLD, (CategoryAtLeast(c),))]
    clauses = ([Clause(RAISE, (CategoryAtLeast(always),))] if always <= top_category else []) + lower
    high = f.category == HIGH_CARD
    raised = high & (gains.lost_if_folded > 0)         # high-card patterns with a class worth raising
    if always == HIGH_CARD or not raised.any():
        return prune(StrategyRule(tuple(clauses) + (Clause(FOLD),)), f)
    # Every high card below the lowest one worth raising folds (ace-king: everything below it).
    lowest = int(np.argmin(np.where(raised, f.rank, np.iinfo(np.int32).max)))
    floor = HandBelow(HIGH_CARD, leading_ranks(HIGH_CARD, f.ranks[lowest]))
    clauses.append(Clause(FOLD, (floor,)))
    band = high & ~floor.holds(f)
    top, others, none = UpPairs((0, 1)), UpPairs((2, 3, 4)), UpPairs(())
    region = band & top.holds(f)
    clauses += best([[Clause(RAISE, (top, CardAtLeast(2, t)))] if t < NEVER else [] for t in range(NEVER + 1)],
                    region) + [Clause(FOLD, (top,))]
    region = band & others.holds(f)
    clauses += best([[Clause(RAISE, (others,))], []], region)
    region = band & none.holds(f)
    shapes = [[]]
    for third in range(N_RANKS):
        for fourth in range(N_RANKS + 1):
            shape = []
            if fourth < NEVER:
                shape.append(Clause(RAISE, (none, CardAtLeast(2, third), CardAtLeast(3, fourth), UpBelowCard(3, 1))))
            shape.append(Clause(RAISE, (none, CardAtLeast(2, third), UpBelowCard(3, 2))))
            shapes.append(shape)
    clauses += best(shapes, region)
    return prune(StrategyRule(tuple(clauses) + (Clause(FOLD),)), f)


def lowest_never_folding(category: np.ndarray, folds: np.ndarray) -> int:
    """The lowest category from which nothing folds (`folds`: where something does, e.g. gain < 0): one
    above the highest category where something folds; 0 when nothing does."""
    return int(category[folds].max()) + 1 if folds.any() else 0


def prune(rule: StrategyRule, f: Features) -> StrategyRule:
    """The rule without clauses that decide no class (the same decisions, fewer words)."""
    last = len(rule.clauses) - 1
    kept = tuple(clause for index, (clause, _, holds) in enumerate(rule.decided(f)) if index < last and holds.any())
    return StrategyRule(kept + rule.clauses[-1:])


class _Taken:
    """The features of some classes, gathered field by field when a condition first reads them."""

    def __init__(self, f: Features, index: np.ndarray):
        self._f, self._index = f, index

    def __getattr__(self, name):
        value = getattr(self._f, name)[self._index]
        setattr(self, name, value)
        return value

    def __len__(self):
        return len(self._index)


# --- checking a rule against the optimal table ------------------------------------------------

@dataclass(frozen=True)
class RuleCheck:
    """A rule checked on every situation class against the optimal decisions."""

    rule: StrategyRule
    raises: np.ndarray           # the rule's decision per class
    exceptions: np.ndarray       # indices of classes where the rule's decision loses EV
    exception_gains: np.ndarray  # their gains (weight x (EV raise - EV fold)): what the rule loses is |gain|
    cost: Fraction               # EV per ANTE the rule gives up against optimal play
    best_rank_only_cost: Fraction  # the least any rule blind to suits (hand value + up rank) gives up
    mixed_rank_patterns: int     # patterns (hand value + up rank) whose best play depends on suits


def check_rule(rule: StrategyRule, gains: PatternGains, gains_at, scale: int) -> RuleCheck:
    """Evaluate `rule` on every class; `scale` turns summed gains into EV per ANTE (gain / scale).

    The rule is evaluated once per pattern (`gains`) and spread to the classes; its cost is
    the sum, over patterns, of what its decision there loses.  Only the classes of the
    patterns where it loses anything are looked at one by one, for the exceptions: `gains_at`
    gives the gains of those classes (indices -> gains, e.g. `DecisionTable.gains_at`).
    """
    patterns = gains.patterns
    raises_by_pattern = rule.raises(gains.features)
    lost = np.where(raises_by_pattern, gains.lost_if_raised, gains.lost_if_folded)
    raises = patterns.spread(raises_by_pattern)
    suspects = patterns.classes_in(lost > 0)
    g = gains_at(suspects)
    wrong = np.where(raises[suspects], g < 0, g > 0)
    # A rule that reads the hand's value and the up card's rank, not the suits, decides alike all
    # classes of a pattern: the best such rule loses the less of the two on each.
    best = np.minimum(gains.lost_if_raised, gains.lost_if_folded)
    return RuleCheck(rule=rule, raises=raises, exceptions=suspects[wrong], exception_gains=g[wrong],
                     cost=Fraction(exact_sum(lost), scale), best_rank_only_cost=Fraction(exact_sum(best), scale),
                     mixed_rank_patterns=int((best > 0).sum()))

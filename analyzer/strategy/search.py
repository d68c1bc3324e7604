"""Deriving a short basic strategy from exact per-situation margins: a greedy rule-list search.

Classes with equal feature values are merged into cells (margins summed exactly).  The best rule
to insert at a place is found by a pruned beam search over conjunctions of up to three
conditions, each condition's gain one `np.bincount` and a 0/1 matrix product, each condition
costing `penalty` so that a simpler rule wins a near tie.  Lists grow by the best insertion, each
step followed by refits of every other rule; the best list over the defaults (or seeds) is kept.
Floats only rank; every reported figure is recomputed exactly, and the result is deterministic,
so `analyzer derive-basic` re-derives the committed rule lists.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyzer.strategy.language import Condition, FeatureSet, Flag, Rule, Strategy, loads_strategy


# --- cells -------------------------------------------------------------------------------------

@dataclass
class Cells:
    """Situation classes merged by equal feature values."""

    values: dict            # feature name -> int array, one entry per cell
    margin: np.ndarray      # int64: sum over the cell's classes of weight x (EV first action - EV second)
    scale: int              # margin / scale = contribution to the EV per ANTE


def make_cells(values: dict, margin: np.ndarray, scale: int) -> Cells:
    """Merge classes with identical feature values; margins are summed as exact integers."""
    names = sorted(values)
    stacked = np.stack([values[name].astype(np.int16) for name in names], axis=1)
    unique, inverse = np.unique(stacked, axis=0, return_inverse=True)
    if int(np.abs(margin).max()) * len(margin) >= 2**63:
        raise OverflowError("margins too large to sum in 64 bits")
    summed = np.zeros(len(unique), dtype=np.int64)
    np.add.at(summed, inverse.ravel(), margin.astype(np.int64))
    return Cells({name: unique[:, i].copy() for i, name in enumerate(names)}, summed, scale)


# --- candidate conditions, by feature ---------------------------------------------------------

@dataclass
class FeatureAtoms:
    """Every candidate condition on one feature, as a (condition x value bin) 0/1 matrix."""

    feature: str
    conditions: list        # Condition objects
    matrix: np.ndarray      # float64 (conditions, bins): 1 where the condition holds for the bin's value
    offset: int             # bin = value - offset
    bins: int


def feature_atoms(features: FeatureSet, name: str, observed: np.ndarray) -> FeatureAtoms:
    feature = features.features[name]
    kind = feature.kind
    values = list(kind.values())
    ops = [op for op in kind.ops if op in feature.templates] if not isinstance(kind, Flag) else ["eq"]
    conditions = []
    preferred = ("eq", "min", "max", "between", "ne")               # equal tests keep the first spelling
    tested = {"eq": values, "ne": values, "min": values[1:], "max": values[:-1]}   # the values each op tests
    for op in sorted(ops, key=lambda o: preferred.index(o) if o in preferred else len(preferred)):
        if op in tested:
            conditions += [Condition(name, op, v) for v in tested[op] if v != feature.missing]
        elif op == "between":
            inner = [v for v in values[1:-1] if v != feature.missing]    # a range touching an end is min/max
            conditions += [Condition(name, op, (lo, hi)) for i, lo in enumerate(inner) for hi in inner[i + 1:]]
    offset = min(min(values), int(observed.min()))
    bins = max(max(values), int(observed.max())) - offset + 1
    probe = {name: np.arange(offset, offset + bins)}
    matrix = np.array([c.holds(probe, features) for c in conditions], dtype=np.float64)
    first = np.sort(np.unique(matrix, axis=0, return_index=True)[1])     # equal tests: keep the first spelling
    return FeatureAtoms(name, [conditions[i] for i in first], matrix[first], offset, bins)


# --- the search --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Candidate:
    conditions: tuple
    gain: float             # change of EV per ANTE if inserted
    score: float            # gain less the condition penalty


class RuleSearch:
    """Best rules to insert into a rule list, over the cells of one game."""

    def __init__(self, features: FeatureSet, cells: Cells, max_conditions: int = 3, beam: int = 10,
                 penalty: float = 2e-6):
        self.features, self.cells = features, cells
        self.atoms = {name: feature_atoms(features, name, cells.values[name])
                      for name in features.features if name in cells.values}
        self.bins = {name: (cells.values[name] - a.offset).astype(np.intp) for name, a in self.atoms.items()}
        self._drop_near_tautologies()
        self.margin = cells.margin / cells.scale                    # floats for ranking only
        self.max_conditions, self.beam, self.penalty = max_conditions, beam, penalty
        self.first_action = features.actions[1]                   # the margin is of this action over the other

    def _drop_near_tautologies(self, share: float = 0.99):
        """Conditions that hold for nearly every situation only restate the default: not candidates."""
        size = np.abs(self.cells.margin).astype(np.float64) + 1.0
        total = size.sum()
        for name, atoms in self.atoms.items():
            keep = atoms.matrix @ np.bincount(self.bins[name], size, atoms.bins) / total < share
            atoms.conditions = [c for c, k in zip(atoms.conditions, keep) if k]
            atoms.matrix = atoms.matrix[keep]

    # decisions of a list on cells
    def takes_first_action(self, strategy: Strategy) -> np.ndarray:
        return strategy.decide(self.cells.values) == self.features.actions.index(self.first_action)

    def value(self, strategy: Strategy) -> float:
        """EV per ANTE relative to never taking the first action (floats; ranking only)."""
        return float(self.margin[self.takes_first_action(strategy)].sum())

    def best_rule(self, gain: np.ndarray) -> Candidate | None:
        """The best conjunction of conditions for a per-cell gain vector (beam search, pruned)."""
        best = Candidate((), 0.0, 0.0)
        parents = [((), np.flatnonzero(gain))]
        for level in range(self.max_conditions):
            sums, bounds, origin = [], [], []
            for p, (conditions, idx) in enumerate(parents):
                used = {c.feature for c in conditions}
                g = gain[idx]
                positive = np.maximum(g, 0.0)
                for name, atoms in self.atoms.items():
                    if name in used:
                        continue
                    b = self.bins[name][idx]
                    sums.append(atoms.matrix @ np.bincount(b, g, atoms.bins))
                    bounds.append(atoms.matrix @ np.bincount(b, positive, atoms.bins))
                    origin.append((p, name, len(atoms.conditions)))
            if not sums:
                break
            sums, bounds = np.concatenate(sums), np.concatenate(bounds)
            parent_of = np.concatenate([np.full(k, p) for p, _, k in origin])
            feature_of = np.concatenate([np.full(k, i) for i, (_, _, k) in enumerate(origin)])
            atom_of = np.concatenate([np.arange(k) for _, _, k in origin])
            cost = self.penalty * (level + 1)
            top = int(np.argmax(sums))
            if sums[top] - cost > best.score:
                name = origin[feature_of[top]][1]
                rule = parents[parent_of[top]][0] + (self.atoms[name].conditions[atom_of[top]],)
                best = Candidate(rule, float(sums[top]), float(sums[top] - cost))
            if level + 1 == self.max_conditions:
                break
            hopeful = np.flatnonzero(bounds - self.penalty * (level + 2) > best.score)
            if not len(hopeful):
                break
            chosen = np.concatenate([hopeful[np.argsort(-bounds[hopeful], kind="stable")[:self.beam]],
                                     hopeful[np.argsort(-sums[hopeful], kind="stable")[:self.beam]]])
            next_parents, seen = [], set()
            for k in chosen.tolist():
                conditions, idx = parents[parent_of[k]]
                name = origin[feature_of[k]][1]
                atoms = self.atoms[name]
                rule = conditions + (atoms.conditions[atom_of[k]],)
                if frozenset(rule) in seen:
                    continue
                seen.add(frozenset(rule))
                held = atoms.matrix[atom_of[k], self.bins[name][idx]] > 0
                next_parents.append((rule, idx[held]))
            parents = next_parents
        return best if best.conditions else None

    def best_insertion(self, strategy: Strategy) -> tuple[float, int, Rule] | None:
        """(gain, position, rule) of the best single rule to insert anywhere into the list."""
        which = strategy.first_rule(self.cells.values)
        first = self.takes_first_action(strategy)
        best = None
        for position in range(len(strategy.rules) + 1):
            reach = which >= position
            for action in self.features.actions:
                if position == len(strategy.rules) and action == strategy.default:
                    continue
                to_first = action == self.first_action
                gain = np.where(reach & (first != to_first), self.margin if to_first else -self.margin, 0.0)
                found = self.best_rule(gain)
                if found and (best is None or found.score > best[0]):
                    best = (found.score, position, Rule(found.conditions, action))
        return best


def with_rules(strategy: Strategy, rules) -> Strategy:
    return Strategy(strategy.game, strategy.name, strategy.title, tuple(rules), strategy.default,
                    strategy.features, strategy.source)


def derive(search: RuleSearch, name: str, title: str, max_rules: int = 12, log=None,
           seeds: list[Strategy] = ()) -> Strategy:
    """Greedy insertion of the best rule, each followed by refits, from each seed list (its rules stay) or
    each default; the list of highest value."""
    features = search.features
    results = []
    for seed in seeds:
        if log:
            log(f"seed (its rules stay): {' | '.join(seed.lines())}")
        results.append(_derive_from(search, seed, max_rules, log, pinned=frozenset(seed.rules)))
    for default in features.actions if not seeds else ():
        if log:
            log(f"default {default}:")
        results.append(_derive_from(search, Strategy(features.game, name, title, (), default, features),
                                    max_rules, log))
    return max(results, key=search.value)


def _derive_from(search: RuleSearch, strategy: Strategy, max_rules: int, log=None,
                 pinned: frozenset = frozenset()) -> Strategy:
    while len(strategy.rules) < max_rules and (found := search.best_insertion(strategy)) is not None:
        _, position, rule = found
        rules = list(strategy.rules)
        rules.insert(position, rule)
        strategy = refit(search, with_rules(strategy, rules), log, pinned=pinned)
        if log:
            log(f"{len(strategy.rules)} rules: value {search.value(strategy):.6f} per ANTE; "
                + " | ".join(r.words(search.features) for r in strategy.rules))
    return strategy


def refit(search: RuleSearch, strategy: Strategy, log=None, passes: int = 3,
          pinned: frozenset = frozenset()) -> Strategy:
    """Replace any rule (but the pinned ones) by the best rule anywhere while that improves the list's value."""
    def penalised(strategy: Strategy) -> float:
        return search.value(strategy) - search.penalty * sum(len(r.conditions) for r in strategy.rules)
    for _ in range(passes):
        improved = False
        for index in range(len(strategy.rules)):
            if strategy.rules[index] in pinned:
                continue
            current = penalised(strategy)
            rules = list(strategy.rules)
            removed = rules.pop(index)
            found = search.best_insertion(with_rules(strategy, rules))
            if found is None:
                continue
            _, position, rule = found
            rules.insert(position, rule)
            candidate = with_rules(strategy, rules)
            value = penalised(candidate)
            if value > current + 1e-12 and (rule, position) != (removed, index):
                strategy, improved = candidate, True
                if log:
                    log(f"  refit rule {index + 1}: +{value - current:.7f}")
        if not improved:
            break
    return strategy


# --- from a priced table ---------------------------------------------------------------------------

def derive_basic(features: FeatureSet, values: dict, gain: np.ndarray, scale: int, title: str, parameters: dict,
                 log=None) -> Strategy:
    """A basic strategy named "basic" from exact per-class gains (weight x (EV of playing - EV of folding),
    gain / scale per ANTE).  parameters: max_rules, max_conditions, beam, penalty, features (None: every
    searched one) and seed (a TOML rule list whose rules stay, or None)."""
    if gain.dtype == object:
        raise OverflowError("the per-class gains do not fit in 64 bits for this paytable")
    use = parameters["features"] or [name for name in values if features.features[name].searched]
    cells = make_cells({name: values[name] for name in use}, gain.astype(np.int64), scale)
    search = RuleSearch(features, cells, max_conditions=parameters["max_conditions"], beam=parameters["beam"],
                        penalty=parameters["penalty"])
    seeds = [loads_strategy(parameters["seed"], features, "<derivation seed>")] if parameters["seed"] else []
    strategy = derive(search, "basic", title, parameters["max_rules"], log, seeds=seeds)
    return Strategy(strategy.game, "basic", title, strategy.rules, strategy.default, features)

"""Helpers the tests share: analyse through the pipeline in memory, publish, write rule-file variants, check a face
against the interface."""
from __future__ import annotations

import inspect
from pathlib import Path
from typing import Protocol

from analyzer.games import registry
from analyzer.publish import pipeline
from analyzer.publish.options import CheckOptions

QUICK_CHECKS = CheckOptions(samples=10, rounds=20_000)


def analyse(game: str, paths=None, executor=None, **options) -> list:
    """The analyses of the game's rule files (default: its built-in ones), counted once per deck and qualifier."""
    return [analysis for _, analysis in pipeline.analyse(registry.game(game), paths,
                                                         pipeline.Run(Path("."), executor=executor, options=options))]


def analyse_one(game: str, path=None, **options):
    return analyse(game, [path] if path else None, **options)[0]


def publish(game: str, analysis, root, checks: CheckOptions = QUICK_CHECKS, argv=None) -> Path:
    """Write one analysis's results folder under `root` (verified with light checks) and return it."""
    info = registry.game(game)
    return pipeline.publish(info, analysis.rule_file, analysis, pipeline.Run(Path(root), argv or [game], checks))


def run_game(game: str, root, paths=None, checks: CheckOptions = QUICK_CHECKS) -> list[Path]:
    """Analyse and publish like `analyzer <game>`; the folders written."""
    return [p.folder for p in pipeline.run_game(registry.game(game), paths,
                                                pipeline.Run(Path(root), [game], checks))]


def variant(tmp_path, game: str, replacements, name: str = "variant", builtin: int = 0) -> Path:
    """A copy of a built-in rule file with text replaced (each old text must be there) and rule_set = name."""
    path = registry.game(game).builtin_rule_paths[builtin]
    text = path.read_text()
    for default in ("operator", "standard"):
        text = text.replace(f'rule_set = "{default}"', f'rule_set = "{name}"')
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    out = Path(tmp_path) / f"{name}.toml"
    out.write_text(text)
    return out


def reduced_deck(tmp_path, game: str, ranks: str, suits: str, name: str = "small", more=()) -> Path:
    """A variant of the game's operator rules on a reduced deck."""
    return variant(tmp_path, game, [('ranks = "23456789TJQKA"', f'ranks = "{ranks}"'),
                                    ('suits = "cdhs"', f'suits = "{suits}"'), *more], name)


def plain_statistics(rounds: dict) -> dict:
    """The figures of a brute force's {net value: rounds}, in plain Fractions (what WagerStatistics must give)."""
    from fractions import Fraction
    total = sum(rounds.values())
    mean = sum(Fraction(v) * n for v, n in rounds.items()) / total
    variance = sum((Fraction(v) - mean) ** 2 * n for v, n in rounds.items()) / total
    return {"distribution": sorted((Fraction(v), n) for v, n in rounds.items() if n), "rounds": total, "mean": mean,
            "variance": variance, "hit": Fraction(sum(n for v, n in rounds.items() if v > 0), total),
            "push": Fraction(sum(n for v, n in rounds.items() if v == 0), total)}


def assert_statistics_equal(stats, rounds: dict) -> None:
    """A WagerStatistics against a brute force's {net value: rounds}: same counts, variance, hit frequency."""
    plain = plain_statistics(rounds)
    assert [(v.value, v.count) for v in stats.distribution] == plain["distribution"]
    assert stats.rounds == plain["rounds"]
    assert stats.mean == plain["mean"] and stats.variance == plain["variance"]
    assert stats.hit_frequency == plain["hit"] and stats.push_probability == plain["push"]


def marginal(rounds: dict, index=None, combine=None) -> dict:
    """{value: rounds} of one component (index) or of a combination combine(values) of a joint brute force."""
    out = {}
    for values, n in rounds.items():
        key = values[index] if combine is None else combine(values)
        out[key] = out.get(key, 0) + n
    return out


def members(protocol) -> dict:
    """{name: the protocol's function, or None for a data member} of a protocol and the protocols it extends."""
    found = {}
    for klass in reversed(protocol.__mro__):
        if Protocol in klass.__bases__:
            found.update({name: None for name in klass.__dict__.get("__annotations__", {})})
            found.update({name: value for name, value in klass.__dict__.items()
                          if inspect.isfunction(value) and not name.startswith("_")})
    return found


def satisfies(face, protocol) -> bool:
    """Whether `face` (a module) has every member of `protocol`, each function callable as the protocol
    calls it: its parameters bound to the protocol's (a runtime `isinstance` checks names only)."""
    if not isinstance(face, protocol):
        return False
    for name, wanted in members(protocol).items():
        if wanted is None:
            continue
        params = list(inspect.signature(wanted).parameters.values())[1:]            # without self
        try:
            inspect.signature(getattr(face, name)).bind(
                *(p.name for p in params if p.default is inspect.Parameter.empty),
                **{p.name: p.default for p in params if p.default is not inspect.Parameter.empty})
        except (TypeError, ValueError):
            return False
    return True

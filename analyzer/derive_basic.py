"""`python -m analyzer.derive_basic GAME`: re-derive a game's committed basic strategy from exact EVs.

The search (`analyzer.strategy.search`) and each game's parameters (its `basic` module)
do the work; this is only the command line around them.
"""
from __future__ import annotations

import argparse
import sys

from analyzer.games import registry

DERIVABLE = ("casino-holdem", "caribbean-stud")      # the games whose folder has a `basic` module


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analyzer.derive_basic", description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=DERIVABLE)
    parser.add_argument("--rules", metavar="PATH", help="rule file (default: the game's built-in operator rules)")
    parser.add_argument("--write", metavar="PATH", help="write the rule list (TOML) here (default: print it)")
    args = parser.parse_args(argv)
    from importlib import import_module
    game = registry.game(args.game)
    basic = import_module(f"{game.package}.basic")
    price = import_module(f"{game.package}.price")
    rule_file, rules = game.load_rules(args.rules)
    priced = price.price(game.module.count(rules), rules)
    strategy = basic.derive(priced, rule_file.name, log=lambda line: print(line, file=sys.stderr))
    parameters = {k: v for k, v in basic.DERIVATION_PARAMETERS.items() if k != "seed"}
    text = strategy.to_toml(
        f"Derived by `python -m analyzer.derive_basic {args.game}"
        f"{' --rules ' + str(args.rules) if args.rules else ''}` from the exact per-situation EVs of rule set "
        f"'{rule_file.name}' (rule file sha256 {rule_file.sha256}),\n{basic.SEEDED}, with {parameters}.\n"
        "Edit by re-deriving; the tests recompute every figure of this list.")
    if args.write:
        with open(args.write, "w", encoding="utf-8") as out:
            out.write(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The architecture holds: import contracts (layers, independent games, where matplotlib lives, sympy only
in the progressive, imported lazily), whose game lists are the registry's, and the advisor loads and answers
with neither matplotlib nor sympy available, and without counting anything until a shoe needs it."""
import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from analyzer import advisor
from analyzer.games import registry

ROOT = Path(__file__).resolve().parent.parent
LINT = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                              "sys.exit(lint_imports_command())"]


def lint(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(LINT + ["--no-cache"], cwd=cwd, capture_output=True, text=True,
                          env={"PYTHONPATH": str(cwd), "PATH": "/usr/bin:/bin"})


def test_import_contracts_hold():
    run = lint(ROOT)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout


@pytest.mark.parametrize("module,planted,contract", [
    ("analyzer/core/exact.py", "import analyzer.publish.report", "Layers point one way"),
    ("analyzer/games/baccarat/price.py", "import analyzer.games.casino_holdem.rules", "imports no other game folder"),
    ("analyzer/advisor.py", "import sympy", "The advisor loads and answers without"),
    ("analyzer/advisor.py", "import analyzer.games.baccarat.count", "The advisor loads and answers without"),
    ("analyzer/advisor.py", "import analyzer.games.casino_holdem.analysis", "The advisor loads and answers without"),
    ("analyzer/games/casino_holdem/price.py", "import matplotlib", "Counting and pricing never import rendering"),
    ("analyzer/games/caribbean_stud/outputs.py", "import sympy", "only analyzer.games.caribbean_stud.progressive imports"),
])
def test_a_planted_import_breaks_its_contract(tmp_path, module, planted, contract):
    """The contracts can fail: the same check on a copy of the package with one bad import added."""
    shutil.copytree(ROOT / "analyzer", tmp_path / "analyzer", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    target = tmp_path / module
    target.write_text(target.read_text() + f"\n{planted}  # planted by the test\n")
    run = lint(tmp_path)
    assert run.returncode != 0
    broken = run.stdout[run.stdout.index("Broken contracts"):]
    assert contract in broken


def contracts(text: str) -> list[dict]:
    return tomllib.loads(text)["tool"]["importlinter"]["contracts"]


def unlisted(contracts: list[dict], packages: set) -> list[str]:
    """What the contracts leave out: each contract that names some game's package but not every one, and the
    two that must name them all (the games' independence, the registry importing none)."""
    problems = []
    for contract in contracts:
        modules = {part.strip() for key, value in contract.items() if isinstance(value, list)
                   and key != "ignore_imports" for entry in value for part in str(entry).split("|")}
        named = {".".join(m.split(".")[:3]) for m in modules} & packages
        if named and named != packages:
            problems.append(f"{contract['name']}: lacks {sorted(packages - named)}")
    wanted = {("independence", "modules"), ("forbidden", "forbidden_modules")}
    found = {(c["type"], key) for c in contracts for key in ("modules", "forbidden_modules")
             if set(c.get(key, ())) == packages and (c["type"] == "independence" or c["source_modules"] ==
                                                     ["analyzer.games.registry"])}
    problems += [f"no {kind} contract lists every game" for kind, _ in sorted(wanted - found)]
    return problems


def test_the_contracts_list_every_registered_game():
    """Wherever pyproject.toml's contracts list the games, they list the registry's: a new game cannot be left
    unchecked (the other contracts name games by wildcard)."""
    text = (ROOT / "pyproject.toml").read_text()
    packages = {game.package for game in registry.GAMES}
    assert unlisted(contracts(text), packages) == []
    assert unlisted(contracts(text), packages | {"analyzer.games.toy"}) == [
        "A game folder imports no other game folder: lacks ['analyzer.games.toy']",
        "The registry names the games, it imports none of them: lacks ['analyzer.games.toy']",
        "no forbidden contract lists every game", "no independence contract lists every game"]
    independence = 'modules = ["analyzer.games.casino_holdem", "analyzer.games.caribbean_stud", "analyzer.games.baccarat"]'
    planted = text.replace(independence, independence.replace(' "analyzer.games.caribbean_stud",', ""), 1)
    assert planted != text
    assert unlisted(contracts(planted), packages) == [
        "A game folder imports no other game folder: lacks ['analyzer.games.caribbean_stud']",
        "no independence contract lists every game"]


LOADS_NOTHING_OF_COUNTING = """
import json, sys
from analyzer import advisor
strategies = [advisor.load_strategy(p) for p in sys.argv[1:4]]
games = sorted(name for name in sys.modules if name.startswith("analyzer.games."))
baccarat = strategies[2]
baccarat.decide(baccarat.shoe())                       # a reference shoe: its stored counts
before = "analyzer.games.baccarat.count" in sys.modules
baccarat.decide(baccarat.shoe(remove="5,5,9,K"))       # any other shoe is counted
print(json.dumps({"games": games, "counted": [before, "analyzer.games.baccarat.count" in sys.modules]}))
"""


def test_loading_strategy_files_counts_nothing(holdem_results, stud_results, baccarat_results):
    """The advisor reads every game's strategy file without importing any game's counting; only the light
    `advice` module of a live-shoe game, and its kernel once a shoe is not one of the file's reference shoes."""
    paths = [holdem_results / "strategy.bin.gz", stud_results / "caribbean_stud" / "operator" / "strategy.bin.gz",
             baccarat_results / "baccarat" / "operator" / "strategy.bin.gz"]
    run = subprocess.run([sys.executable, "-c", LOADS_NOTHING_OF_COUNTING, *map(str, paths)], capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout)
    assert "analyzer.games.baccarat.advice" in seen["games"]
    assert not any(name.endswith((".count", ".analysis", ".outputs", ".checks", ".game")) for name in seen["games"])
    assert seen["counted"] == [False, True]


BLOCKER = """
import importlib.abc, json, sys
class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("matplotlib", "sympy"):
            raise ImportError(f"{name} is not available here")
sys.meta_path.insert(0, Blocked())
from analyzer import advisor
holdem, stud, baccarat = (advisor.load_strategy(p) for p in sys.argv[1:4])
answers = [holdem.decide("Ah Kd", "Qs 7h 2c").as_json(), stud.decide("Ah Kd 9s 5c 2h", "Qd").as_json(),
           baccarat.decide(baccarat.shoe(remove="5,5,9,K")).as_json()]
assert not any(name.split(".")[0] in ("matplotlib", "sympy") for name in sys.modules)
print(json.dumps(answers))
"""


def test_the_advisor_answers_without_matplotlib_and_sympy(holdem_results, stud_results, baccarat_results):
    paths = [holdem_results / "strategy.bin.gz", stud_results / "caribbean_stud" / "operator" / "strategy.bin.gz",
             baccarat_results / "baccarat" / "operator" / "strategy.bin.gz"]
    run = subprocess.run([sys.executable, "-c", BLOCKER, *map(str, paths)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    holdem, stud, baccarat = (advisor.load_strategy(p) for p in paths)
    expected = [holdem.decide("Ah Kd", "Qs 7h 2c").as_json(), stud.decide("Ah Kd 9s 5c 2h", "Qd").as_json(),
                baccarat.decide(baccarat.shoe(remove="5,5,9,K")).as_json()]
    assert json.loads(run.stdout) == expected


LAZY_SYMPY = """
import sys
from analyzer import cli
from analyzer.games.caribbean_stud import analysis, checks, design, outputs, progressive
assert "sympy" not in sys.modules, "imported with the modules"
from analyzer.games import registry
rules = registry.game("caribbean-stud").load_rules(sys.argv[1])[1]
figures = progressive.figures_of_counts(rules.progressive, [1] * 10)
assert "sympy" in sys.modules and figures.rtp_text
"""


def test_sympy_is_loaded_only_when_the_progressive_is_built():
    """The command line and every Caribbean Stud module import without sympy; building RTP(J) loads it."""
    from analyzer.games import registry
    rules = registry.game("caribbean-stud").builtin_rule_paths[0]
    run = subprocess.run([sys.executable, "-c", LAZY_SYMPY, str(rules)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr

"""Shared fixtures."""
import pytest

from analyzer import baccarat, casino_holdem
from analyzer.verify import CheckOptions

QUICK_CHECKS = CheckOptions(samples=10, rounds=20_000)


@pytest.fixture(scope="session")
def quick_checks():
    """Light pre-publication checks for tests that write results folders."""
    return QUICK_CHECKS


@pytest.fixture(scope="session")
def baccarat_rules():
    return baccarat.load_rules()


@pytest.fixture(scope="session")
def holdem_analysis():
    """The full Casino Hold'em analysis on the operator's rules (about 15 s on two cores)."""
    rule_file, rules = casino_holdem.load_rules()
    return casino_holdem.analyse(rule_file, rules)


@pytest.fixture(scope="session")
def holdem_results(holdem_analysis, tmp_path_factory):
    """The Hold'em results folder written from that analysis (strategy file and manifest)."""
    return casino_holdem.write_results(holdem_analysis, tmp_path_factory.mktemp("results"), ["casino-holdem"],
                                       QUICK_CHECKS)


@pytest.fixture(scope="session")
def stud_results(tmp_path_factory):
    """Both built-in Caribbean Stud rule sets written to a results root (about 10 s)."""
    from analyzer import caribbean_stud
    root = tmp_path_factory.mktemp("stud_results")
    caribbean_stud.run(None, root, ["caribbean-stud"], checks=QUICK_CHECKS)
    return root


@pytest.fixture(scope="session")
def baccarat_results(tmp_path_factory):
    root = tmp_path_factory.mktemp("baccarat_results")
    baccarat.run(None, root, ["baccarat"], checks=QUICK_CHECKS)
    return root

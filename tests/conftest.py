"""Shared fixtures: the built-in analyses, each made once per session, and results folders written from them."""
import pytest

import support
from analyzer.games import registry


@pytest.fixture(autouse=True, scope="session")
def count_cache_key(tmp_path_factory):
    """The count cache signs its files with a key made in a temporary folder, never the user's own."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ANALYZER_CACHE_KEY", str(tmp_path_factory.mktemp("count_cache_key") / "count-cache.key"))
        yield


@pytest.fixture(scope="session")
def quick_checks():
    """Light pre-publication checks for tests that write results folders."""
    return support.QUICK_CHECKS


@pytest.fixture(scope="session")
def baccarat_rules():
    return registry.game("baccarat").load_rules()


@pytest.fixture(scope="session")
def holdem_analysis():
    """The full Casino Hold'em analysis on the operator's rules (about 15 s on two cores)."""
    return support.analyse_one("casino-holdem")


@pytest.fixture(scope="session")
def holdem_results(holdem_analysis, tmp_path_factory):
    """The Hold'em results folder written from that analysis (strategy file and manifest)."""
    return support.publish("casino-holdem", holdem_analysis, tmp_path_factory.mktemp("results"))


@pytest.fixture(scope="session")
def stud_analyses():
    """Both built-in Caribbean Stud rule sets, counted once (a few seconds on two cores)."""
    return {analysis.rule_file.name: analysis for analysis in support.analyse("caribbean-stud")}


@pytest.fixture(scope="session")
def stud_results(stud_analyses, tmp_path_factory):
    """Both built-in Caribbean Stud rule sets written to a results root."""
    root = tmp_path_factory.mktemp("stud_results")
    for analysis in stud_analyses.values():
        support.publish("caribbean-stud", analysis, root)
    return root


@pytest.fixture(scope="session")
def baccarat_results(tmp_path_factory):
    root = tmp_path_factory.mktemp("baccarat_results")
    support.run_game("baccarat", root)
    return root

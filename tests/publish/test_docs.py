"""The README stays short and points at pages that exist; the docs name only commands, options, modules and
limits the code has."""
import argparse
import re
from pathlib import Path

import pytest

from analyzer.cli import build_parser
from analyzer.core.rules import MAX_RULE_FILE_BYTES, MAX_RULE_SET_NAME
from analyzer.games.baccarat.game import MAX_DECKS
from analyzer.publish import readme
from analyzer.publish.count_cache import DEFAULT_MAX_BYTES

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = readme.documents(ROOT)
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")                      # a Markdown link's target
PATH = re.compile(r"`((?:analyzer|cython_ext|benchmarks|tests|docs)/[\w./-]*\w)`")   # a repository path in code
MODULE = re.compile(r"`(analyzer(?:\.\w+)+)")                            # a dotted module (or its attribute)
COMMAND = re.compile(r"^analyzer ([a-z][a-z-]*)(.*)$", re.M)                  # a command line in a code block
CODE = re.compile(r"`[^`\n]*`")                                       # inline code: no link in it
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z-]*)")


def text_of(path: Path) -> str:
    return path.read_text()


def test_the_readme_is_short():
    assert len(text_of(ROOT / "README.md").splitlines()) <= 150


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_link_and_path_exists(document):
    text = text_of(document)
    links = [target for target in LINK.findall(CODE.sub("", text)) if "://" not in target]
    missing = [target for target in links if not (document.parent / target).exists()]
    missing += [path for path in PATH.findall(text) if "<" not in path and not (ROOT / path).exists()]
    assert missing == []


def test_the_readme_links_every_page_of_docs():
    linked = {(ROOT / target).resolve() for target in LINK.findall(text_of(ROOT / "README.md"))}
    assert {page.resolve() for page in (ROOT / "docs").glob("*.md")} <= linked


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_module_named_exists(document):
    """`analyzer.x.y` names a module, or an attribute of one (`analyzer.advisor.load_strategy`)."""
    import importlib
    missing = []
    for name in set(MODULE.findall(text_of(document))):
        parts = name.split(".")
        for cut in range(len(parts), 0, -1):
            module = ".".join(parts[:cut])
            if (ROOT / Path(*parts[:cut])).with_suffix(".py").exists() or (ROOT / Path(*parts[:cut])).is_dir():
                break
        value = importlib.import_module(module)
        for attribute in parts[cut:]:
            value = getattr(value, attribute, None)
        missing += [name] if value is None else []
    assert missing == []


def subparsers(parser: argparse.ArgumentParser) -> dict:
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return actions[0].choices if actions else {}


def options(parser: argparse.ArgumentParser) -> set:
    """Every option string of `parser` and of the parsers below it (advise GAME)."""
    found = {s for a in parser._actions for s in a.option_strings}
    for child in subparsers(parser).values():
        found |= options(child)
    return found


def test_every_command_line_shown_is_the_cli_s():
    """Each `analyzer CMD ...` line of the README and docs/command-line.md names a command and only its options."""
    commands = subparsers(build_parser())
    wrong = []
    for document in (ROOT / "README.md", ROOT / "docs" / "command-line.md"):
        for command, rest in COMMAND.findall(text_of(document)):
            if command not in commands:
                wrong.append(command)
                continue
            known = options(commands[command]) | {"--help", "--version"}
            wrong += [f"{command} {option}" for option in OPTION.findall(rest.split("#")[0]) if option not in known]
    assert wrong == []


def test_every_option_named_exists():
    known = options(build_parser())
    text = text_of(ROOT / "docs" / "command-line.md")
    assert sorted(set(OPTION.findall(text)) - known) == []


def test_the_limits_quoted_are_the_code_s():
    rules, cache = (" ".join(text_of(ROOT / "docs" / name).split()) for name in ("rule-files.md", "command-line.md"))
    assert MAX_RULE_FILE_BYTES % (1 << 20) == 0 and f"at most {MAX_RULE_FILE_BYTES >> 20} MiB" in rules
    assert f"at most {MAX_RULE_SET_NAME} characters" in rules
    assert f"more than {MAX_DECKS} decks" in rules
    assert DEFAULT_MAX_BYTES % (1 << 30) == 0 and f"bounded at {DEFAULT_MAX_BYTES >> 30} GiB" in cache

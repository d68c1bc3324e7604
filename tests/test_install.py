"""The install step (setup.py) byte-compiles the package in place, so that no run compiles it from source."""
import importlib.util
import runpy
import shutil
from pathlib import Path

import setuptools

ROOT = Path(__file__).resolve().parent.parent


def test_an_in_place_build_byte_compiles_every_module(tmp_path, monkeypatch):
    given = {}
    monkeypatch.setattr(setuptools, "setup", lambda **options: given.update(options))
    runpy.run_path(str(ROOT / "setup.py"))
    command_class = given["cmdclass"]["build_ext"]
    package = shutil.copytree(ROOT / "analyzer", tmp_path / "analyzer", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(command_class, "package_folder", package)
    monkeypatch.setattr(command_class.__mro__[1], "run", lambda self: None)      # the kernels: built already
    command = command_class(setuptools.Distribution())
    command.initialize_options()
    command.inplace = 1
    command.run()
    sources = sorted(package.rglob("*.py"))
    assert len(sources) > 50
    assert [s for s in sources if not Path(importlib.util.cache_from_source(str(s))).is_file()] == []

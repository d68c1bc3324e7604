"""The README and docs/ quote no figure by hand: their figures blocks equal what `analyzer.publish.readme` renders
from results/."""
import re
from pathlib import Path

from analyzer.publish import readme

ROOT = Path(__file__).resolve().parents[2]
FIGURE = re.compile(r"\d+\.\d+%|\b\d+/\d{2,}\b")          # a percentage with decimals, or an exact fraction


def test_figures_blocks_equal_the_results():
    """Every document's blocks are the rendering; every block is in exactly one document, once."""
    names = []
    for document in readme.documents(ROOT):
        text = document.read_text()
        assert text == readme.render(text, ROOT / "results"), document.name
        names += [m.group("name") for m in readme.BLOCK.finditer(text)]
    assert sorted(names) == sorted(set(readme.RENDERERS) | set(readme.BENCHMARK_RENDERERS))


def test_no_figure_outside_the_blocks_in_the_figures_section():
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Figures"):text.index("## Documentation")]
    outside = readme.BLOCK.sub("", section)
    assert FIGURE.findall(outside) == []


def test_a_changed_result_makes_the_check_fail(tmp_path):
    """The check can fail: the same README against results whose one figure moved."""
    import shutil
    results = tmp_path / "results"
    shutil.copytree(ROOT / "results" / "baccarat", results / "baccarat")
    for game in ("casino_holdem", "caribbean_stud"):
        for folder in (ROOT / "results" / game).iterdir():
            (results / game / folder.name).mkdir(parents=True)
            shutil.copy(folder / "summary.json", results / game / folder.name)
    summary = results / "baccarat" / "operator" / "summary.json"
    summary.write_text(summary.read_text().replace("114753351728/10847218479825", "114753351729/10847218479825"))
    readme_path = tmp_path / "README.md"
    readme_path.write_text((ROOT / "README.md").read_text())
    assert readme.main([str(readme_path), "--results", str(results), "--benchmarks",
                        str(ROOT / "benchmarks" / "results"), "--check"]) == 1


def test_a_changed_measurement_makes_the_check_fail(tmp_path):
    """The speed block of docs/performance.md is rendered from benchmarks/results/: a moved measurement is caught."""
    import json
    import shutil
    benchmarks = tmp_path / "benchmarks"
    shutil.copytree(ROOT / "benchmarks" / "results", benchmarks)
    commands = json.loads((benchmarks / "commands.json").read_text())
    next(iter(commands["commands"].values()))["median_wall_s"] += 1
    (benchmarks / "commands.json").write_text(json.dumps(commands))
    arguments = [str(ROOT / "docs" / "performance.md"), "--results", str(ROOT / "results"), "--check"]
    assert readme.main(arguments + ["--benchmarks", str(ROOT / "benchmarks" / "results")]) == 0
    assert readme.main(arguments + ["--benchmarks", str(benchmarks)]) == 1

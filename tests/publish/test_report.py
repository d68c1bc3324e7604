"""Reports: every key figure exactly as the summary has it, self-contained HTML, byte-identical reruns."""
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import support
from analyzer.publish.markdown_html import body_html, to_html
from analyzer.publish.report import summary_figures


def test_report_holds_every_summary_figure(holdem_results):
    summary = json.loads((holdem_results / "summary.json").read_text())
    markdown = (holdem_results / "report.md").read_text()
    page = (holdem_results / "report.html").read_text()
    figures = summary_figures(summary)
    assert len(figures) > 30
    for path, exact, decimal in figures:
        assert f"| {path} | {exact} | {decimal} |" in markdown
        assert exact in page and decimal in page
    optimal = summary["strategies"]["optimal"]
    assert f"| house edge per ANTE, optimal strategy | {optimal['house_edge_per_ante']['exact']} |" in markdown


def test_report_sections_and_verification(holdem_results):
    markdown = (holdem_results / "report.md").read_text()
    for heading in ("Key figures", "The rules analysed", "Method", "Strategy", "Figures", "PAR sheet",
                    "Every figure of summary.json", "Verification", "Provenance"):
        assert f"\n## {heading}\n" in markdown
    assert "**PASS** spot re-enumeration" in markdown and "**FAIL**" not in markdown
    assert "**PASS** round statistics re-derived" in markdown and "**PASS** monte carlo variance" in markdown
    assert "### Volatility, hit frequency and the net result of a round" in markdown
    assert "![Net result of one round, optimal strategy" in markdown and "figure_net_distribution.svg" in markdown
    manifest = json.loads((holdem_results / "manifest.json").read_text())
    assert manifest["files"]["summary.json"] in markdown


def test_html_is_self_contained_and_well_formed(holdem_results):
    page = (holdem_results / "report.html").read_text()
    figures = re.findall(r"!\[[^]]*\]\((figure_\w+\.svg)\)", (holdem_results / "report.md").read_text())
    assert figures and page.count("<svg") == len(figures) and "<img" not in page
    assert not re.search(r"(src|href)=\"(https?:|//)", page)

    class Balance(HTMLParser):
        VOID = {"meta", "br", "hr", "img", "path", "use", "rect", "line", "stop", "circle"}

        def __init__(self):
            super().__init__()
            self.stack = []

        def handle_starttag(self, tag, attrs):
            if tag not in self.VOID:
                self.stack.append(tag)

        def handle_startendtag(self, tag, attrs):
            pass

        def handle_endtag(self, tag):
            if tag in self.VOID:
                return
            assert self.stack and self.stack[-1] == tag, (tag, self.stack[-3:])
            self.stack.pop()
    parser = Balance()
    parser.feed(page)
    assert parser.stack == []


def test_sections_rendered_apart_make_the_page_rendered_whole():
    """The report renders its sections apart (its tables in the drawing child, the rest around them): each section
    starting at a heading, the pieces join to what the whole Markdown renders to (every committed report)."""
    reports = sorted((Path(__file__).parents[2] / "results").glob("*/*/report.md"))
    assert len(reports) == 4
    for path in reports:
        markdown = path.read_text()
        svgs = {name: f"<svg id='{name}'></svg>" for name in re.findall(r"\]\((figure_\w+\.svg)\)", markdown)}
        cuts = [0] + [markdown.index(f"\n## {name}\n") + 1 for name in ("Figures", "PAR sheet", "Verification")]
        pieces = [markdown[start:stop] for start, stop in zip(cuts, cuts[1:] + [len(markdown)])]
        assert svgs and "".join(body_html(piece, svgs) for piece in pieces) == body_html(markdown, svgs), path


def test_the_page_is_the_whole_markdown_rendered(holdem_results):
    """report.build renders the page in sections while the figures are drawn: it is what the whole report.md,
    its figures inline, renders to."""
    markdown = (holdem_results / "report.md").read_text()
    svgs = {path.name: path.read_text() for path in holdem_results.glob("figure_*.svg")}
    title = markdown.splitlines()[0].removeprefix("# ")
    assert svgs and (holdem_results / "report.html").read_text() == to_html(markdown, svgs, title)


def test_baccarat_results_are_byte_identical_with_reports(tmp_path, quick_checks):
    first, = support.run_game("baccarat", tmp_path / "a", checks=quick_checks)
    second, = support.run_game("baccarat", tmp_path / "b", checks=quick_checks)
    for path in first.iterdir():
        assert path.read_bytes() == (second / path.name).read_bytes(), path.name
    assert "/tmp" not in (first / "report.md").read_text()


def test_markdown_renders_as_the_report_means_it():
    """CommonMark with tables: products stay products (sympy's 47*J/46486281 is no emphasis), bold and
    italics where written, right-aligned numeric columns, figures inline, raw HTML escaped."""
    markdown = ("# Title\n\n> a note\n\n| figure | function |\n|---|---:|\n| RTP | 47*J**2/46486281 + 9*J/7 |\n\n"
                "- **PASS** check: z * sigma / sqrt(N), h*W, <b>raw</b>\n\n![A figure](figure_x.svg)\n\n*Figure: A figure*\n")
    page = to_html(markdown, {"figure_x.svg": '<?xml version="1.0"?>\n<!DOCTYPE svg>\n<svg id="x"></svg>'}, "T & t")
    assert "<title>T &amp; t</title>" in page and "<h1>Title</h1>" in page and "<blockquote>" in page
    assert '<td style="text-align:right">47*J**2/46486281 + 9*J/7</td>' in page
    assert "<li><strong>PASS</strong> check: z * sigma / sqrt(N), h*W, &lt;b&gt;raw&lt;/b&gt;</li>" in page
    assert '<p><svg id="x"></svg></p>' in page and "<?xml" not in page and "<p><em>Figure: A figure</em></p>" in page


def test_the_rule_file_is_named_by_its_content_not_by_the_name_it_was_given(tmp_path, capsys):
    """Regenerating from a results folder's own rules.toml, as its report's provenance says, and from a copy of it
    under another name give the same files (the built-in rule file's name, found by sha256, in both); a rule
    file that is no built-in one is named by its sha256 alone.  The manifest's command line differs, as the
    commands do."""
    from pathlib import Path

    from analyzer.cli import main
    own = Path(__file__).resolve().parents[2] / "results" / "baccarat" / "operator" / "rules.toml"
    variant = tmp_path / "tie9.toml"
    variant.write_text(own.read_text().replace("tie = 8 ", "tie = 9 "))
    for original in (own, variant):
        copy = tmp_path / "renamed" / "another-name.toml"
        copy.parent.mkdir(exist_ok=True)
        copy.write_bytes(original.read_bytes())
        folders = []
        for path, out in ((original, tmp_path / "a"), (copy, tmp_path / "b")):
            assert main(["baccarat", "--rules", str(path), "--out", str(out), "--check-rounds", "0",
                         "--check-samples", "5", "--no-cache", "--quiet", "--replace"]) == 0, capsys.readouterr()
            folders.append(out / "baccarat" / "operator")
        first, second = folders
        assert sorted(p.name for p in first.iterdir()) == sorted(p.name for p in second.iterdir())
        for path in first.iterdir():
            if path.name != "manifest.json":
                assert path.read_bytes() == (second / path.name).read_bytes(), path.name
        manifests = [json.loads((folder / "manifest.json").read_text()) for folder in folders]
        assert [m.pop("command") for m in manifests] == [f"analyzer baccarat --rules {p} --out {o} --check-rounds 0 "
                                                         "--check-samples 5 --no-cache --quiet --replace"
                                                         for p, o in ((original, tmp_path / "a"), (copy, tmp_path / "b"))]
        assert manifests[0] == manifests[1]
        source = manifests[0]["rule_file"].get("source")
        assert source == ("baccarat.toml" if original == own else None)
        report = (first / "report.md").read_text()
        assert f"a byte-for-byte copy of {'`baccarat.toml`' if source else 'the rule file given'})" in report

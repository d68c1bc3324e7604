"""Reports: every key figure exactly as the summary has it, self-contained HTML, byte-identical reruns."""
import json
import re
from html.parser import HTMLParser

import support
from analyzer.publish.report import summary_figures, to_html


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

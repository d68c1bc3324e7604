"""The per-game report: a standalone account of every figure, in Markdown and self-contained HTML.

A game supplies what only it knows as a `ReportContent`; this module adds what every report has
(the rules, every figure of summary.json, the verification, the provenance).  The HTML is rendered
from the Markdown, the SVG figures inlined, so the two say the same thing.
"""
from __future__ import annotations

from analyzer.core.exact import decimal_str, fraction_str
from analyzer.figures.outputs import ReportContent
from analyzer.figures.tables import demote, markdown_table
from analyzer.publish.folder import ResultFolder
from analyzer.publish.markdown_html import body_html, page
from analyzer.publish.workbook import flat_items, rule_value_text


def rules_markdown(data: dict) -> str:
    """Every table of the rule file but [game] as key/value rows (nested tables flattened)."""
    return "\n".join(f"**[{section}]**\n\n" + markdown_table(
        ["key", "value"], [[key, rule_value_text(value, "yes", "no", "(none)")] for key, value in flat_items(values)], "ll")
        for section, values in data.items() if section != "game" and isinstance(values, dict))


def summary_figures(summary: dict, path: str = "") -> list[list[str]]:
    """Every {"exact", "decimal"} figure of a summary, with its path, in summary.json's (sorted) order."""
    if not isinstance(summary, dict):
        return []
    if set(summary) >= {"exact", "decimal"}:
        return [[path, summary["exact"], summary["decimal"]]]
    return [row for key, value in sorted(summary.items())
            for row in summary_figures(value, f"{path}.{key}" if path else key)]


def tables_markdown(content: ReportContent, summary: dict) -> str:
    """The report's bulk, known once the files are made: its PAR sheet and every figure of summary.json."""
    return "\n".join(["## PAR sheet\n", demote(content.par_sheet), "## Every figure of summary.json\n",
                      markdown_table(["figure", "exact", "decimal"], summary_figures(summary), "lll")])


def build(content: ReportContent, folder: ResultFolder, verification, drawing) -> dict:
    """report.md, report.html and the figure files of a results folder, from the analysis in memory: `folder`
    holds every other file, `verification` is the FolderReport on the staged folder, `drawing` (a Drawing)
    the figures' SVG text (None for one left out: its values lie beyond floats) and the HTML of
    `tables_markdown`, asked for once the rest of the page is rendered (a drawing child makes them meanwhile)."""
    manifest = folder.manifest()
    rule_file = folder.rules
    git = manifest["git"]
    commit = git["commit"] or "unknown"
    where = f"results/{folder.target.parent.name}/{manifest['rule_set']}"
    head = [
        f"# Exact analysis report: {rule_file.title}\n",
        f"> Exact combinatorial analysis, rule set `{manifest['rule_set']}`. Every figure is an exact "
        f"fraction (its decimal derived from it). Package {manifest['package']['name']} "
        f"{manifest['package']['version']}, git commit `{commit}`"
        f"{' (with uncommitted changes)' if git['dirty'] else ''}; rule file sha256 `{rule_file.sha256}`.\n",
        "## Key figures\n",
        markdown_table(["figure", "exact", "decimal", "note"],
                       [[k.label, fraction_str(k.value), decimal_str(k.value), k.note] for k in content.key_figures],
                       "llll"),
        "## The rules analysed\n",
        "From `rules.toml` (a byte-for-byte copy of "
        + (f"`{manifest['rule_file']['source']}`" if "source" in manifest["rule_file"] else "the rule file given")
        + ").\n",
        rules_markdown(rule_file.data),
        "## Method\n", content.method,
        "## Strategy\n", content.strategy,
    ]
    tail = ["## Verification\n",
            "Checked on the complete results folder before it was published (`analyzer verify` "
            "repeats these checks on the published folder):\n",
            "\n".join(f"- **{'PASS' if c.passed else 'FAIL'}** {c.name}: {c.detail}" for c in verification.checks)
            + "\n",
            "## Provenance\n",
            *([f"The counts were read from the count cache (key `{manifest['counts']['key']}`), not enumerated "
               "by this run: `analyzer verify` recounts them.\n"] if "counts" in manifest else []),
            f"Regenerate with `analyzer {manifest['game']} --rules {where}/rules.toml` from git commit "
            f"`{commit}`; the result is byte-identical. Files of this folder (sha256):\n",
            markdown_table(["file", "sha256"], [[name, f"`{digest}`"] for name, digest in manifest["files"].items()],
                           "ll"),
            "\nThe report itself and the manifest are listed in `manifest.json`.\n"]
    # Each section starts with a heading, so rendering them apart gives the page rendering them together would.
    head_html, tail_html = body_html("\n".join(head)), body_html("\n".join(tail))
    svgs = drawing.result()
    middle = ["## Figures\n"] if content.figures else []
    for figure in content.figures:
        middle.append(f"![{figure.caption}]({figure.file})\n\n*Figure: {figure.caption}*\n"
                      if svgs[figure.file] is not None else
                      f"*Figure left out: {figure.caption}. Its values lie beyond what floating point draws; "
                      "every figure of this report is exact.*\n")
    files = {name: svg for name, svg in svgs.items() if svg is not None}
    files["report.md"] = "\n".join(head + middle + [drawing.markdown] + tail)
    files["report.html"] = page(head_html + body_html("\n".join(middle), svgs) + drawing.html() + tail_html,
                                f"Exact analysis report: {rule_file.title}")
    return files

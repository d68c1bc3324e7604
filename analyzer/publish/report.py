"""The per-game report: a standalone account of every figure, in Markdown and self-contained HTML.

A game supplies what only it knows as a `ReportContent`; this module adds what every report has
(the rules, every figure of summary.json, the verification, the provenance).  The HTML is rendered
from the Markdown, the SVG figures inlined, so the two say the same thing.
"""
from __future__ import annotations

import html
import re

from analyzer.core.exact import decimal_str, fraction_str
from analyzer.figures.outputs import ReportContent
from analyzer.figures.tables import demote, markdown_table
from analyzer.publish.folder import ResultFolder
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


def build(content: ReportContent, folder: ResultFolder, summary: dict, verification, figures) -> dict:
    """report.md, report.html and the figure files of a results folder, from the analysis in memory: `folder`
    holds every other file, `verification` is the FolderReport on the staged folder, `figures()` the figures' SVG
    text (None for one left out: its values lie beyond floats), asked for once the rest of the page is rendered
    (a drawing child draws them meanwhile)."""
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
    tail = ["## PAR sheet\n", demote(content.par_sheet),
            "## Every figure of summary.json\n",
            markdown_table(["figure", "exact", "decimal"], summary_figures(summary), "lll"),
            "## Verification\n",
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
    svgs = figures()
    middle = ["## Figures\n"] if content.figures else []
    for figure in content.figures:
        middle.append(f"![{figure.caption}]({figure.file})\n\n*Figure: {figure.caption}*\n"
                      if svgs[figure.file] is not None else
                      f"*Figure left out: {figure.caption}. Its values lie beyond what floating point draws; "
                      "every figure of this report is exact.*\n")
    files = {name: svg for name, svg in svgs.items() if svg is not None}
    files["report.md"] = "\n".join(head + middle + tail)
    files["report.html"] = page(head_html + body_html("\n".join(middle), svgs) + tail_html,
                                f"Exact analysis report: {rule_file.title}")
    return files


# --- Markdown to HTML (markdown-it-py, CommonMark with tables) --------------------------

CSS = """body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:60rem;margin:2rem auto;
padding:0 1rem;color:#222;line-height:1.45}table{border-collapse:collapse;margin:.6rem 0;font-size:.85rem}
th,td{border:1px solid #ccc;padding:.2rem .45rem;vertical-align:top}th{background:#f0f0f0}
td[style]{font-variant-numeric:tabular-nums}code{font-size:.85em;background:#f5f5f5;padding:0 .2em}
blockquote{border-left:4px solid #4a6fa5;margin:1rem 0;padding:.3rem 1rem;background:#f7f9fc}
svg{display:block;margin:1rem 0}h1{font-size:1.6rem}h2{border-bottom:1px solid #ddd}"""


def _inline_svg(renderer, tokens, index, options, env) -> str:
    """An image is one of the report's figures: its SVG text in the page (no file to fetch)."""
    svg = env["svgs"][tokens[index].attrs["src"]]
    return re.sub(r"^<\?xml[^>]*>\s*(<!DOCTYPE[^>]*>\s*)?", "", svg)


def body_html(markdown: str, svgs: dict | None = None) -> str:
    """The HTML of Markdown (CommonMark with tables), its images the figures of `svgs` (by file name) inline.
    Raw HTML in the Markdown is escaped: the page holds only what the renderer makes and the figures."""
    from markdown_it import MarkdownIt       # imported when a report is rendered, not with the pipeline
    renderer = MarkdownIt("commonmark", {"html": False}).enable("table")
    renderer.add_render_rule("image", _inline_svg)
    # a * between letters or digits is a product (sympy's 47*J/46486281, J**2), never emphasis
    markdown = re.sub(r"(?<=\w)\*+(?=\w)", lambda run: "\\*" * len(run[0]), markdown)
    return renderer.render(markdown, {"svgs": svgs or {}})


def page(body: str, title: str) -> str:
    """A self-contained HTML page of a rendered body."""
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{CSS}</style></head><body>\n{body}</body></html>\n")


def to_html(markdown: str, svgs: dict, title: str) -> str:
    """A self-contained HTML page of Markdown, its figures (`svgs`, by file name) inline."""
    return page(body_html(markdown, svgs), title)

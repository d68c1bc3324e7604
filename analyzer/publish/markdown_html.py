"""Markdown to a self-contained HTML page (markdown-it-py, CommonMark with tables), the figures' SVG inline.

Its own module so that the drawing child, which renders the reports' large tables while this process
works, imports markdown-it and nothing of the pipeline.
"""
from __future__ import annotations

import html
import re

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

"""Exact figures of a round: distributions, wager statistics, tables rendered as Markdown, CSV and workbook cells."""

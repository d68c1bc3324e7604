"""Turning analyses into published results: atomic folders, reports, figures, workbooks, verification."""

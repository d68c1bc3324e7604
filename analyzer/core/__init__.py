"""The foundation every layer stands on: exact arithmetic, cards, rule files, errors, execution."""

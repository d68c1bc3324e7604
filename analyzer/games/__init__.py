"""One folder per game; `registry` is the one list of games."""

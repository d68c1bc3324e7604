"""High card, a toy game that lives only in the tests: a folder and one registry entry (tests/games/test_toy_game.py)."""

"""High card, a toy game that lives only in the tests: this folder and one registry entry
(tests/games/test_toy_game.py)."""

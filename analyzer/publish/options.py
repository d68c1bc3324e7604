"""How hard to check before publishing (and in `analyzer verify`): one small value object, used everywhere."""
from __future__ import annotations

from dataclasses import dataclass

DEFAULT_SAMPLES = 200


@dataclass(frozen=True)
class CheckOptions:
    """Situations re-enumerated, Monte Carlo rounds (None = the game's default), the seed, and whether
    `analyzer verify` re-counts the round statistics (the publishing run passes its own counts)."""

    samples: int = DEFAULT_SAMPLES
    rounds: int | None = None
    seed: int = 1
    recount: bool = True

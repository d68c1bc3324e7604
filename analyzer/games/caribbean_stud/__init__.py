"""Caribbean Stud Poker with the progressive jackpot."""

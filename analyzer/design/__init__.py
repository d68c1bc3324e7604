"""Payout design: the EV as a piecewise-linear function of one payout, its breakpoints, and solving for a target."""

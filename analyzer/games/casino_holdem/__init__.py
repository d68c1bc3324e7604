"""Casino Hold'em with the AA Bonus side bet."""

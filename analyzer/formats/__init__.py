"""The files other programs read: the strategy file and the results manifest."""

"""Strategies a person can play: the rule-list language, its exact costs, and the search that derives one."""

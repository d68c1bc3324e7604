"""What both poker games share: hands, settlement, the decision table, strategy figures and files."""

"""The one base class for input a user can fix: the CLI reports it in one line and exits 2."""


class InputError(ValueError):
    """Bad input: a rule file, card text, shoe or option that cannot be analysed."""

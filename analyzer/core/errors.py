"""The two kinds of failure the command line reports in one line, without a traceback.

`InputError` is input a user can fix (a rule file, card text, shoe or option): exit 2.
`InvariantError` is an internal check that failed (a verification before publishing, a
strategy that does not reproduce its figures, counts that do not cover every deal): not
the user's fault, nothing is published, exit 1.
"""


class InputError(ValueError):
    """Bad input: a rule file, card text, shoe or option that cannot be analysed."""


class InvariantError(RuntimeError):
    """An internal consistency check failed; the message says which and where."""

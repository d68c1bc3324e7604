"""The failures the command line reports in one line, without a traceback: `InputError` (the user can
fix it: exit 2), `InvariantError` (an internal check failed: exit 1) and `OutputError` (results could
not be written: exit 1, the previous results left as they were); nothing is published after any.
"""


class InputError(ValueError):
    """Bad input: a rule file, card text, shoe or option that cannot be analysed."""


class InvariantError(RuntimeError):
    """An internal consistency check failed; the message says which and where."""


class OutputError(RuntimeError):
    """Results could not be written (e.g. the disk is full); nothing was published, nothing left half-written."""


def one_line(error: BaseException, named: bool = False) -> str:
    """The error's message on one line; `named` prefixes one that is not an InputError with its type."""
    text = " ".join(str(error).split())
    if not named or isinstance(error, InputError):
        return text
    return f"{type(error).__name__}: {text}" if text else type(error).__name__

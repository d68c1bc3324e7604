"""The two kinds of failure the command line reports in one line, without a traceback.

`InputError` is input a user can fix (a rule file, card text, shoe or option): exit 2.
`InvariantError` is an internal check that failed (a verification before publishing, a
strategy that does not reproduce its figures, counts that do not cover every deal): not
the user's fault, nothing is published, exit 1.  `OutputError` is results that could not
be written although the output folder was fine when the run began (a full disk): exit 1,
the previous results left as they were.
"""


class InputError(ValueError):
    """Bad input: a rule file, card text, shoe or option that cannot be analysed."""


class InvariantError(RuntimeError):
    """An internal consistency check failed; the message says which and where."""


class OutputError(RuntimeError):
    """Results could not be written (e.g. the disk is full); nothing was published, nothing left half-written."""


def one_line(error: BaseException, named: bool = False) -> str:
    """The error's message on one line (a message never spans lines on stderr or in a check).

    named: an error that is not an InputError is prefixed with its type ("KeyError: 'x'"), so a
    report that lists any failure says what kind it was; the CLI, which says the kind itself, does not.
    """
    text = " ".join(str(error).split())
    if not named or isinstance(error, InputError):
        return text
    return f"{type(error).__name__}: {text}" if text else type(error).__name__

"""The exceptions of nccc (docs/PYTHON.md, "Errors").

Every error the support library raises is an nccc.Error, with the status
the runtime gave (or None), the function and the parameter (1-based, or
None) it is about; bad arguments are also the exceptions Python users
expect: TypeError, OverflowError, ValueError.
"""


class Error(Exception):
    """An nccc error: .status (an nccc status code, or None), .function
    (the function's name, or None), .parameter (1-based, or None)."""

    def __init__(self, message, status=None, function=None, parameter=None):
        super().__init__(message)
        self.status = status
        self.function = function
        self.parameter = parameter


class ArgumentError(Error, TypeError):
    """A wrong argument count, type, NULL where not allowed, an unknown
    struct field, a non-integral number for an integer."""


class ArgumentRangeError(Error, OverflowError):
    """An integer or float out of its C type's range."""


class ArgumentValueError(Error, ValueError):
    """A value of the right type that cannot be used: a string with a NUL
    byte, a closed owned object, a released closure, an unknown scope."""


class UnknownError(Error, LookupError):
    """No such module, function, constant, type or callback type."""


class CallbackError(Error):
    """One or more callbacks raised during a call; the first exception is
    the __cause__, all of them are in .errors."""

    def __init__(self, message, errors, function=None):
        super().__init__(message, function=function)
        self.errors = errors


class PackedError(Error):
    """A packed function call failed (TVM status in .status)."""


class RemoteError(Error):
    """A call of a function bound from a device failed on the way: the
    link, a timeout, a restart, a request too big (.status: the
    NCCC_ERR_RPC_... status; docs/RPC.md, "Faults")."""


def describe_type(v):
    """A value's type for "... expected, got TYPE"."""
    return "None" if v is None else type(v).__name__


def bad_argument(cls, k, name, why, status=None):
    return cls("bad argument #%d to '%s' (%s)" % (k, name, why),
               status=status, function=name, parameter=k)


def count_error(name, want, got, at_least=False):
    return ArgumentError("'%s' expects %s%d argument%s, got %d" % (
        name, "at least " if at_least else "", want,
        "" if want == 1 else "s", got), function=name)


def callback_error(errors, name=None):
    """The CallbackError of the errors callbacks raised during one call."""
    first = errors[0]
    text = "error in callback: %s" % (first,)
    if len(errors) > 1:
        text += " (and %d more callback error%s)" % (
            len(errors) - 1, "" if len(errors) == 2 else "s")
    if name:
        text = "'%s': %s" % (name, text)
    err = CallbackError(text, list(errors), function=name)
    err.__cause__ = first
    return err


def refused_by_c(name, status, message, statuses):
    """The error of a call C's wrapper refused (docs/CALLBACKS.md,
    "Refused calls"): status and message the runtime's last error;
    statuses the ABI's status codes by name."""
    cls = {statuses["ERR_NULL_POINTER"]: ArgumentError,
           statuses["ERR_STALE_CLOSURE"]: ArgumentValueError}.get(status, Error)
    return cls("'%s': %s" % (name, message), status=status, function=name)

"""The value descriptions of the binding records (docs/BINDING.md,
"Value descriptions"), as the Rust emitter reads them: which pointer
arguments of a function or callback are slices, of what kind, and which
arguments are their counts (the slice gives them)."""

from stubgen.ctype import STRING_CODE


def described(record):
    """A function's or callback type's record's value descriptions by
    argument position: the first target's (positions, kinds and counts
    are the same on every target; only strides differ)."""
    values = record.get("values")
    return {d["arg"]: d for d in values[0]} if values else {}


def counts(descriptions):
    """The positions of the arguments that are another's count."""
    return {d["count"]["arg"] for d in descriptions.values() if "arg" in d["count"]}


def counted(d):
    """Whether a description (or None) is a slice: its count another
    argument."""
    return d is not None and "arg" in d["count"]


def string_array(d):
    """Whether a description (or None) is a [zero_terminated] array of C
    strings."""
    return d is not None and d["kind"] == "array" and d.get("code") == STRING_CODE \
        and "zero_terminated" in d["count"]

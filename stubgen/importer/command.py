"""The --import command of nccc-stubgen:

    nccc-stubgen --import HEADER [--cflags=FLAGS] [--filter PREFIX]
                 [--module NAME] [--library LIB] [--update OLD.idl]
                 [-o M.idl]

writes the draft IDL to M.idl (standard output without -o). With
--update, the draft is merged into OLD.idl (update.py) and what was
added, changed and removed is reported on standard error; HEADER and the
other options may then be left out: the first lines of OLD.idl record
them. Exit status as for the generator: 1 a header that does not
compile (HEADER:LINE:COL: error: ...), 2 a usage error, 3 no libclang."""

import os
import shlex
import sys

RECORD = "// nccc-stubgen "


def run(args, prog, usage):
    """Runs the import described by the parsed options; returns the exit
    status. usage(message) reports a usage error (and returns 2)."""
    from stubgen.importer import (FrontEndMissing, HeaderError,
                                  LibraryMissing, import_header, update)
    old_text = None
    if args.update:
        try:
            with open(args.update, encoding="utf-8") as f:
                old_text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            return usage("cannot read %s: %s" % (args.update, e))
        _recorded(args, old_text)
    if not args.import_header:
        return usage("--import needs the header (or --update with an IDL "
                     "that records it)")
    if not os.path.isfile(args.import_header) or \
            not os.access(args.import_header, os.R_OK):
        return usage("cannot read %s" % args.import_header)
    cflags = [f for text in args.cflags or () for f in shlex.split(text)]
    try:
        draft = import_header(args.import_header, cflags, args.filter or "",
                              args.module, args.library)
    except LibraryMissing as e:
        return usage(str(e))
    except HeaderError as e:
        print(str(e), file=sys.stderr)
        return 1
    except FrontEndMissing as e:
        print("%s: error: %s" % (prog, e), file=sys.stderr)
        return 3
    draft = _with_record(draft, args)
    if old_text is not None:
        merged = update.merge(old_text, draft)
        for what, names in (("added", merged.added),
                            ("changed", merged.changed),
                            ("removed", merged.removed)):
            for name in names:
                print("%s: %s %s" % (prog, what, name), file=sys.stderr)
        draft = merged.text
    if args.output is None:
        sys.stdout.write(draft)
        return 0
    try:
        with open(args.output, "w", encoding="utf-8", newline="\n") as f:
            f.write(draft)
    except OSError as e:
        print("%s: error: cannot write %s: %s"
              % (prog, args.output, e.strerror), file=sys.stderr)
        return 1
    return 0


def _options(args):
    opts = ["--import", args.import_header]
    opts += ["--cflags=%s" % c for c in args.cflags or ()]
    if args.filter:
        opts.append("--filter=%s" % args.filter)
    if args.module:
        opts.append("--module=%s" % args.module)
    if args.library:
        opts.append("--library=%s" % args.library)
    return opts


def _with_record(draft, args):
    """The draft with its second line recording the options, so that
    --update needs only the IDL."""
    first, rest = draft.split("\n", 1)
    return "%s\n%s%s\n%s" % (first, RECORD, shlex.join(_options(args)), rest)


def _recorded(args, text):
    """Fills the options the command line leaves out from the record in
    the previous IDL."""
    for line in text.splitlines()[:5]:
        if not line.startswith(RECORD):
            continue
        words = shlex.split(line[len(RECORD):])
        seen = {}
        i = 0
        while i < len(words):
            w = words[i]
            name, _, value = w.partition("=")
            if name == "--import" and i + 1 < len(words):
                value = words[i + 1]
                i += 1
            seen.setdefault(name, []).append(value)
            i += 1
        args.import_header = args.import_header or \
            seen.get("--import", [None])[0]
        args.cflags = args.cflags or seen.get("--cflags")
        args.filter = args.filter or seen.get("--filter", [None])[0]
        args.module = args.module or seen.get("--module", [None])[0]
        args.library = args.library or seen.get("--library", [None])[0]
        return

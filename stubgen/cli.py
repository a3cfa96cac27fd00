"""nccc-stubgen [--check] [--lang LIST] [-o DIR] FILE.idl
nccc-stubgen --import HEADER [--cflags=FLAGS] [--filter PREFIX]
             [--module NAME] [--library LIB] [--update OLD.idl] [-o M.idl]

Exit status: 0 success, 1 an error in the IDL file (or an output file that
cannot be written), 2 a usage error (bad option, unreadable input file),
3 an internal error of the generator (a bug: please report it).
"""

import argparse
import gc
import os
import sys

from stubgen import (__version__, emit_c, emit_js, emit_lua, emit_python,
                     emit_records, emit_rust, emit_scheme)
from stubgen.errors import IdlError
from stubgen.docs import doc

PROG = "nccc-stubgen"

# language name -> emit(module, idl_name) -> {file name: text}
EMITTERS = {
    "c": emit_c.emit,
    "lua": emit_lua.emit,
    "python": emit_python.emit,
    "scheme": emit_scheme.emit,
    "rust": emit_rust.emit,
    "js": emit_js.emit,
    "records": emit_records.emit,
}


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _UsageError(message)


class _Formatter(argparse.HelpFormatter):
    """"Usage:" as GNU programs print it, which help2man reads into the
    man page's synopsis (cmake/NcccInstallDocs.cmake)."""

    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups,
                          "Usage: " if prefix is None else prefix)


def _parser():
    p = _Parser(
        prog=PROG,
        formatter_class=_Formatter,
        usage="%(prog)s [--lang LIST] [-o DIR] [--check] FILE.idl\n"
              "   or: %(prog)s --import HEADER [options] [-o FILE.idl]",
        description="Generate nccc wrappers from an IDL file.",
        epilog="Exit status: 0 done, 1 error in the IDL (messages "
               "FILE:LINE:COL: error: ...), 2 usage error, 3 internal "
               "error.")
    p.add_argument("idl", metavar="FILE.idl", nargs="?", help="the IDL file")
    p.add_argument("--check", action="store_true",
                   help="parse and check only; write nothing")
    p.add_argument("--lang", default="c", metavar="LIST",
                   help="comma-separated targets (default: c; known: %s)"
                   % ", ".join(sorted(EMITTERS)))
    p.add_argument("-o", "--output", default=None, metavar="DIR",
                   help="output directory (default: .); created if missing; "
                   "with --import the IDL file (default: standard output)")
    g = p.add_argument_group("drafting an IDL from a C header (%s)"
                             % doc("IMPORT.md"))
    g.add_argument("--import", dest="import_header", nargs="?", const="",
                   metavar="HEADER", help="write a draft IDL for HEADER")
    g.add_argument("--cflags", action="append", metavar="FLAGS",
                   help="compiler flags for the header (--cflags='-I. -DX')")
    g.add_argument("--filter", metavar="PREFIX",
                   help="only functions whose name starts with PREFIX")
    g.add_argument("--module", metavar="NAME",
                   help="the module name (default: the header's name)")
    g.add_argument("--library", metavar="LIB",
                   help="leave out the functions the shared library LIB "
                   "does not export (libsqlite3.so.0)")
    g.add_argument("--update", metavar="OLD.idl",
                   help="merge the draft into OLD.idl, keeping its "
                   "annotations")
    p.add_argument("--version", action="version",
                   version="%s %s" % (PROG, __version__))
    return p


def _langs(text):
    langs = []
    for lang in text.split(","):
        lang = lang.strip()
        if not lang:
            continue
        if lang not in EMITTERS:
            raise _UsageError("unknown language '%s' (known: %s)"
                              % (lang, ", ".join(sorted(EMITTERS))))
        if lang not in langs:
            langs.append(lang)
    if not langs:
        raise _UsageError("--lang needs at least one language")
    return langs


def generate(text, idl_name, langs):
    """IDL text -> {file name: text} for the given languages; IdlError on
    a bad IDL. The entry point for tests and other tools."""
    from stubgen.model import build
    module = build(text)
    files = {}
    for lang in langs:
        files.update(EMITTERS[lang](module, idl_name))
    return files


def main(argv=None):
    if argv is None:
        argv = sys.argv[1:]
    argv = _cflags_joined(argv)
    parser = _parser()
    try:
        args = parser.parse_args(argv)
        langs = _langs(args.lang)
    except _UsageError as e:
        parser.print_usage(sys.stderr)
        print("%s: error: %s" % (PROG, e), file=sys.stderr)
        return 2
    except SystemExit as e:      # --help, --version
        return e.code if isinstance(e.code, int) else 0
    if args.import_header is not None or args.update:
        from stubgen.importer.command import run
        return _guarded(lambda: run(args, PROG,
                                    lambda message: _usage(parser, message)),
                        "the header")
    if args.idl is None:
        return _usage(parser, "the following arguments are required: "
                      "FILE.idl")
    try:
        with open(args.idl, "rb") as f:
            raw = f.read()
    except OSError as e:
        print("%s: error: cannot read %s: %s"
              % (PROG, args.idl, e.strerror), file=sys.stderr)
        return 2
    return _guarded(lambda: _run(args, raw, langs), "the IDL file")


def _cflags_joined(argv):
    """`--cflags -I. -DX` as `--cflags=-I. -DX`: flags start with '-',
    which argparse would take for options."""
    out = list(argv)
    for i in range(len(out) - 1, -1, -1):
        if out[i] == "--cflags" and i + 1 < len(out):
            out[i:i + 2] = ["--cflags=" + out[i + 1]]
    return out


def _usage(parser, message):
    parser.print_usage(sys.stderr)
    print("%s: error: %s" % (PROG, message), file=sys.stderr)
    return 2


def _guarded(step, what):
    """step()'s exit status; 3 for a bug, said without a traceback."""
    try:
        return step()
    except Exception as e:
        print("%s: internal error: %s: %s (please report this with %s)"
              % (PROG, type(e).__name__, e, what), file=sys.stderr)
        return 3


def _run(args, raw, langs):
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        print("%s:%d:%d: error: the file is not UTF-8 text"
              % (args.idl, line, col), file=sys.stderr)
        return 1
    text = text.replace("\r\n", "\n")
    # The parse and the model are a few hundred thousand small objects
    # that all live until the files are written: the cycle collector,
    # run every few hundred allocations, frees none of them and took a
    # fifth of the time (bench/run_gen.py).
    gc.disable()
    try:
        files = generate(text, os.path.basename(args.idl), langs)
    except IdlError as e:
        print(e.format(args.idl, text), file=sys.stderr)
        return 1
    finally:
        gc.enable()
    if args.check:
        return 0
    try:
        args.output = args.output or "."
        os.makedirs(args.output, exist_ok=True)
        for name in sorted(files):
            path = os.path.join(args.output, name)
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(files[name])
    except OSError as e:
        print("%s: error: cannot write %s: %s"
              % (PROG, e.filename or args.output, e.strerror),
              file=sys.stderr)
        return 1
    return 0

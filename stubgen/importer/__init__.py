"""nccc-stubgen --import: a draft IDL from a C header.

The pipeline: `front` (libclang parses the header with the user's flags)
-> `read` and `macros` (clang's cursors -> the declaration model of
`decls`) -> `rules` and `callbacks` (annotations, each with a comment
naming its rule, and `// REVIEW:` comments) -> `write` (the IDL text).
`update` merges a new draft into the previous IDL. docs/IMPORT.md
describes the rules."""

import ctypes
import os
import re

from stubgen.importer import front, rules, write
from stubgen.importer.front import FrontEndMissing, HeaderError  # noqa: F401

_SYSTEM_DIRS = ("/usr/include", "/usr/local/include")


def import_header(path, cflags=(), prefix="", module=None, library=None):
    """The draft IDL text of the header at path; HeaderError if it does
    not compile, FrontEndMissing without libclang. With library (a
    shared library's file or soname), functions it does not export are
    left out."""
    tu = front.parse(path, cflags)
    from stubgen.importer import macros     # these need clang.cindex,
    from stubgen.importer.read import Reader  # which front.parse checked
    reader = Reader(tu, path, front.library_files(tu, path), prefix)
    header = reader.read()
    macros.constants(reader, cflags)
    if library:
        _exported_only(header, library)
    rules.apply(header)
    return write.draft(header, module or module_name(path),
                       include_line(path, cflags))


class LibraryMissing(Exception):
    """--library names a library that cannot be loaded."""


def _exported_only(header, library):
    """Leaves out the functions the library does not export: a header
    may declare what only some builds of the library have."""
    try:
        lib = ctypes.CDLL(library)
    except OSError as e:
        raise LibraryMissing("cannot load %s: %s" % (library, e))
    for f in header.functions:
        if f.left_out is None and not f.defined and not hasattr(lib, f.name):
            f.left_out = "%s does not export it (a build option of the " \
                "library?)" % os.path.basename(library)


def module_name(path):
    """The header's base name as a C identifier: sqlite3.h -> sqlite3."""
    base = os.path.splitext(os.path.basename(path))[0]
    name = re.sub(r"\W", "_", base)
    return "m_" + name if name[:1].isdigit() else name


def include_line(path, cflags):
    """<rel> for a header under a system or -I directory, else "base"."""
    full = os.path.abspath(path)
    dirs = [f[2:] for f in cflags if f.startswith("-I") and len(f) > 2]
    for d in list(_SYSTEM_DIRS) + dirs:
        d = os.path.abspath(d)
        if full.startswith(d + os.sep):
            return "<%s>" % os.path.relpath(full, d)
    return '"%s"' % os.path.basename(path)

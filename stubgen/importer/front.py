"""The C front end: libclang (Debian's python3-clang-14) parses the
header after the preprocessor with the user's flags. A header that does
not compile is a HeaderError at the first error clang reports."""

import ctypes.util
import glob
import os

from stubgen.errors import IdlError, Pos

# Tried when NCCC_LIBCLANG names no library and the loader finds none.
_LIBRARY = "/usr/lib/llvm-14/lib/libclang-14.so.1"

# Headers of the C library and the compiler: what the header includes
# from them is not the library's own API (types from there are written
# as opaque or as their scalar; their macros and functions are skipped).
_STANDARD = frozenset("""assert complex ctype errno fenv float inttypes
iso646 limits locale math setjmp signal stdalign stdarg stdatomic stdbool
stddef stdint stdio stdlib stdnoreturn string strings tgmath threads time
uchar wchar wctype unistd fcntl pthread sched features alloca endian
dirent dlfcn poll regex semaphore termios""".split())
_STANDARD_DIRS = ("/sys/", "/bits/", "/gnu/", "/asm/", "/asm-generic/",
                  "/linux/", "/clang/")


class HeaderError(IdlError):
    """A header the front end cannot parse: FILE:LINE:COL: error: ..."""

    def __init__(self, path, pos, message):
        super().__init__(pos, message)
        self.path = path

    def __str__(self):
        text = ""
        try:
            with open(self.path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            pass
        if self.pos is None:
            return "%s: error: %s" % (self.path, self.message)
        return self.format(self.path, text)


class FrontEndMissing(Exception):
    """libclang or its Python module is not installed."""


def _cindex():
    try:
        import clang.cindex as cindex
    except ImportError:
        raise FrontEndMissing("the Python module clang.cindex is missing "
                              "(apt-get install python3-clang-14)")
    if not cindex.Config.loaded:
        path = _library_file()
        cindex.Config.set_library_file(path)
        try:
            cindex.conf.lib
        except cindex.LibclangError:
            raise FrontEndMissing("libclang cannot be loaded from %s "
                                  "(apt-get install libclang-14-dev, or "
                                  "NCCC_LIBCLANG=FILE)" % path)
    return cindex


def _library_file():
    named = os.environ.get("NCCC_LIBCLANG")
    if named:
        return named
    found = ctypes.util.find_library("clang-14")
    if found:
        return found
    for path in (_LIBRARY,) + tuple(sorted(
            glob.glob("/usr/lib/llvm-*/lib/libclang-*.so.1"))):
        if os.path.exists(path):
            return path
    raise FrontEndMissing("libclang is missing (apt-get install "
                          "libclang-14-dev)")


def parse(path, cflags, extra=None, all_errors=False):
    """The translation unit of `path` (or, with `extra`, of an unsaved
    file `extra` = (name, text)). Raises HeaderError at the first error
    unless all_errors, in which case the errors come back as a list of
    (file, line) after the unit."""
    cindex = _cindex()
    index = cindex.Index.create()
    args = ["-x", "c", "-std=gnu11", "-ferror-limit=0"] + list(cflags)
    opts = (cindex.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
            | cindex.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES
            | cindex.TranslationUnit.PARSE_INCOMPLETE)
    name = extra[0] if extra else path
    try:
        tu = index.parse(name, args=args, options=opts,
                         unsaved_files=[extra] if extra else None)
    except cindex.TranslationUnitLoadError:
        raise HeaderError(path, None, "libclang cannot read the header")
    errors = []
    for d in tu.diagnostics:
        if d.severity < cindex.Diagnostic.Error:
            continue
        loc = d.location
        if all_errors:
            errors.append((loc.file.name if loc.file else None, loc.line))
            continue
        if loc.file is None:
            raise HeaderError(path, None, d.spelling)
        raise HeaderError(loc.file.name, Pos(loc.line, loc.column),
                          d.spelling)
    return (tu, errors) if all_errors else tu


def library_files(tu, path):
    """The files of the library's own API: the header and what it
    includes, except the C library's and the compiler's headers (and
    everything reached only through them)."""
    edges = {}
    for inc in tu.get_includes():
        src = os.path.realpath(inc.source.name)
        edges.setdefault(src, []).append(os.path.realpath(inc.include.name))
    own = {os.path.realpath(path)}
    todo = list(own)
    while todo:
        for dst in edges.get(todo.pop(), ()):
            if dst not in own and not _standard(dst):
                own.add(dst)
                todo.append(dst)
    return own


def _standard(path):
    base = os.path.basename(path)
    if base.endswith(".h") and base[:-2] in _STANDARD:
        return True
    return any(d in path for d in _STANDARD_DIRS)

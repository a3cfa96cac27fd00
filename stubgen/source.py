"""A small indenting text builder shared by every emitter.

    src = Source()
    with src.block("void f(void) {", "}"):
        src.line("g();")
    str(src)  ->  "void f(void) {\\n  g();\\n}\\n"

Blank lines never pile up (two blank() calls give one blank line) and a
file never starts or ends with one. Sections keep several named Sources
that are filled in any order and joined in a fixed order at the end, so an
emitter can add a declaration to the header while it writes a definition.
"""

import textwrap


class Source:
    """Lines of text with a current indentation."""

    def __init__(self, indent="  "):
        self._unit = indent
        self._depth = 0
        self._lines = []

    def line(self, text=""):
        """Adds one line at the current indentation (an empty text adds a
        blank line, like blank())."""
        if "\n" in text:
            raise ValueError("Source.line takes one line; use lines()")
        if text == "":
            self.blank()
        else:
            self._lines.append(self._unit * self._depth + text)
        return self

    def lines(self, text):
        """Adds a block of text, dedented, each line at the current
        indentation; blank lines in it are kept (but never doubled)."""
        body = textwrap.dedent(text).strip("\n")
        for ln in body.split("\n"):
            self.line(ln.rstrip())
        return self

    def blank(self):
        """Adds a blank line unless the last line is blank already or
        nothing has been written."""
        if self._lines and self._lines[-1] != "":
            self._lines.append("")
        return self

    def indent(self):
        self._depth += 1
        return self

    def dedent(self):
        if self._depth == 0:
            raise ValueError("Source.dedent below column 0")
        self._depth -= 1
        return self

    def block(self, opener, closer):
        """A context manager: opener, indented body, closer."""
        return _Block(self, opener, closer)

    def extend(self, other):
        """Appends the lines of another Source, indented to this one."""
        for ln in other._lines:
            if ln == "":
                self.blank()
            else:
                self._lines.append(self._unit * self._depth + ln)
        return self

    def empty(self):
        return not self._lines

    def __str__(self):
        lines = list(self._lines)
        while lines and lines[-1] == "":
            lines.pop()
        return "\n".join(lines) + "\n" if lines else ""


class _Block:
    def __init__(self, src, opener, closer):
        self.src, self.opener, self.closer = src, opener, closer

    def __enter__(self):
        self.src.line(self.opener)
        self.src.indent()
        return self.src

    def __exit__(self, *exc):
        self.src.dedent()
        self.src.line(self.closer)
        return False


class Sections:
    """Named Sources joined in a fixed order, with one blank line between
    non-empty sections."""

    def __init__(self, names, indent="  "):
        if len(set(names)) != len(names):
            raise ValueError("duplicate section name")
        self._order = list(names)
        self._sources = {n: Source(indent) for n in names}

    def __getitem__(self, name):
        try:
            return self._sources[name]
        except KeyError:
            raise KeyError("no section %r" % name) from None

    def join(self):
        parts = [str(self._sources[n]) for n in self._order]
        return "\n".join(p for p in parts if p)

"""Errors with a position in an IDL file, printed compiler-style.

Every problem with an IDL file, syntactic or semantic, is an IdlError; its
str() is

    FILE:LINE:COL: error: MESSAGE
    <the source line>
    <spaces>^

Lines and columns count from 1; the caret line repeats the tabs of the
source line so that the caret sits under the column in any tab setting.
"""


class Pos:
    """A place in the source: 1-based line and column."""

    __slots__ = ("line", "column")

    def __init__(self, line, column):
        self.line = line
        self.column = column

    def __repr__(self):
        return "Pos(%d, %d)" % (self.line, self.column)

    def __str__(self):
        return "%d:%d" % (self.line, self.column)

    def __eq__(self, other):
        return (isinstance(other, Pos) and self.line == other.line
                and self.column == other.column)

    def __lt__(self, other):
        return (self.line, self.column) < (other.line, other.column)

    def __hash__(self):
        return hash((self.line, self.column))


class IdlError(Exception):
    """A malformed or inconsistent IDL file."""

    def __init__(self, pos, message):
        super().__init__(message)
        self.pos = pos
        self.message = message

    def format(self, filename, text):
        """The full diagnostic: header line, source line, caret line."""
        line, column = self.pos.line, self.pos.column
        out = ["%s:%d:%d: error: %s" % (filename, line, column, self.message)]
        lines = text.splitlines()
        if 1 <= line <= len(lines):
            src = lines[line - 1]
            out.append(src)
            prefix = src[:max(column - 1, 0)]
            out.append("".join("\t" if c == "\t" else " " for c in prefix)
                       + "^")
        return "\n".join(out)


def error(pos, message):
    """Raises an IdlError; for use in expressions."""
    raise IdlError(pos, message)

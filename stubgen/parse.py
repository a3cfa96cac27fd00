"""Parsing: IDL text -> syntax nodes (syntax.py).

The grammar lives in idl/nccc.lark; the parser is Lark's LALR(1) with
its basic lexer's terminals read by stubgen/lexer.py and its tables run
by stubgen/parse_loop.py, so parsing is linear. Lark's exceptions never escape:
parse() turns them into IdlError with a message chosen by matching the
failure against the example bad inputs in SYNTAX_ERRORS (Lark's
match_examples), or else one that names the expected tokens.
"""

import hashlib
import os

from lark import Lark, Token, Transformer
from lark.exceptions import (UnexpectedCharacters, UnexpectedEOF,
                             UnexpectedInput, UnexpectedToken)

from stubgen import parse_loop
from stubgen import syntax as S
from stubgen.errors import IdlError, Pos
from stubgen.lexer import TokenLoop


def grammar_path():
    """idl/nccc.lark next to the stubgen package: the checkout has
    <root>/stubgen and <root>/idl, an installation share/nccc/stubgen and
    share/nccc/idl."""
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(os.path.dirname(here), "idl", "nccc.lark")


_parser = None


def lark_parser():
    global _parser
    if _parser is None:
        path = grammar_path()
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise RuntimeError("cannot read the IDL grammar %s: %s"
                               % (path, e.strerror)) from None
        _parser = Lark(text, parser="lalr", lexer=TokenLoop,
                       maybe_placeholders=False, transformer=_ToSyntax(),
                       cache=_cache_file(text))
    return _parser


def _cache_file(grammar):
    """Where Lark keeps the parse tables it built from grammar, so that a
    run loads them (6 ms) instead of building them (60 ms): a file per
    grammar in the user's cache directory, or False (no cache) when that
    cannot be made. Lark checks the file's own digest of the grammar, its
    options and versions, and rebuilds (and rewrites) the tables when the
    file is missing, stale or unreadable; it never reports that."""
    base = os.environ.get("XDG_CACHE_HOME") or \
        os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "nccc")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return False
    # the lexer class is one of the options Lark's digest covers: named
    # in the file's, so that trees with another lexer keep their own
    lexer = "%s.%s" % (TokenLoop.__module__, TokenLoop.__qualname__)
    digest = hashlib.sha256((grammar + "\0" + lexer).encode("utf-8")) \
        .hexdigest()[:16]
    return os.path.join(folder, "idl-grammar-%s.lark-cache" % digest)


# ---- syntax errors ---------------------------------------------------------
# Each label is chosen when the parser fails in the same state as one of
# its examples (and, better, on the same kind of token). Order matters
# only among labels sharing a state: an exact token match wins, then the
# first label whose example failed on the same token type, then the first
# label in that state.
SYNTAX_ERRORS = [
    ('a file starts with "module NAME;"', [
        "int f(void);", "struct s;", "typedef int t;", "#include <x.h>",
        "default [errno];", "[errno] int f(void);",
    ]),
    ('expected the module name after "module"', [
        "module ;", "module 3;", "module int;",
    ]),
    ('expected ";" after the module name', [
        "module m int f(void);", "module m [errno] int f(void);",
    ]),
    ('expected a declaration', [
        "module m; 3;", "module m; );", "module m; int f(void); 3;",
        "module m; int f(void); );",
    ]),
    ('annotations of a function go after its parameter list, as in '
     '"int f(void) [errno];"', [
         "module m; [errno] int f(void);",
         "module m; int f(void); [errno] int g(void);",
     ]),
    ('expected ";" after the declaration', [
        "module m; int f(void)\nint g(void);",
        "module m; int f(void) [errno]\nint g(void);",
        "module m; const int X = 1\nint g(void);",
        "module m; const int X\nint g(void);",
        "module m; typedef int t\nint g(void);",
    ]),
    ('expected ";" after the definition', [
        "module m; struct s { int x; }\nint g(void);",
        "module m; enum e { A }\nint g(void);",
    ]),
    ('expected ";" after the field', [
        "module m; struct s { int x int y; };",
        "module m; struct s { int x };",
        "module m; struct s { int x[2] };",
        "module m; struct s { int (*f)(void) };",
    ]),
    ('expected a field or "}"', [
        "module m; struct s { 3 };", "module m; struct s { int x; ;",
    ]),
    ('expected "," or ")" in the parameter list', [
        "module m; int f(int a int b);", "module m; int f(int a;",
        "module m; int f(int a", "module m; int f(void",
        "module m; int f(int *a b);", "module m; int f(int a[2] b);",
        "module m; int f(int (*cb)(void) b);",
    ]),
    ('expected a parameter', [
        "module m; int f(, int);", "module m; int f(int, );",
        "module m; int f(int, ]);",
    ]),
    ('expected a type', [
        "module m; int f(const);", "module m; const;",
        "module m; int f(const *p);", "module m; typedef ;",
    ]),
    ('expected "*" after "(" in a declarator: only pointer declarators '
     'may be parenthesised', [
         "module m; int (f)(void);", "module m; int f(int (x));",
         "module m; int (void);",
     ]),
    ('expected an annotation name', [
        "module m; int f(void) [];", "module m; int f(void) [3];",
        "module m; int f(void) [errno, ];", "module m; int f(void) [\"x\"];",
    ]),
    ('expected "," or "]" after an annotation', [
        "module m; int f(void) [errno errno];",
        "module m; int f(void) [errno;",
        "module m; int f(void) [rename=x y];",
    ]),
    ('expected an annotation value (a name, a number or a string)', [
        "module m; int f(void) [rename=];", "module m; int f(void) [owned()];",
        "module m; int f(void) [rename=[]];",
    ]),
    ('expected "," or "}" in the enumerator list', [
        "module m; enum e { A B };", "module m; enum e { A = 1 B };",
        "module m; enum e { A;",
    ]),
    ('expected an enumerator name', [
        "module m; enum e { };", "module m; enum e { A, 3 };",
    ]),
    ('expected a constant expression', [
        "module m; const int X = ;", "module m; enum e { A = };",
        "module m; struct s { int a[;]; };", "module m; const int X = 1 + ;",
    ]),
    ('expected "]" after the array size', [
        "module m; struct s { int a[2; };",
    ]),
    ('expected a name or "{" after the keyword', [
        "module m; struct ;", "module m; enum ;", "module m; union 3;",
    ]),
    ('expected a name after "typedef ..."', [
        "module m; typedef ... ;", "module m; typedef ... *;",
    ]),
    ('expected annotations after "default"', [
        "module m; default errno;", "module m; default ;",
    ]),
    ('a packed function needs a prototype after its name, as in '
     'packed "tvm.add" int64_t add(int64_t a, int64_t b);', [
         'module m; packed "x";', 'module m; packed "x" [errno];',
         'module m; packed "x" "y";',
     ]),
    ('a packed function is declared with a prototype, as in '
     'packed "tvm.add" int64_t add(int64_t a, int64_t b);', [
         'module m; packed "x" int f;', 'module m; packed "x" int *f;',
         'module m; packed "x" int f[2];',
     ]),
]

# How the fallback message names tokens.
_TOKEN_NAMES = {
    "NAME": "a name", "INT": "a number",
    "CHAR": "a character literal", "STRING": "a string",
    "DIRECTIVE": "a directive", "$END": "the end of the file",
    "BUILTIN": "a type",
}


def _describe(term):
    if term in _TOKEN_NAMES:
        return _TOKEN_NAMES[term]
    try:
        pattern = lark_parser().get_terminal(term).pattern
    except KeyError:
        return term.lower()
    if pattern.type == "str":
        return '"%s"' % pattern.value
    return term.lower()


def _describe_token(tok):
    if tok.type == "$END":
        return "end of file"
    return "'%s'" % tok.value


def _expected_list(names):
    names = sorted(set(_describe(t) for t in names))
    if len(names) > 6:
        return "; expected one of %s, ..." % ", ".join(names[:6])
    if len(names) == 1:
        return "; expected %s" % names[0]
    return "; expected %s or %s" % (", ".join(names[:-1]), names[-1])


def _normalise_state(exc):
    """Lark reports the failing state as a ParserState, whose equality
    also compares stack depths; the LALR state number alone is what the
    examples should match, so keep that."""
    state = getattr(exc, "state", None)
    if state is not None and not isinstance(state, int):
        exc.state = state.position
    return exc


def _parse_only(text):
    try:
        return lark_parser().parse(text)
    except UnexpectedInput as exc:
        raise _normalise_state(exc)


def _syntax_error(exc, text):
    """An IdlError for a Lark exception."""
    if isinstance(exc, UnexpectedCharacters):
        ch = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else ""
        return IdlError(Pos(exc.line, exc.column),
                        "unexpected character %r" % ch)
    first = _first_token(text)
    if first is not None and (first.type != "NAME" or first != "module"):
        return IdlError(Pos(first.line, first.column),
                        'a file starts with "module NAME;"')
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "$END":
            pos = _end_pos(text)
        else:
            pos = Pos(tok.line, tok.column)
        _normalise_state(exc)
        label = exc.match_examples(_parse_only, SYNTAX_ERRORS,
                                   token_type_match_fallback=True)
        if label is not None:
            if tok.type == "$END":
                return IdlError(pos, "unexpected end of file: " + label)
            return IdlError(pos, label)
        return IdlError(pos, "unexpected %s%s" % (
            _describe_token(tok), _expected_list(exc.expected)))
    if isinstance(exc, UnexpectedEOF):
        return IdlError(_end_pos(text), "unexpected end of file")
    return IdlError(Pos(max(exc.line, 1), max(exc.column, 1)), str(exc))


def _first_token(text):
    """The first token of text, None when there is none or the text does
    not even lex that far."""
    try:
        for tok in lark_parser().lex(text):
            return tok
    except UnexpectedInput:
        return None
    return None


def _end_pos(text):
    """Just after the last non-blank character."""
    body = text.rstrip()
    if not body:
        return Pos(1, 1)
    lines = body.split("\n")
    return Pos(len(lines), len(lines[-1]) + 1)


def parse(text):
    """Parses IDL text into a syntax.File; IdlError on any syntax error
    (stubgen/parse_loop.py reads correct text; Lark's parser reads the
    text again to say what is wrong with it)."""
    parser = lark_parser()
    tree = parse_loop.run(parser, text)
    if tree is not None:
        return tree
    try:
        return parser.parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text) from None


# ---- tree -> syntax nodes ------------------------------------------------

def _pos(x):
    if isinstance(x, Token):
        return Pos(x.line, x.column)
    return Pos(x.line, x.column)


def _flatten_annotations(children):
    out = []
    for c in children:
        if isinstance(c, list):
            out.extend(c)
    return out


def _int_value(text):
    t = text.rstrip("uUlL")
    return int(t, 16) if t[:2] in ("0x", "0X") else int(t, 10)


def _expr(x):
    """A syntax.Expr from an expression subtree result (Token or Expr)."""
    if isinstance(x, S.Expr):
        return x
    pos = _pos(x)
    if x.type == "INT":
        return S.Expr(pos, str(x), [], _int_value(str(x)))
    if x.type == "NAME":
        return S.Expr(pos, str(x), [(str(x), pos)], None)
    return S.Expr(pos, str(x), [], None)


def _is_fn(d):
    while isinstance(d, S.DPointer):
        d = d.inner
    return isinstance(d, S.DFunction)


def _first_pos(ch):
    """The position of the first token under a rule's children."""
    for c in ch:
        if isinstance(c, Token):
            return _pos(c)
        if isinstance(c, tuple) and len(c) == 2 and isinstance(c[1], Pos):
            return c[1]
        if isinstance(c, list) and c:
            return _first_pos(c)
        if isinstance(c, S.Node):
            return c.pos
    return Pos(1, 1)


class _ToSyntax(Transformer):
    """Applied by the LALR parser as it reduces (no parse tree is built),
    so positions come from the tokens, never from Lark's meta."""

    # ---- file level
    def start(self, ch):
        return S.File(Pos(1, 1), ch[0], ch[1:])

    def module_decl(self, ch):
        # the first name must be "module": model.check says so
        return S.ModuleDecl(_pos(ch[1]), str(ch[1]),
                            _flatten_annotations(ch[2:]),
                            (str(ch[0]), _pos(ch[0])))

    def directive(self, ch):
        return S.Directive(_pos(ch[0]), str(ch[0]))

    def default_decl(self, ch):
        return S.DefaultDecl(_first_pos(ch), _flatten_annotations(ch))

    def packed_decl(self, ch):
        # the name must be "packed": model.check says so
        return S.PackedDecl(_pos(ch[1]), _unquote(str(ch[1])),
                            (str(ch[0]), _pos(ch[0])), ch[2], ch[3],
                            _flatten_annotations(ch[4:]))

    def opaque_typedef(self, ch):
        return S.OpaqueTypedef(_pos(ch[1]), str(ch[1]))

    def typedef(self, ch):
        return S.Typedef(ch[0].pos, ch[0], ch[1:])

    def typedef_declarator(self, ch):
        return (ch[0], _flatten_annotations(ch[1:]))

    def tag_decl(self, ch):
        return S.TagDecl(ch[0].pos, ch[0])

    def storage(self, ch):
        return (str(ch[0]), _pos(ch[0]))

    def decl(self, ch):
        storage = None
        pos = _first_pos(ch)
        if isinstance(ch[0], tuple):
            storage, ch = ch[0], ch[1:]
        spec, (is_fn, d, anns, value) = ch
        return S.Decl(pos, storage, spec, d, anns, value, is_fn)

    def closures_decl(self, ch):
        # the type name must be "closures": model.check says so
        anns = _flatten_annotations(ch[2:])
        members = [c for c in ch[2:] if isinstance(c, S.Field)]
        return S.ClosuresDecl(ch[1].pos, ch[0], ch[1], anns, members)

    def fn_init(self, ch):
        return (True, ch[0], _flatten_annotations(ch[1:]), None)

    def value_init(self, ch):
        value = _expr(ch[1]) if len(ch) > 1 else None
        return (_is_fn(ch[0]), ch[0], [], value)

    # ---- types
    def specifiers(self, ch):
        quals = [c for c in ch if isinstance(c, tuple)]
        base = [c for c in ch if not isinstance(c, tuple)]
        return S.Specifiers(_first_pos(ch), quals, base[0])

    def type_qualifier(self, ch):
        return (str(ch[0]), _pos(ch[0]))

    def builtin_type(self, ch):
        return S.Builtin(_pos(ch[0]), [str(t) for t in ch])

    def type_name(self, ch):
        return S.TypeName(_pos(ch[0]), str(ch[0]))

    def record_ref(self, ch):
        return S.RecordRef(_pos(ch[1]), str(ch[0]), str(ch[1]))

    def record_def(self, ch):
        kind = str(ch[0])
        rest = ch[1:]
        name = None
        pos = _pos(ch[0])
        if rest and isinstance(rest[0], Token):
            name, pos = str(rest[0]), _pos(rest[0])
            rest = rest[1:]
        return S.RecordDef(pos, kind, name, rest)

    def field(self, ch):
        anns = _flatten_annotations([c for c in ch if isinstance(c, list)])
        spec = [c for c in ch if isinstance(c, S.Specifiers)][0]
        decls = [c for c in ch if isinstance(c, tuple)]
        return S.Field(_first_pos(ch), anns, spec, decls)

    def field_declarator(self, ch):
        return (ch[0], _expr(ch[1]) if len(ch) > 1 else None)

    def enum_ref(self, ch):
        return S.EnumRef(_pos(ch[1]), str(ch[1]))

    def enum_def(self, ch):
        pos = _pos(ch[0])
        ch = ch[1:]
        name = None
        if ch and isinstance(ch[0], Token):
            name, pos = str(ch[0]), _pos(ch[0])
            ch = ch[1:]
        return S.EnumDef(pos, name, ch)

    def enumerator(self, ch):
        return S.Enumerator(_pos(ch[0]), str(ch[0]),
                            _expr(ch[1]) if len(ch) > 1 else None)

    # ---- declarators
    def pointer(self, ch):
        quals = [c for c in ch[1:] if isinstance(c, tuple)]
        inner = [c for c in ch[1:] if not isinstance(c, tuple)]
        return S.DPointer(_pos(ch[0]), quals, inner[0] if inner else None)

    def function(self, ch):
        params, variadic = ch[1] if len(ch) > 1 else ([], False)
        return S.DFunction(ch[0].pos, ch[0], params, variadic)

    def name(self, ch):
        return S.DName(_pos(ch[0]), str(ch[0]))

    def group(self, ch):
        return ch[0]

    def array(self, ch):
        return S.DArray(ch[0].pos, ch[0], _expr(ch[1]) if len(ch) > 1
                        else None)

    def array_abstract(self, ch):
        size = _expr(ch[0]) if ch else None
        return S.DArray(size.pos if size else Pos(1, 1), None, size)

    def params(self, ch):
        variadic = bool(ch) and isinstance(ch[-1], Token)
        return ([c for c in ch if isinstance(c, S.Param)], variadic)

    def param(self, ch):
        anns = _flatten_annotations([c for c in ch if isinstance(c, list)])
        rest = [c for c in ch if not isinstance(c, list)]
        return S.Param(_first_pos(ch), anns, rest[0],
                       rest[1] if len(rest) > 1 else None)

    # ---- annotations
    def annotations(self, ch):
        return list(ch)

    def flag_annotation(self, ch):
        return S.Annotation(_pos(ch[0]), str(ch[0]), "flag", [])

    def value_annotation(self, ch):
        return S.Annotation(_pos(ch[0]), str(ch[0]), "value",
                            [_ann_value(ch[1])])

    def call_annotation(self, ch):
        return S.Annotation(_pos(ch[0]), str(ch[0]), "call",
                            [_ann_value(c) for c in ch[1:]])

    def negative(self, ch):
        v = _int_value(str(ch[1]))
        return S.AnnValue(_pos(ch[0]), "int", "-" + str(ch[1]), -v)

    # ---- expressions: rebuilt as C text
    def _binary(self, ch):
        left, op, right = _expr(ch[0]), str(ch[1]), _expr(ch[2])
        return S.Expr(left.pos, "%s %s %s" % (left.text, op, right.text),
                      left.names + right.names, None)

    bor = bxor = band = shift = sum = product = _binary

    def unary(self, ch):
        op, x = str(ch[0]), _expr(ch[1])
        literal = None
        if x.literal is not None and op in "+-":
            literal = -x.literal if op == "-" else x.literal
        return S.Expr(_pos(ch[0]), op + x.text, x.names, literal)

    def atom(self, ch):
        x = _expr(ch[1])
        return S.Expr(_pos(ch[0]), "(" + x.text + ")", x.names, x.literal)


def _ann_value(tok):
    if isinstance(tok, S.AnnValue):
        return tok
    pos = _pos(tok)
    if tok.type == "STRING":
        return S.AnnValue(pos, "string", str(tok), _unquote(str(tok)))
    if tok.type == "INT":
        return S.AnnValue(pos, "int", str(tok), _int_value(str(tok)))
    return S.AnnValue(pos, "name", str(tok), str(tok))


def _unquote(s):
    body = s[1:-1]
    out, i = [], 0
    simple = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'",
              "0": "\0"}
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            out.append(simple.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)

"""Malformed and inconsistent IDL: each case pins the exact line, column,
message and caret of its diagnostic."""

import pytest

from conftest import error
from stubgen.parse import SYNTAX_ERRORS, _parse_only, parse
from stubgen.errors import IdlError

M = "module m;\n"
CB = "typedef int cmp_fn(const void *a, const void *b, [context] void *ctx);\n"
TH = "typedef void tick_fn(int n) [thunks=2];\n"
CS = CB + "typedef struct ps *P;\n"
HS = ("closures h(P) { cmp_fn *a; };\nP make(void) [owned(done)];\n"
      "void done(P p);\n")

CASES = [
    # ---- syntax
    ("int f(void);", 1, 1, 'a file starts with "module NAME;"'),
    ("", 1, 1, 'unexpected end of file: a file starts with "module NAME;"'),
    ("mod m;\n", 1, 1, 'a file starts with "module NAME;"'),
    ("module 3;", 1, 8, 'expected the module name after "module"'),
    ("module m\nint f(void);", 2, 1, 'expected ";" after the module name'),
    (M + "int f(void)\nint g(void);", 3, 1,
     'expected ";" after the declaration'),
    (M + "int f(int a int b);", 2, 13,
     'expected "," or ")" in the parameter list'),
    (M + "int f(void", 2, 11, 'unexpected end of file: expected "," or ")" '
     "in the parameter list"),
    (M + "int f(void) [errno;", 2, 19,
     'expected "," or "]" after an annotation'),
    (M + "int f(void) [];", 2, 14, "expected an annotation name"),
    (M + "int f(void) [rename=];", 2, 21,
     "expected an annotation value (a name, a number or a string)"),
    (M + "struct s { int x; }\nint f(void);", 3, 1,
     'expected ";" after the definition'),
    (M + "struct s { int x int y; };", 2, 18, 'expected ";" after the field'),
    (M + "enum e { A B };", 2, 12,
     'expected "," or "}" in the enumerator list'),
    (M + "int f(void);\n3;", 3, 1, "expected a declaration"),
    (M + "[errno] int f(void);", 2, 1,
     'annotations of a function go after its parameter list, as in '
     '"int f(void) [errno];"'),
    (M + "int (f)(void);", 2, 6, 'expected "*" after "(" in a declarator: '
     "only pointer declarators may be parenthesised"),
    (M + "const int X = ;", 2, 15, "expected a constant expression"),
    (M + "void f(@);", 2, 8, "unexpected character '@'"),
    # ---- names and types
    (M + "int f(uint33_t x);", 2, 7, "unknown type 'uint33_t'"),
    (M + "int f(void);\nint f(int);", 3, 5,
     "'f' is already declared (at 2:5)"),
    (M + "int f(int register);", 2, 11, "'register' is a C keyword"),
    (M + "int f(int a) [rename=for];", 2, 15, "'for' is a C keyword"),
    (M + "typedef int size_t;", 2, 13, "'size_t' is a predefined type"),
    (M + "unsigned float f(void);", 2, 1, "invalid type 'unsigned float'"),
    (M + "long double f(void);", 2, 1,
     "long double does not fit in a slot and is not supported"),
    (M + "struct s;\nunion s *f(void);", 3, 7,
     "'s' was declared as a struct, not a union"),
    (M + "enum e f(void);", 2, 6, "unknown enum 'e'"),
    (M + "int f(int a, int a);", 2, 18, "duplicate parameter 'a'"),
    (M + "int x;", 2, 5, "'x' is a variable; only functions and constants "
     "(const T NAME;) can be declared"),
    (M + "int (*fp)(int);", 2, 7, "'fp' is a variable; only functions and "
     "constants (const T NAME;) can be declared"),
    (M + "static int f(void);", 2, 1,
     "a static function is not visible to the generated C"),
    # ---- parameters and results
    (M + "void f(void x);", 2, 13, "parameter 'x' has type void"),
    (M + "void f(int, void);", 2, 13, "'void' must be the only parameter"),
    (M + "struct s;\nvoid take(struct s v);", 3, 20,
     "parameter 'v' has opaque type 'struct s'; it cannot be passed by value"),
    (M + "typedef ... T;\nT make(void);", 3, 3, "the return value of 'make' "
     "has opaque type 'T'; it cannot be passed by value"),
    (M + "void get([out] int x);", 2, 11,
     "[out] parameter 'x' is not a pointer"),
    (M + "void get([out] const int *x);", 2, 11,
     "[out] parameter 'x' points to const"),
    (M + "void get([inout] void *x);", 2, 11,
     "[inout] parameter 'x' points to void"),
    (M + "struct s;\nvoid get([out] struct s *x);", 3, 11,
     "[out] parameter 'x' points to an opaque type"),
    (M + "void f([out, inout] int *p);", 2, 14,
     "conflicting annotations 'out' and 'inout'"),
    # ---- annotations
    (M + "int f(void) [fast];", 2, 14, "unknown annotation 'fast'"),
    (M + "int f(void) [errno, errno];", 2, 21, "duplicate annotation 'errno'"),
    (M + "void f([errno] int x);", 2, 9,
     "'errno' is not allowed on a parameter"),
    (M + "int f(void) [out];", 2, 14, "'out' is not allowed on a function"),
    (M + "int f(int x) [rename];", 2, 15,
     "'rename' needs a value, as in [rename=NAME]"),
    (M + "int f(int x) [rename=3];", 2, 22, "'rename' needs a name, not 3"),
    (M + "int f(void) [errno=maybe];", 2, 14,
     "'errno' takes no value, or =true or =false"),
    (M + "int f(void);\nint g(void) [rename=f];", 3, 14,
     "function 'f' is already in the registry (at 2:5)"),
    (M + "int sum([length=count] const int *xs, size_t n);", 2, 10,
     "[length] names 'count', which is not another parameter of 'sum'"),
    (M + "int sum([length=xs] const int *xs, size_t n);", 2, 10,
     "[length] names 'xs', which is not another parameter of 'sum'"),
    (M + "int sum([length=n] const int *xs, double n);", 2, 10,
     "[length] parameter 'n' is not an integer"),
    (M + "void f([size=0] int *p);", 2, 14,
     "'size' must be a positive integer or a constant name, not 0"),
    (M + "void f([size=-2] int *p);", 2, 14,
     "'size' must be a positive integer or a constant name, not -2"),
    (M + "void f([string] int *p);", 2, 9,
     "[string] needs a pointer to char, signed char or unsigned char, but "
     "parameter 'p' is 'int *'"),
    (M + "void f([nullable] int p);", 2, 9,
     "[nullable] needs a pointer, but parameter 'p' is 'int'"),
    (M + "void f([nullable, nonnull] int *p);", 2, 19,
     "conflicting annotations 'nullable' and 'nonnull'"),
    (M + "char *f(void) [owned(xfree)];", 2, 16,
     "[owned] names 'xfree', which is not a function of module 'm'"),
    (M + "char *f(void) [owned(g)];\nvoid g(int x);", 2, 16,
     "destructor 'g' must take exactly one pointer"),
    (M + "void f([owned(free)] char *p);", 2, 9,
     "[owned] applies to return values and [out]/[inout] parameters"),
    (M + "int f(int x) [variadic=printf, function_pointer];", 2, 15,
     "'variadic' and 'function_pointer' cannot be combined"),
    (M + "int f(void) [macro];", 2, 14,
     "[macro] needs an #include that defines the macro"),
    (M + "int f(void) [scope=call];", 2, 14,
     "'scope' is not allowed on a function"),
    (M + "int f(void) [trace=maybe];", 2, 14,
     "'trace' takes no value, or =true or =false"),
    ("module m [fast];", 1, 11, "unknown annotation 'fast'"),
    (M + "default [rename=x];", 2, 10,
     "'rename' is not allowed on a default statement"),
    # ---- variadic functions
    (M + "int printf_si(const char *fmt, int v) [variadic=printf];", 2, 40,
     "variadic 'printf' needs its prototype: declare it (for example int "
     "printf(const char *, ...);) or #include its header"),
    (M + "int printf(const char *fmt, ...);\n"
     "long printf_l(const char *fmt, long v) [variadic=printf];", 3, 6,
     "the return type of 'printf_l' does not match 'printf'"),
    (M + "int printf(const char *fmt, ...);\n"
     "int printf_i(int fmt, long v) [variadic=printf];", 3, 18,
     "parameter 1 of 'printf_i' does not match 'printf'"),
    (M + "int printf(const char *fmt, ...) [errno];", 2, 35,
     "a variadic prototype takes no annotations; annotate its instantiations"),
    # ---- constants and enums
    (M + "const double PI = 3;", 2, 14,
     "constant 'PI' must have an integer type"),
    (M + "const int X;", 2, 11,
     "constant 'X' needs a value (no #include provides it)"),
    (M + "const int X = Y + 1;", 2, 15, "unknown constant 'Y'"),
    (M + "enum e { A, B = C };", 2, 17, "unknown constant 'C'"),
    (M + "extern const int X = 3;", 2, 1, "an extern object is not a constant "
     "expression; constants must be macros or enumerators"),
    # ---- records
    (M + "struct s { int x; int x; };", 2, 23,
     "duplicate field 'x' (first at 2:16)"),
    (M + "struct s { int x : 3; };", 2, 20,
     "bit-field 'x' is not supported (offsetof cannot reach it)"),
    (M + "struct s { int data[]; };", 2, 16,
     "flexible array member 'data' is not supported"),
    (M + "struct s { struct t inner; };", 2, 21,
     "field 'inner' has incomplete type 'struct t'"),
    (M + "struct s { int x; };\nstruct s { int y; };", 3, 8,
     "struct 's' is already defined (at 2:8)"),
    (M + "struct s {};", 2, 8, "struct 's' has no fields"),
    (M + "struct s { int x; struct t; };", 2, 26, "a field needs a name "
     "(only a struct or union defined in place may be an anonymous member)"),
    (M + "struct s { int x; union { int x; float f; }; };", 2, 31,
     "duplicate field 'x' (first at 2:16)"),
    (M + "struct s { int a; union { int i; float f; }; };\n"
     "void f(struct s v);", 3, 17, "struct s has an anonymous member: pass "
     "it by pointer, not by value"),
    (M + "struct s { [nonnull] union { int i; float f; }; };", 2, 13,
     "an anonymous member takes no annotations"),
    (M + "struct s { int a; };\nstruct t { struct { int b; } s; };\n"
     "struct t__s { int c; };", 3, 12,
     "type name 't__s' is used twice in the layout table (first at 4:8)"),
    # ---- bytes, kept inputs, filled buffers
    (M + "void f([string] const int *p);", 2, 9, "[string] needs a pointer "
     "to char, signed char or unsigned char, but parameter 'p' is "
     "'const int *'"),
    (M + "void f([bytes] const unsigned char *p);", 2, 9, "[bytes] needs a "
     "count: [length=NAME] or [size=N]"),
    (M + "void f([bytes, size=4] const short *p);", 2, 9, "[bytes] needs a "
     "pointer to char, signed char or unsigned char, but parameter 'p' is "
     "'const short *'"),
    (M + "void f([bytes, string, size=4] const char *p);", 2, 16,
     "conflicting annotations 'bytes' and 'string'"),
    (M + "void f(void *o, [kept=q] const char *s);", 2, 18, "[kept] names "
     "'q', which is not another parameter of 'f'"),
    (M + "void f(int o, [kept=o] const char *s);", 2, 16, "[kept] owner 'o' "
     "is not a pointer"),
    (M + "void f(void *o, [kept=o] int n);", 2, 18, "[kept] needs a data "
     "pointer or string parameter, but 'n' is 'int'"),
    (M + "typedef int cb_fn([out, length=n] const char *b, int n);", 2, 20,
     "[out] buffer 'b' points to const data, which the callback cannot "
     "fill"),
    (M + "struct { int x; };", 2, 1,
     "an anonymous struct declares nothing; give it a tag or a typedef name"),
    (M + "typedef struct { int x; } *PT;", 2, 9, "an anonymous struct needs a "
     "typedef name (typedef struct { ... } NAME;)"),
    (M + "struct s { [length=n] int *p; int m; };", 2, 13,
     "[length] names 'n', which is not another field"),
    (M + "typedef ... T;\nstruct T;", 3, 8,
     "type name 'T' is used twice in the layout table (first at 2:13)"),
    # ---- directives and reserved syntax
    (M + "#pragma once", 2, 1, "unsupported directive '#pragma': only "
     "#include and #define are allowed"),
    (M + "#include stdio.h", 2, 1,
     'expected #include <file> or #include "file"'),
    # ---- callback types
    (M + "typedef int (*cmp)(const void *, const void *) [context=ctx];",
     2, 49, "'context' is not allowed on a callback typedef"),
    (M + "void f(int (*cb)([context] void *ctx));", 2, 19,
     "annotations on the parameters of a function pointer belong in a "
     "callback typedef"),
    (M + "typedef int (*cmp)(const void *a, const void *b) [errno];", 2, 15,
     "callback type 'cmp' needs a [context] parameter or a pool of thunks "
     "([thunks=N] after its parameter list)"),
    (M + "typedef int (*cmp)([context] void *a, [context] void *b);", 2, 40,
     "callback type 'cmp' has two [context] parameters ('a' and 'b')"),
    (M + "typedef int (*cmp)([context] int a);", 2, 21,
     "[context] parameter 'a' of callback type 'cmp' is not a data pointer"),
    (M + "typedef int (*cmp)([context] void *a) [thunks=2];", 2, 40,
     "callback type 'cmp' has a [context] parameter; [thunks] is for "
     "callbacks without one"),
    (M + "typedef int (*cmp)(int a) [thunks=0];", 2, 28,
     "'thunks' needs the pool size, an integer from 1 to 4096, as in "
     "[thunks=4]"),
    (M + "typedef int (*cmp)(int a) [thunks];", 2, 28,
     "'thunks' needs the pool size, an integer from 1 to 4096, as in "
     "[thunks=4]"),
    (M + "typedef int (*cmp)(int a) [thunks=5000];", 2, 28,
     "'thunks' needs the pool size, an integer from 1 to 4096, as in "
     "[thunks=4]"),
    (M + "typedef int (*cmp)(int a, ...) [thunks=2];", 2, 15,
     "callback type 'cmp' cannot be variadic"),
    (M + "struct s { int x; };\n"
     "typedef int (*cmp)(struct s v, [context] void *c);", 3, 29,
     "parameter 'v' of callback type 'cmp' is a struct by value, which "
     "callbacks do not take"),
    (M + "struct s { int x; };\ntypedef struct s (*cmp)([context] void *c);",
     3, 20, "callback type 'cmp' returns a struct by value, which callbacks "
     "do not do"),
    (M + "typedef int (*cmp)([context=x] void *c);", 2, 29,
     "[context] names 'x', which is not a function of module 'm'"),
    (M + "typedef int (*cmp)([context=3] void *c);", 2, 21,
     "'context' in a callback typedef is a flag, or names the function that "
     "gets the context from the parameter, as in [context=NAME]"),
    (M + "typedef int (*cmp)([context=ud] void *c);\nint ud(void *c);", 2,
     29, "context accessor 'ud' must take one pointer and return a data "
     "pointer"),
    (M + "typedef int (*cmp)([owned(free)] char *s, [context] void *c);", 2,
     21, "'owned' is not allowed on a callback parameter"),
    (M + "typedef int (*cmp)(int a) [rename=x, thunks=2];", 2, 28,
     "'rename' is not allowed on a callback typedef"),
    (M + "typedef int (*cmp[2])(int a) [thunks=2];", 2, 31,
     "annotations on a typedef make it a callback type, which needs a "
     "function or function pointer type"),
    (M + "default [thunks=2];", 2, 10,
     "'thunks' is not allowed on a default statement"),
    # ---- callback parameters
    (M + "void f([scope=call] int x);", 2, 9,
     "[scope] needs a parameter of a callback type, but 'x' is 'int'"),
    (M + CB + "void f([scope=sometimes] cmp_fn *cb, [context=cb] void *d);", 3,
     9, "'scope' must be call, async, notified or forever, not 'sometimes'"),
    (M + CB + "void f(cmp_fn *cb, [context] void *d);", 3, 21,
     "'context' needs the callbacks whose context the parameter carries, "
     "as in [context=NAME] or [context(NAME, NAME)]"),
    (M + CB + "void f(cmp_fn *cb, [context=cb] int d);", 3, 21,
     "[context] parameter 'd' is not a data pointer"),
    (M + CB + "void f(cmp_fn *cb, [context=nope] void *d);", 3, 29,
     "[context] names 'nope', which is not a callback parameter of 'f' or "
     "a closure set"),
    (M + TH + "void f(tick_fn *cb, [context=cb] void *d);", 3, 30,
     "[context] names 'cb', whose type 'tick_fn' has no context parameter "
     "(it has a pool of thunks)"),
    (M + CB + "void f(cmp_fn *cb, [context=cb] void *d, [context=cb] void *e);",
     3, 51, "callback 'cb' already has its context in 'd'"),
    (M + CB + "void f(cmp_fn *cb, [context(cb, cb)] void *d);", 3, 33,
     "callback 'cb' already has its context in 'd'"),
    (M + CB + "void f([scope=async] cmp_fn *a, cmp_fn *b, "
     "[context(a, b)] void *d);", 3, 45,
     "callbacks 'a' and 'b' share context 'd' but have different scopes"),
    (M + CB + "void f([nullable] cmp_fn *a, cmp_fn *b, "
     "[context(a, b)] void *d);", 3, 42, "callbacks 'a' and 'b' share "
     "context 'd'; both or neither must be [nullable]"),
    (M + CB + "void f(int x, cmp_fn *cb);", 3, 23,
     "callback 'cb' needs the parameter that carries its context: mark it "
     "[context=cb]"),
    (M + CB + "void f(cmp_fn *cb, [context=cb] void *d, "
     "[destroy=cb] void (*done)(int));", 3, 43,
     "[destroy] parameter 'done' must have type 'void (*)(void *)', not "
     "'void (*)(int)'"),
    (M + CB + "void f(cmp_fn *cb, [context=cb] const void *d, "
     "[destroy=cb] void (*done)(const void *));", 3, 49,
     "[destroy] parameter 'done' must have type 'void (*)(void *)', not "
     "'void (*)(const void *)'"),
    (M + CB + "void f(cmp_fn *cb, [context=cb] void *d, "
     "[destroy=x] void (*done)(void *));", 3, 43,
     "[destroy] names 'x', which is not a callback parameter of 'f'"),
    (M + TH + "void f([scope=notified] tick_fn *cb, "
     "[destroy=cb] void (*done)(void *));", 3, 39,
     "[destroy] names 'cb', whose type 'tick_fn' has no context to pass to "
     "a destroy notify"),
    (M + CB + "void f(cmp_fn *cb, [context=cb] void *d, "
     "[destroy=cb] void (*done)(void *));", 3, 43,
     "[destroy] names 'cb', whose scope is call; a destroy notify needs "
     "[scope=notified]"),
    (M + CB + "void f([scope=notified] cmp_fn *cb, [context=cb] void *d, "
     "[destroy=cb] void (*x)(void *), [destroy=cb] void (*y)(void *));", 3,
     92, "context 'd' already has a destroy notify ('x')"),
    (M + CB + "void f([scope=notified] cmp_fn *cb, [context=cb] void *d);", 3,
     9, "callback 'cb' has [scope=notified] but no destroy notify: mark the "
     "parameter that takes one [destroy=cb]"),
    # ---- closure sets
    (M + CS + "closurez h(P) { cmp_fn *a; };", 4, 1,
     "a declaration with members in braces is a closure set, as in "
     "closures NAME(OWNER) { members };"),
    (M + CS + "closures h(P, P) { cmp_fn *a; };", 4, 10,
     "closures 'h' needs its owner's type, one type in its parentheses, as "
     "in closures h(XML_Parser)"),
    (M + CS + "closures h(int) { cmp_fn *a; };", 4, 12,
     "the owner of closures 'h' must be a data pointer type, not 'int'"),
    (M + CS + "closures h(P) { };", 4, 10, "closures 'h' has no members"),
    (M + CS + "closures h(P) { int a; };", 4, 21,
     "member 'a' of closures 'h' must have a callback type, not 'int'"),
    (M + CS + "closures h(P) { cmp_fn *a, *a; };", 4, 29,
     "duplicate member 'a'"),
    (M + CS + TH + "closures h(P) { tick_fn *a; };", 5, 26,
     "member 'a' of closures 'h' has type 'tick_fn', which has no [context] "
     "parameter to get the owner's user data"),
    (M + CS + "closures h(P) { cmp_fn *a; };\nclosures h(P) { cmp_fn *b; };",
     5, 10, "closures 'h' is already declared (at 4:10)"),
    (M + CS + HS + "void reg(P p, [closures=g] cmp_fn *a);", 7, 16,
     "[closures] names 'g', which is not a closure set (declare closures "
     "g(OWNER) { ... } before 'reg')"),
    (M + CS + HS + "void reg(P p, [closures=h] int a);", 7, 16,
     "[closures] needs a parameter of a callback type, but 'a' is 'int'"),
    (M + CS + HS + "void reg(P p, [closures=h] cmp_fn *b);", 7, 36,
     "closures 'h' has no member 'b' (its members: a); name the parameter "
     "after its member"),
    (M + CS + HS + "void reg(P p, [closures=h, scope=async] cmp_fn *a);", 7,
     28, "callback 'a' is a member of closures 'h', which live until their "
     "owner is freed; drop [scope]"),
    (M + CS + HS + "void reg([closures=h] cmp_fn *a);", 7, 11,
     "'reg' needs exactly one parameter of type 'P', the owner of closures "
     "'h' (it has 0)"),
    (M + CS + HS + "void set(P p, P q, [context=h] void *d);", 7, 21,
     "'set' needs exactly one parameter of type 'P', the owner of closures "
     "'h' (it has 2)"),
    (M + CS + HS + "void set(P p, [context(h, a)] void *d);", 7, 27,
     "[context] names closures 'h'; it carries no other callbacks"),
    (M + CS + HS + "void reg(P p, [closures=h] cmp_fn *a, [context=a] void "
     "*d);", 7, 48, "callback 'a' gets its context from closures 'h'"),
    (M + CS + "closures h(P) { cmp_fn *a; };\nvoid f(P p);", 4, 10,
     "nothing frees the owner of closures 'h': mark the function that makes "
     "one [owned(FN)], FN the function that frees it"),
    (M + CB + 'packed "x" int f([context=cb] void *d);', 3, 19,
     "'context' is not allowed on a parameter of a packed function"),
    # ---- packed functions
    (M + 'packed "runtime.SystemLib";', 2, 27,
     'a packed function needs a prototype after its name, as in packed '
     '"tvm.add" int64_t add(int64_t a, int64_t b);'),
    (M + 'packed "x" int f;', 2, 17,
     'a packed function is declared with a prototype, as in packed '
     '"tvm.add" int64_t add(int64_t a, int64_t b);'),
    (M + 'pakced "x" int f(void);', 2, 1,
     'expected "packed" before the name of a packed function'),
    (M + 'packed "" int f(void);', 2, 8,
     "the name of a packed function is empty"),
    (M + 'packed "a\\0b" int f(void);', 2, 8,
     "the name of a packed function contains a NUL character"),
    (M + 'packed "x" int f(int a, ...);', 2, 16,
     "packed function 'f' cannot be variadic"),
    (M + 'packed "x" int (*f)(void);', 2, 18, "'f' is a pointer to a "
     "function; a packed function is declared with a prototype"),
    (M + 'packed "x" int f(void) [errno];', 2, 25,
     "'errno' is not allowed on a packed function"),
    (M + 'packed "x" int f(void) [rename=g];', 2, 25,
     "'rename' is not allowed on a packed function"),
    (M + 'packed "x" int f(void) [module=3];', 2, 25,
     "'module' takes no value, or =true or =false"),
    (M + 'packed "x" int f(void) [module, system_lib];', 2, 33,
     "conflicting annotations 'module' and 'system_lib'"),
    (M + "int f(void) [system_lib];", 2, 14,
     "'system_lib' is not allowed on a function"),
    (M + 'packed "x" void f([out] int *p);', 2, 20,
     "[out] is not allowed on a parameter of a packed function: its one "
     "result is the return value"),
    (M + 'struct s { int x; };\npacked "x" void f(struct s v);', 3, 28,
     "parameter 'v' of packed function 'f' has type 'struct s', which has "
     "no TVM type code"),
    (M + 'packed "x" void f(int (*cb)(int));', 2, 25,
     "parameter 'cb' of packed function 'f' has type 'int (*)(int)', which "
     "has no TVM type code"),
    (M + 'struct s { int x; };\npacked "x" struct s f(void);', 3, 21,
     "the return value of packed function 'f' has type 'struct s', which "
     "has no TVM type code"),
    (M + 'packed "x" DLTensor f(void);', 2, 21, "the return value of 'f' has "
     "opaque type 'DLTensor'; it cannot be passed by value"),
    (M + 'int f(void);\npacked "x" int f(void);', 3, 16,
     "function 'f' is already in the registry (at 2:5)"),
    (M + "typedef ... DLTensor;", 2, 13, "'DLTensor' is a predefined type"),
]


def _expected(src, line, col, message):
    text_line = src.splitlines()[line - 1] if src.splitlines() else None
    out = "t.idl:%d:%d: error: %s" % (line, col, message)
    if text_line is not None:
        out += "\n" + text_line + "\n" + " " * (col - 1) + "^"
    return out


@pytest.mark.parametrize("src,line,col,message", CASES,
                         ids=["%02d" % i for i in range(len(CASES))])
def test_diagnostic(src, line, col, message):
    assert error(src) == _expected(src, line, col, message)


def test_there_are_at_least_forty_cases():
    assert len(CASES) >= 40


def test_the_caret_line_keeps_tabs():
    src = "module m;\n\tint\tf(uint33_t x);"
    assert error(src) == ("t.idl:2:8: error: unknown type 'uint33_t'\n"
                          "\tint\tf(uint33_t x);\n"
                          "\t   \t  ^")


def test_diagnostic_has_three_lines_with_the_source_line():
    out = error(M + "int f(void) [fast];").split("\n")
    assert out == ["t.idl:2:14: error: unknown annotation 'fast'",
                   "int f(void) [fast];",
                   "             ^"]


def test_every_syntax_example_fails_with_its_own_label():
    for label, examples in SYNTAX_ERRORS:
        for example in examples:
            with pytest.raises(Exception):
                _parse_only(example)
            with pytest.raises(IdlError) as exc:
                parse(example)
            message = exc.value.message
            if message.startswith("unexpected end of file: "):
                message = message[len("unexpected end of file: "):]
            assert message == label, example


def test_unlabelled_syntax_errors_name_the_expected_tokens():
    with pytest.raises(IdlError) as exc:
        parse(M + "typedef int t, ;")
    assert exc.value.message == \
        'unexpected \';\'; expected "(", "*", "[" or a name'
    assert exc.value.pos.line == 2 and exc.value.pos.column == 16

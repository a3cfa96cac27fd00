"""stubgen/literal.py, the one writer of data literals: the layout (a
container nested less than `broken` deep one element a line) and each
host's syntax (JSON, Lua, Python, JavaScript, Scheme alists)."""

import json

import pytest

from stubgen.emit_js import JS
from stubgen.emit_lua import LUA
from stubgen.emit_python import PYTHON
from stubgen.emit_scheme import SCHEME
from stubgen.literal import JSON, literal

VALUE = {"name": "f", "n": 2, "ok": True, "no": False,
         "list": [1, {"arg": 2}], "empty": []}


def test_json_is_json_and_breaks_the_outer_levels():
    text = literal(VALUE, JSON)
    assert json.loads(text) == VALUE
    assert text.splitlines()[:3] == ['{', '  "name": "f",', '  "n": 2,']
    assert '  "list": [\n    1,\n    {"arg": 2}\n  ],' in text
    assert '  "empty": []\n}' in text


def test_one_line_when_not_broken():
    assert literal(VALUE, LUA, broken=0) == \
        '{name = "f", n = 2, ok = true, no = false, ' \
        'list = {1, {arg = 2}}, empty = {}}'
    assert literal(VALUE, JS, broken=0) == \
        '{name: "f", n: 2, ok: true, no: false, list: [1, {arg: 2}], ' \
        'empty: []}'
    assert literal(VALUE, SCHEME, broken=0) == \
        '((name . "f") (n . 2) (ok . #t) (no . #f) ' \
        '(list . (1 ((arg . 2)))) (empty . ()))'


def test_python_literal_evaluates_to_the_value():
    assert eval(literal(VALUE, PYTHON)) == VALUE  # noqa: S307 (our own text)


def test_strings_are_quoted_by_each_host():
    assert literal('a "b" \\', LUA) == '"a \\"b\\" \\\\"'
    assert literal('a "b"', SCHEME) == '"a \\"b\\""'


def test_no_literal_for_other_values():
    with pytest.raises(TypeError):
        literal(None, JSON)

"""The IDL's LALR(1) loop over Lark's own parse tables.

Lark's parser feeds each token to ParserState.feed_token, a method call
that reads its tables from the state again for every token: about a
third of the parse of a 2,000-function IDL (bench/run_gen.py). run()
makes the same shifts and reductions with the same tables and the same
callbacks (the syntax nodes of stubgen/parse.py) in one loop over the
tokens of stubgen/lexer.py. It handles correct input only: on the first
token the tables refuse, or text the lexer cannot read, it gives None,
and parse.py lets Lark's parser read the text again, so that every
error is Lark's own exception, with the parser state its messages are
chosen by.
"""

from itertools import chain

from lark.exceptions import UnexpectedInput
from lark.lexer import LexerState, Token
from lark.parsers.lalr_analysis import Shift

_NO_ACTION = (None, None)
_rules = {}  # {Lark: {id(rule): (size, callback, name)}}


def run(lark, text):
    """The value Lark's parse(text) gives (its start rule's callback's),
    or None when the text has a syntax error."""
    frontend = lark.parser
    tables = frontend.parser.parser  # the LALR loop's tables and callbacks
    start = frontend.parser_conf.start[0]
    states = tables.parse_table.states
    end_state = tables.parse_table.end_states[start]
    callbacks = tables.callbacks
    stack = [tables.parse_table.start_states[start]]
    values = []
    # each rule's size, callback and name by its id: a Rule hashes and
    # compares in Python, an id in C (the rules live as long as lark)
    rules = _rules.setdefault(lark, {})
    lexed = LexerState(text)
    try:
        for token in chain(frontend.lexer.lex(lexed, None), _end(lexed)):
            type_ = token.type
            while True:  # the reductions token calls for, then its shift
                action, arg = states[stack[-1]].get(type_, _NO_ACTION)
                if action is Shift:
                    stack.append(arg)
                    values.append(callbacks[type_](token)
                                  if type_ in callbacks else token)
                    break
                if action is None:
                    return None
                rule = rules.get(id(arg))
                if rule is None:
                    rule = rules[id(arg)] = (len(arg.expansion),
                                             callbacks[arg], arg.origin.name)
                size, callback, origin = rule
                if size:
                    children = values[-size:]
                    del stack[-size:]
                    del values[-size:]
                else:
                    children = []
                value = callback(children)
                stack.append(states[stack[-1]][origin][1])
                values.append(value)
                if type_ == "$END" and stack[-1] == end_state:
                    return value
    except UnexpectedInput:
        return None
    return None


def _end(lexed):
    """The end token, placed as Lark's parser places it: at the last
    token, or at 1:1 when there was none."""
    last = lexed.last_token
    yield Token.new_borrow_pos("$END", "", last) if last is not None \
        else Token("$END", "", 0, 1, 1)

"""The IDL's lexer: Lark's basic lexer with a shorter loop.

Lark's BasicLexer makes each token through a generator that calls
next_token, which updates a LineCounter, builds the Token and then sets
its end position again: about 2.4 microseconds a token, half of what
parsing a 2,000-function IDL costs (bench/run_gen.py). TokenLoop reads
the same terminals with the same scanner, the same keyword callbacks
and the same ignored and newline types, and gives the same tokens with
the same positions, with the line and column kept in locals, and a
keyword (a NAME whose text is a keyword's, which Lark's callback finds
by matching the text again against every keyword) found in a dict. Where
nothing matches it hands the position to Lark's next_token, which raises
Lark's own UnexpectedCharacters, so errors read exactly as before.
"""

from lark import Token
from lark.lexer import BasicLexer, UnlessCallback


# Token(...) passes its arguments on to this (Lark 1.1); one call less
_token = getattr(Token, "_future_new", Token)


class TokenLoop(BasicLexer):
    """Lark's lexer interface: lex(lexer_state, parser_state) yields
    Tokens (Lark calls it when given the class as its lexer)."""

    __future_interface__ = True
    _words = None

    def _keywords(self):
        """{type: {text: keyword type}} for the types whose callback is
        Lark's keyword test (literal keywords without flags); the other
        callbacks stay in self.callback."""
        words = {}
        for type_, test in self.callback.items():
            if isinstance(test, UnlessCallback) and \
                    not any(t.pattern.flags for t in test.scanner.terminals):
                found = words[type_] = {}
                for t in test.scanner.terminals:
                    found.setdefault(t.pattern.value, t.name)
        return words

    def lex(self, state, parser_state):
        text = state.text
        match = self.scanner.match
        if self._words is None:
            self._words = self._keywords()
        words = self._words
        callback = self.callback
        ignore, newline = self.ignore_types, self.newline_types
        counter = state.line_ctr
        pos, line, line_start = counter.char_pos, counter.line, \
            counter.line_start_pos
        end = len(text)
        while pos < end:
            res = match(text, pos)
            if not res:
                break
            value, type_ = res
            start, start_line, column = pos, line, pos - line_start + 1
            pos += len(value)
            if type_ in newline:
                breaks = value.count("\n")
                if breaks:
                    line += breaks
                    line_start = start + value.rindex("\n") + 1
            if type_ in ignore:
                continue
            if type_ in words:
                tok = _token(words[type_].get(value, type_), value, start,
                            start_line, column, line, pos - line_start + 1,
                            pos)
            else:
                tok = _token(type_, value, start, start_line, column, line,
                            pos - line_start + 1, pos)
                if type_ in callback:
                    tok = callback[type_](tok)
            state.last_token = tok
            yield tok
        counter.char_pos, counter.line, counter.line_start_pos = \
            pos, line, line_start
        counter.column = pos - line_start + 1
        if pos < end:
            self.next_token(state, parser_state)  # raises Lark's error

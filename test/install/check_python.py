"""check_python.py LIBRARY - the install test under python3: import nccc
and the generated greet.py from the installed prefix's paths (PYTHONPATH),
bind the library nccc_add_bindings(... SHARED) made (bind runs its
nccc_greet_open), one call and one callback. Prints "python: 42 10"."""

import sys

import greet
import nccc

g = greet.bind(nccc.open(sys.argv[1]))
total = g.add(40, 2)
folded = g.fold(4, g.callback("step_fn", lambda acc, i: acc + i))
print("python: %d %d" % (total, folded))
sys.exit(0 if (total, folded) == (42, 10) else 1)

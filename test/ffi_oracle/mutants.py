#!/usr/bin/env python3
"""Proof that the libffi oracle catches broken wrappers.

    mutants.py --mutate IN.c OUT.c   writes OUT.c: IN.c (the generated
                                     fo_a_nccc.c) with the MUTANTS applied
    mutants.py --expect PROGRAM      runs PROGRAM (the oracle built with
                                     OUT.c) and checks that it reports
                                     exactly the MUTANTS
"""

import os
import re
import subprocess
import sys

# Each mutant rewrites the body of one generated wrapper so that one
# conversion is wrong; the mutant program must report exactly these
# functions (and no other) as disagreeing with libffi.
MUTANTS = [
    # a narrow signed result zero-extended instead of sign-extended
    ("fo_id_short", r"nccc_slot_from_i16\(", "nccc_slot_from_u16((uint16_t)"),
    # a float argument narrowed from the wrong slot bits
    ("fo_id_float", r"nccc_slot_to_float\(in\[0\]\)", "(float)nccc_slot_to_double(in[0] ^ 1u)"),
    # a struct argument read from one slot too far
    ("fo_spilli_mixed", r"in \+ 5\b", "in + 6"),
    # two arguments swapped
    ("fo_spillf_i32", r"nccc_slot_to_double\(in\[0\]\), nccc_slot_to_double\(in\[1\]\)",
     "nccc_slot_to_double(in[1]), nccc_slot_to_double(in[0])"),
    # a result written as the wrong type
    ("fo_id_u8", r"nccc_slot_from_u8\(", "nccc_slot_from_i8((int8_t)"),
]


def mutate(src, dst):
    with open(src) as f:
        text = f.read()
    for name, pattern, repl in MUTANTS:
        m = re.search(r"\nvoid nccc_fo_a_%s\(const uint64_t \*in, uint64_t \*out\) \{\n(.*?)\n\}\n"
                      % re.escape(name), text, re.S)
        if not m:
            sys.exit("mutants.py: wrapper of %s not found in %s" % (name, src))
        body, n = re.subn(pattern, repl, m.group(1), count=1)
        if n != 1:
            sys.exit("mutants.py: mutant of %s: /%s/ not in its wrapper:\n%s"
                     % (name, pattern, m.group(1)))
        text = text[:m.start(1)] + body + text[m.end(1):]
    with open(dst, "w") as f:
        f.write(text)


def expect_mutants(program):
    env = dict(os.environ, CK_FORK="no")
    p = subprocess.run([program], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       env=env, universal_newlines=True)
    found = set(re.findall(r"^MISMATCH (\w+) ", p.stdout, re.M))
    want = {m[0] for m in MUTANTS}
    sys.stdout.write(p.stdout[-4000:])
    if p.returncode == 0:
        sys.exit("mutant program passed: the oracle did not notice the broken wrappers")
    if found != want:
        sys.exit("mutants reported: %s; expected exactly: %s"
                 % (sorted(found), sorted(want)))
    print("all %d mutants caught, nothing else reported" % len(want))


def main(argv):
    if len(argv) == 4 and argv[1] == "--mutate":
        mutate(argv[2], argv[3])
        return 0
    if len(argv) == 3 and argv[1] == "--expect":
        expect_mutants(argv[2])
        return 0
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""Only the public API looks public: installs the build into a temporary
prefix and checks every global symbol the installed libraries define.

usage: symbols.py CMAKE BUILD_DIR

A symbol passes when it is declared with the export macro (NCCC_API, or
TVM's TVM_DLL) in an installed header and has default visibility, or when
it carries the internal prefix nccci_ and hidden visibility (so a shared
library built on the runtime does not re-export it). Exits 1 and lists
every symbol that does neither.
"""
import os
import re
import subprocess
import sys
import tempfile

INTERNAL_PREFIX = "nccci_"
EXPORT_MACROS = ("NCCC_API", "TVM_DLL")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
IDENT = re.compile(r"[A-Za-z_]\w*")


def exported_names(include_dir):
    """Identifiers of the declarations that carry an export macro."""
    names = set()
    for folder, _, files in os.walk(include_dir):
        for name in files:
            if not name.endswith(".h"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                text = DIRECTIVE.sub(" ", COMMENT.sub(" ", f.read()))
            for statement in re.split(r"[;{}]", text):
                words = IDENT.findall(statement)
                if any(macro in words for macro in EXPORT_MACROS):
                    names.update(words)
    return names


def defined_globals(archive):
    """(name, visibility) of every global or weak symbol archive defines,
    from readelf's symbol tables of its members."""
    out = subprocess.run(["readelf", "-sW", archive], check=True,
                         capture_output=True, text=True).stdout
    symbols = []
    for line in out.splitlines():
        fields = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(fields) == 8 and fields[0].endswith(":") and \
                fields[4] in ("GLOBAL", "WEAK") and fields[6] != "UND":
            symbols.append((fields[7], fields[5]))
    return symbols


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    cmake, build = argv[1], argv[2]
    with tempfile.TemporaryDirectory() as prefix:
        subprocess.run([cmake, "--install", build, "--prefix", prefix],
                       check=True, stdout=subprocess.DEVNULL)
        libdir = next(os.path.join(prefix, d) for d in ("lib", "lib64")
                      if os.path.isdir(os.path.join(prefix, d)))
        public = exported_names(os.path.join(prefix, "include"))
        archives = sorted(f for f in os.listdir(libdir) if f.endswith(".a"))
        bad = 0
        for archive in archives:
            symbols = defined_globals(os.path.join(libdir, archive))
            for name, vis in sorted(set(symbols)):
                if name.startswith("__"):
                    continue  # the compiler's (ASan's __odr_asan.* markers)
                if name.startswith(INTERNAL_PREFIX):
                    ok, want = vis == "HIDDEN", "hidden visibility"
                else:
                    ok = name in public and vis == "DEFAULT"
                    want = (f"default visibility and a declaration with "
                            f"{' or '.join(EXPORT_MACROS)} in an installed "
                            f"header, or the prefix {INTERNAL_PREFIX}")
                if not ok:
                    print(f"{archive}: {name} ({vis.lower()}): wants {want}")
                    bad += 1
            print(f"{archive}: {len(set(symbols))} global symbols checked")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

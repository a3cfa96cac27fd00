#!/usr/bin/env python3
"""The docs' tables of names say what the code has.

    check_tables.py ROOT

- README.md's "Build options" table: every option() of the project's
  CMake files (CMakeLists.txt, nccc_runtime/, cmake/*.cmake), with its
  default, and nothing else;
- IDL.md's `--lang` table (its "Command line"): every language of
  nccc-stubgen, each with the files it writes for a module M;
- JS.md's "Install" table: the names nccc/index.mjs exports, and the
  subpaths package.json exports;
- PYTHON.md's "Generated modules": the helpers of a bound module, as
  bindings/python/nccc/binder.py's Bound has them and M.pyi declares.

Prints each miss; exit 1 if any.
"""

import ast
import json
import re
import sys
from pathlib import Path

from check_docs import report


def ticks(text):
    """Every text in backquotes (spaces too, unlike check_docs.ticks)."""
    return re.findall(r"`([^`]+)`", text)


def section(text, title):
    """The text of the section whose heading is `title`, to the next
    heading of any level."""
    m = re.search(r"^#+ %s\n(.*?)(?=^#+ |\Z)" % re.escape(title), text,
                  re.S | re.M)
    return m.group(1) if m else ""


def rows(text):
    """The cells of each row of the markdown tables in text."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("|") and not re.match(r"^\|[-| ]+\|$", line):
            out.append([c.strip() for c in line.strip("|").split("|")])
    return out


def compare(what, documented, actual):
    documented, actual = set(documented), set(actual)
    return ["%s: documented but not in the code: %s" % (what, name)
            for name in sorted(documented - actual)] + \
        ["%s: in the code but not documented: %s" % (what, name)
         for name in sorted(actual - documented)]


def _documented_default(text, default):
    """The default a row states: ON or OFF; for an option whose default
    CMake computes (a variable), a row that says when it is ON stands
    for it."""
    if default.startswith("${") and text.startswith("ON when"):
        return default
    return text


def check_build_options(root):
    options = {}
    for path in [root / "CMakeLists.txt"] + \
            sorted((root / "nccc_runtime").rglob("CMakeLists.txt")) + \
            sorted((root / "cmake").glob("*.cmake")):
        text = path.read_text(encoding="utf-8")
        for name, default in re.findall(
                r'option\((NCCC_\w+)\s+"[^"]*"\s+(ON|OFF|\$\{\w+\})\)',
                text):
            options[name] = default
    table = section((root / "README.md").read_text(encoding="utf-8"),
                    "Build options")
    documented = {ticks(r[0])[0]: r[1] for r in rows(table)[1:]
                  if ticks(r[0])}
    misses = compare("README.md's build options", documented, options)
    misses += ["README.md's build options: %s defaults to %s, not %s"
               % (name, options[name], documented[name])
               for name in sorted(set(options) & set(documented))
               if options[name] != _documented_default(documented[name],
                                                       options[name])]
    return misses


def check_languages(root):
    sys.path.insert(0, str(root))
    from stubgen.cli import EMITTERS, generate
    table = section((root / "docs" / "IDL.md").read_text(encoding="utf-8"),
                    "Command line")
    langs = {}
    for r in rows(table)[1:]:
        if len(r) == 3 and ticks(r[0]):
            langs[ticks(r[0])[0]] = {t for t in ticks(r[1]) if "." in t}
    misses = compare("IDL.md's --lang table", langs, EMITTERS)
    for lang in sorted(set(langs) & set(EMITTERS)):
        written = generate("module M;\nint f(int x);\n", "M.idl", [lang])
        misses += compare("IDL.md's --lang %s files" % lang, langs[lang],
                          written)
    return misses


def js_exports(source):
    names = set()
    for group in re.findall(r"^export \{([^}]*)\}", source, re.M):
        for item in group.split(","):
            names.add(item.split(" as ")[-1].strip())
    names.update(re.findall(
        r"^export (?:async )?(?:function|class|const|let) (\w+)", source,
        re.M))
    return names


def check_js(root):
    table = rows(section((root / "docs" / "JS.md").read_text(
        encoding="utf-8"), "Install"))
    cells = {ticks(r[0])[0]: r[1] for r in table if r and ticks(r[0])}
    js = root / "bindings" / "js"
    front = [t for t in ticks(cells.get("nccc/index.mjs", "").split(";")[0])
             if "." not in t and "/" not in t]
    misses = compare("JS.md's nccc/index.mjs exports", front, js_exports(
        (js / "nccc" / "index.mjs").read_text(encoding="utf-8")))
    subpaths = [t for t in ticks(cells.get("package.json", ""))
                if t == "." or t.startswith("./")]
    package = json.loads((js / "package.json").read_text(encoding="utf-8"))
    return misses + compare("JS.md's package.json exports", subpaths,
                            package["exports"])


def check_python(root):
    text = section((root / "docs" / "PYTHON.md").read_text(
        encoding="utf-8"), "Generated modules")
    line = next((b for b in text.split("\n- ") if b.startswith("`lib`")),
                "").split("\n\n")[0]
    documented = {t.split("(")[0] for t in ticks(line)}
    tree = ast.parse((root / "bindings" / "python" / "nccc" / "binder.py")
                     .read_text(encoding="utf-8"))
    bound = next(n for n in tree.body
                 if isinstance(n, ast.ClassDef) and n.name == "Bound")
    helpers = {n.name for n in bound.body if isinstance(n, ast.FunctionDef)
               and not n.name.startswith("_")} | {"lib"}
    return compare("PYTHON.md's bound module helpers", documented, helpers)


def main():
    root = Path(sys.argv[1]).resolve()
    return report(check_build_options(root) + check_languages(root) +
                  check_js(root) + check_python(root))


if __name__ == "__main__":
    sys.exit(main())

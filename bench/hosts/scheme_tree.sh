# scheme_tree.sh — sourced by bench/hosts/run.sh and callgrind.sh.
# scheme_tree OUT: sets slib to OUT/scheme-lib, the Scheme library tree
# (bindings/scheme/nccc and the generated (nccc bench) side by side: one
# root for Racket's collection lookup), and, with Guile installed, cache
# to OUT/guile-ccache, the tree and bench/hosts/scheme's libraries
# compiled ahead of time (with GUILE_AUTO_COMPILE=0 Guile would otherwise
# interpret the core and the benchmark). The caller sets root (the
# source tree), scm (bench/hosts/scheme) and tmp.
scheme_tree() {
  slib=$1/scheme-lib
  cache=$1/guile-ccache
  mkdir -p "$slib/nccc"
  for f in "$root"/bindings/scheme/nccc/*; do ln -sf "$f" "$slib/nccc/"; done
  NCCC_PYTHON=${NCCC_PYTHON:-/usr/bin/python3} "$root/bin/nccc-stubgen" --lang scheme \
    -o "$tmp/gen" "$root/bench/bench.idl" >/dev/null && cp "$tmp/gen/bench.sls" "$slib/nccc/bench.sls"
  command -v guile-3.0 >/dev/null 2>&1 || return 0
  for f in "$slib:nccc/compat.scm" "$slib:nccc/abi.scm" $(cd "$slib" && for p in nccc/private/*.scm; do
             echo "$slib:$p"; done) "$slib:nccc/core.scm" "$slib:nccc/bench.sls" \
           "$scm:hbench/own.scm" "$scm:hbench/run.scm"; do
    src=${f#*:}
    GUILE_AUTO_COMPILE=0 guild compile -x .sls -L "$slib" -L "$scm" \
      -o "$cache/${src%.*}.go" "${f%%:*}/$src" >/dev/null 2>&1
  done
}

# The build's one Rust toolchain: NCCC_CARGO and NCCC_RUSTC, chosen here
# once for every cargo command of the build, its tests and tools/demo.sh
# (through the script examples/CMakeLists.txt writes). Two cargos must
# never share a Cargo.lock: a newer cargo writes a lock file an older one
# cannot read. Debian's cargo and rustc (/usr/bin) are preferred, as on a
# fresh machine, else the first on PATH; set either cache variable to
# choose another (a new build directory then, for the same reason).
include_guard(GLOBAL)
find_program(NCCC_CARGO NAMES cargo HINTS /usr/bin NO_DEFAULT_PATH)
find_program(NCCC_CARGO NAMES cargo)
find_program(NCCC_RUSTC NAMES rustc HINTS /usr/bin NO_DEFAULT_PATH)
find_program(NCCC_RUSTC NAMES rustc)
if(NOT NCCC_CARGO OR NOT NCCC_RUSTC)
  message(WARNING "nccc: cargo or rustc not found; the Rust tests and the "
                  "Rust demo are not built (apt-get install cargo rustc)")
endif()

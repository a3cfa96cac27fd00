#!/usr/bin/env bash
# The main job on the bundled examples: installs what is missing, generates
# nccc wrappers for idl/zlib.idl and idl/sqlite3.idl, builds, and runs the
# C example programs, then examples/demo.lua (Lua 5.4), examples/demo.scm
# (Guile 3), examples/demo.py (Python 3), zlib streamed through a z_stream
# from Lua 5.4 and LuaJIT (examples/zlib_stream.lua), Python
# (examples/zlib_stream.py), Chez Scheme and Racket
# (examples/zlib_stream.sps), and examples/rust/demo.rs (Rust, built with
# cargo) on the same wrappers, through the Lua modules, Scheme
# libraries, Python modules and Rust modules generated from the same IDL
# files (build/plain/examples/demo_gen/nccc; the Rust demo with the cargo
# the build chose, cmake/NcccRust.cmake); last, builds the web example
# (SQLite in WebAssembly, examples/web) and prints where it is and how to
# serve it, runs examples/zlib_stream.mjs under node (zlib built for wasm,
# streamed through a z_stream JavaScript allocates), and prints the command that serves a page calling the
# Cortex-M3 image through nccc's bridge (examples/web-device; printed
# only, not run). Exits non-zero if any step fails.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/tools/install-deps.sh"
build="$root/build/plain"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNCCC_BUILD_WEB_EXAMPLE=ON >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" \
  --target registry_demo zlib_demo nccc_demo nccc_demo_lua_core nccc_demo_modules \
  nccc_python_core >/dev/null
gen="$build/examples/demo_gen"
echo "== the runtime on its own (examples/registry_demo.c)"
"$build/examples/registry_demo"
echo
echo "== zlib through generated wrappers (idl/zlib.idl, examples/zlib_demo.c)"
"$build/examples/zlib_demo" "$root/README.md"
echo
echo "== Lua 5.4: zlib and SQLite, a row callback and a SQL function in Lua (examples/demo.lua)"
LUA_PATH="$root/bindings/lua/?.lua;$gen/nccc/?.lua" LUA_CPATH="$build/examples/lua/?.so" \
  lua5.4 "$root/examples/demo.lua" "$build/examples/libnccc_demo.so" "$root/README.md"
echo
echo "== Guile 3: the same in Scheme (examples/demo.scm)"
GUILE_AUTO_COMPILE=0 guile-3.0 --no-auto-compile -L "$root/bindings/scheme" -L "$gen" \
  "$root/examples/demo.scm" "$build/examples/libnccc_demo.so" "$root/README.md"
echo
echo "== Python 3: the same in Python (examples/demo.py)"
PYTHONPATH="$build/python" /usr/bin/python3 "$root/examples/demo.py" \
  "$build/examples/libnccc_demo.so" "$root/README.md" "$gen/nccc"
echo
echo "== zlib streamed through a z_stream that the host allocates, fields by name"
lib="$build/examples/libnccc_demo.so"
echo "Lua 5.4 (examples/zlib_stream.lua):"
LUA_PATH="$root/bindings/lua/?.lua;$gen/nccc/?.lua" LUA_CPATH="$build/examples/lua/?.so" \
  lua5.4 "$root/examples/zlib_stream.lua" "$lib" "$root/README.md"
echo "LuaJIT (the same program):"
LUA_PATH="$root/bindings/lua/?.lua;$gen/nccc/?.lua" luajit "$root/examples/zlib_stream.lua" "$lib" "$root/README.md"
echo "Python 3 (examples/zlib_stream.py):"
PYTHONPATH="$build/python" /usr/bin/python3 "$root/examples/zlib_stream.py" "$lib" "$root/README.md" "$gen/nccc"
echo "Chez Scheme (examples/zlib_stream.sps):"
chezscheme --libdirs "$root/bindings/scheme:$gen" --program "$root/examples/zlib_stream.sps" "$lib" "$root/README.md"
echo "Racket (the same program):"
PLTCOLLECTS="$root/bindings/scheme:$gen:" racket "$root/examples/zlib_stream.sps" "$lib" "$root/README.md"
echo "(Guile streams in demo.scm above, Rust in demo.rs below, JavaScript under node further down)"
echo
echo "== Rust: the same with Rust closures (examples/rust/demo.rs)"
sh "$build/examples/rust/run_demo.sh" "$root/README.md"
echo
echo "== JavaScript in a browser: SQLite and qsort in WebAssembly (examples/web)"
cmake --build "$build" --target nccc_js_wasm >/dev/null
site="$build/wasm/examples/web/site"
echo "  built: $site (SQLite, the runtime and the wrappers in nccc_web.wasm)"
echo "  serve it: node $root/examples/web/serve.mjs $site 8080"
echo "  then open http://127.0.0.1:8080/ (ctest -L browser checks the page in chromium)"
echo
echo "== JavaScript under node: zlib streamed through a z_stream from new (examples/zlib_stream.mjs)"
zwasm="$build/wasm/test/js/wasm"
if [ -f "$zwasm/nccc_js_zlib.wasm" ]; then
  node "$root/examples/zlib_stream.mjs" "$zwasm/nccc_js_zlib.wasm" "$zwasm/generated" "$root/README.md"
else
  echo "  not built: zlib for wasm needs npm, which fetches its sources (tools/install-deps.sh)"
fi
echo
echo "== JavaScript in a browser: a microcontroller's functions (examples/web-device)"
if cmake --build "$build" --target nccc_device_images >/dev/null 2>&1; then
  image="$build/test/device/full/firmware.elf"
  echo "  built: $image (the Cortex-M3 image, run on qemu-system-arm for each page)"
  echo "  serve it: node $root/examples/web/serve.mjs $root/examples/web-device 8081" \
    "--also $root/examples/web --also $root/bindings/js --also $build/test/device/generated" \
    "--link 'exec:env TIMEOUT=3600 bash $root/device/run_qemu.sh --link $image'"
  echo "  then open http://127.0.0.1:8081/ (ctest -R browser_device checks the page in chromium)"
else
  echo "  not built: the device image needs arm-none-eabi-gcc and qemu-system-arm (tools/install-deps.sh)"
fi

/*
** nccc_js.c — the C side of the JavaScript host (docs/JS.md): the one
** dispatcher every closure of a JavaScript program targets. It is not
** C at all: the wasm module imports it ("nccc" "dispatch") from the
** support library when it is instantiated, so no function is added to
** the table at run time. Taking its address here puts the import into
** the function table; nccc_js_dispatcher hands that address to the
** host, which claims every closure with it as the target.
*/
#include <nccc/nccc.h>

/* A threaded module (-pthread) cannot be standalone: emscripten's glue
** instantiates it, on the main thread and in every worker, with imports
** from "env" only. There the dispatcher is env.nccc_js_dispatch
** (nccc_js_imports.js), which calls the function nccc's attach sets. */
#ifdef __EMSCRIPTEN_PTHREADS__
__attribute__((import_module("env"), import_name("nccc_js_dispatch")))
#else
__attribute__((import_module("nccc"), import_name("dispatch")))
#endif
void nccc_js_dispatch(const uint64_t *in, uint64_t *out);

NCCC_API nccc_fn nccc_js_dispatcher(void);

nccc_fn nccc_js_dispatcher(void) { return nccc_js_dispatch; }

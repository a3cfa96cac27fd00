// The wasm module's one import from the JavaScript host (nccc_js.c),
// declared for emcc's link step. A standalone module imports
// nccc.dispatch, which the support library supplies at instantiation
// (bindings/js/nccc/runtime.mjs, load). A threaded module, which
// emscripten's glue instantiates, imports env.nccc_js_dispatch: this
// function, which forwards to what the support library's attach set on
// the glue's Module.
mergeInto(LibraryManager.library, {
  dispatch: function () {},
  nccc_js_dispatch: function (inp, out) { Module["ncccDispatch"](inp, out); },
});

// The wasm module's one import from the JavaScript host (nccc_js.c),
// declared for emcc's link step; the support library supplies it at
// instantiation (bindings/js/nccc/runtime.mjs).
mergeInto(LibraryManager.library, { dispatch: function () {} });

/*
** module.c — nccc._core: loading libraries, symbols, memory, the raw
** call, the dispatcher's address, and the module itself (docs/PYTHON.md,
** "The primitive"). The support library (nccc/primitive.py) picks this
** module, or its ctypes twin nccc/ctypes_core.py, which has the same
** names.
*/
#include <dlfcn.h>
#include <string.h>

#include "core.h"

/* open(path): the library loaded for good (never closed: C may keep
** pointers into it), as an int handle. */
static PyObject *core_open(PyObject *self, PyObject *arg) {
  PyObject *bytes;
  void *h;
  (void)self;
  if (!PyUnicode_FSConverter(arg, &bytes)) return NULL;
  h = dlopen(PyBytes_AS_STRING(bytes), RTLD_NOW | RTLD_GLOBAL);
  Py_DECREF(bytes);
  if (h == NULL) {
    PyErr_Format(PyExc_OSError, "cannot load %R: %s", arg, dlerror());
    return NULL;
  }
  return PyLong_FromVoidPtr(h);
}

/* sym(handle, name): a symbol's address. */
static PyObject *core_sym(PyObject *self, PyObject *const *args, Py_ssize_t n) {
  void *h, *p;
  const char *name;
  (void)self;
  if (n != 2 || !PyUnicode_Check(args[1])) {
    PyErr_SetString(PyExc_TypeError, "sym(handle, name)");
    return NULL;
  }
  h = PyLong_AsVoidPtr(args[0]);
  if (h == NULL && PyErr_Occurred()) return NULL;
  if ((name = PyUnicode_AsUTF8(args[1])) == NULL) return NULL;
  p = dlsym(h, name);
  if (p == NULL) {
    PyErr_Format(PyExc_LookupError, "no symbol '%s'", name);
    return NULL;
  }
  return PyLong_FromVoidPtr(p);
}

/* read(addr, n): n bytes of C memory. */
static PyObject *core_read(PyObject *self, PyObject *const *args, Py_ssize_t n) {
  void *p;
  Py_ssize_t len;
  (void)self;
  if (n != 2) {
    PyErr_SetString(PyExc_TypeError, "read(addr, n)");
    return NULL;
  }
  p = PyLong_AsVoidPtr(args[0]);
  len = PyLong_AsSsize_t(args[1]);
  if (PyErr_Occurred()) return NULL;
  if (p == NULL || len < 0) {
    PyErr_SetString(PyExc_ValueError, "read of NULL or a negative size");
    return NULL;
  }
  return PyBytes_FromStringAndSize((const char *)p, len);
}

/* string(addr): the NUL-terminated bytes at addr. */
static PyObject *core_string(PyObject *self, PyObject *addr) {
  const char *p = PyLong_AsVoidPtr(addr);
  (void)self;
  if (p == NULL) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "string at NULL");
    return NULL;
  }
  return PyBytes_FromStringAndSize(p, (Py_ssize_t)strlen(p));
}

/* call(addr, ins, nout): raw slots in (ints), a tuple of nout raw slots
** out (unsigned), and the list of the errors callbacks raised (or None). */
static PyObject *core_call(PyObject *self, PyObject *const *args, Py_ssize_t n) {
  PyObject *seq, *outs = NULL, *errors;
  Py_ssize_t nin, nout, k;
  uint64_t *in = NULL, *out = NULL;
  pcore_fn fn;
  pcore_frame fr;
  (void)self;
  if (n != 3) {
    PyErr_SetString(PyExc_TypeError, "call(addr, ins, nout)");
    return NULL;
  }
  fn = (pcore_fn)(uintptr_t)PyLong_AsVoidPtr(args[0]);
  nout = PyLong_AsSsize_t(args[2]);
  if (PyErr_Occurred()) return NULL;
  if (fn == NULL || nout < 0) {
    PyErr_SetString(PyExc_ValueError, "call of NULL or with a negative count");
    return NULL;
  }
  if ((seq = PySequence_Fast(args[1], "call: a sequence of slots expected")) == NULL) return NULL;
  nin = PySequence_Fast_GET_SIZE(seq);
  in = PyMem_Calloc((size_t)nin + 1, 8);
  out = PyMem_Calloc((size_t)nout + 1, 8);
  if (in == NULL || out == NULL) {
    PyErr_NoMemory();
    goto done;
  }
  for (k = 0; k < nin; k++)
    if (pcore_store(PySequence_Fast_GET_ITEM(seq, k), in + k, 1) != 0) goto done;
  pcore_run(fn, in, out, &fr);
  if ((outs = PyTuple_New(nout)) == NULL) {
    Py_XDECREF(fr.errors);
    goto done;
  }
  for (k = 0; k < nout; k++) {
    PyObject *v = PyLong_FromUnsignedLongLong(out[k]);
    if (v == NULL) { Py_CLEAR(outs); Py_XDECREF(fr.errors); goto done; }
    PyTuple_SET_ITEM(outs, k, v);
  }
  errors = fr.errors != NULL ? fr.errors : (Py_INCREF(Py_None), Py_None);
  Py_SETREF(outs, PyTuple_Pack(2, outs, errors));
  Py_DECREF(errors);
done:
  Py_DECREF(seq);
  PyMem_Free(in);
  PyMem_Free(out);
  return outs;
}

static PyObject *core_dispatcher(PyObject *self, PyObject *unused) {
  (void)self, (void)unused;
  return PyLong_FromVoidPtr((void *)(uintptr_t)pcore_dispatch);
}

#define FAST(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL
static PyMethodDef core_methods[] = {
  {"open", core_open, METH_O, "open(path): load a library for good; its handle"},
  {"sym", FAST(core_sym), "sym(handle, name): a symbol's address"},
  {"read", FAST(core_read), "read(addr, n): n bytes of C memory"},
  {"string", core_string, METH_O, "string(addr): the NUL-terminated bytes at addr"},
  {"function", (PyCFunction)(void (*)(void))pcore_function_builtin, METH_VARARGS | METH_KEYWORDS,
   "function(addr, ins, outs, name, slow, post[, refused]): Function(...) as a builtin"},
  {"call", FAST(core_call), "call(addr, ins, nout): (out slots, callback errors or None)"},
  {"dispatcher", core_dispatcher, METH_NOARGS, "the dispatcher's address"},
  {"ref", FAST(pcore_ref), "ref(fn, ins, outs, notice, conv[, any_thread]): an environment word"},
  {"release_gil", pcore_release_gil, METH_O, "release_gil(delta): the count of reasons to release the GIL"},
  {"unref", pcore_unref, METH_O, "unref(env): drop a reference C never got"},
  {"refs", pcore_refs, METH_NOARGS, "the number of live references"},
  {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
  PyModuleDef_HEAD_INIT, "nccc._core",
  "The CPython primitive of nccc: calls, the dispatcher, memory.", -1, core_methods,
  NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void);
__attribute__((visibility("default"))) PyMODINIT_FUNC PyInit__core(void) {
  PyObject *m;
  if (PyType_Ready(&pcore_function_type) < 0) return NULL;
  if ((m = PyModule_Create(&core_module)) == NULL) return NULL;
  Py_INCREF(&pcore_function_type);
  if (PyModule_AddObject(m, "Function", (PyObject *)&pcore_function_type) < 0 ||
      PyModule_AddStringConstant(m, "KIND", "c") < 0) {
    Py_DECREF(&pcore_function_type);
    Py_DECREF(m);
    return NULL;
  }
  return m;
}

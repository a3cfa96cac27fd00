/*
** dispatch.c — the one dispatcher, the nccc function C calls for every
** callback of every Python closure, and the references it calls.
**
** ref(fn, ins, outs, notice, conv[, any_thread]) keeps fn with the
** callback's slot specs and gives its environment word (the address of
** the reference). While a reference made with any_thread lives, calls
** release the GIL (pcore_releasing, function.c).
** C calls the dispatcher with in[0] = that word; the dispatcher takes
** the GIL (PyGILState_Ensure: it may be any thread, one that C started
** too), converts in[1..] to Python values by ins, calls fn, and converts
** its result (one value, or a sequence of one per out item) into out by
** outs. Where its own conversions do not apply it asks conv(k, v): k > 0
** argument k from its raw slot or bytes, k < 0 result -k to its slot
** (int) or bytes, raising "bad result" when it cannot be one.
**
** An exception never unwinds through C: it is added to the errors of
** the innermost call under way on this thread (function.c) for that
** call to raise when C returns, and the out slots are zeroed; with no
** call under way on this thread (a thread C started) it goes to
** sys.unraisablehook. A release notice (out == NULL) calls notice()
** (unless None) and drops the reference; when the notice comes while
** the reference's own callbacks run (the callback released its closure,
** or a destroy notify it caused did), the drop waits until the last of
** them has put its results (docs/CALLBACKS.md, "Release inside a
** callback").
*/
#include <stdlib.h>
#include <string.h>

#include "core.h"

typedef struct pcore_entry {
  PyObject *fn, *notice, *conv;
  pcore_side ins, outs;
  int any_thread;
  int running;  /* callbacks of this reference under way */
  int released; /* the release notice came while running > 0 */
} pcore_entry;

static Py_ssize_t live_refs; /* under the GIL */

static void drop(pcore_entry *r) {
  Py_XDECREF(r->fn);
  Py_XDECREF(r->notice);
  Py_XDECREF(r->conv);
  pcore_side_clear(&r->ins);
  pcore_side_clear(&r->outs);
  if (r->any_thread) pcore_releasing--;
  PyMem_Free(r);
  live_refs--;
}

PyObject *pcore_ref(PyObject *self, PyObject *const *args, Py_ssize_t n) {
  pcore_entry *r;
  (void)self;
  if (n != 5 && n != 6) {
    PyErr_SetString(PyExc_TypeError, "ref(fn, ins, outs, notice, conv[, any_thread])");
    return NULL;
  }
  r = PyMem_Calloc(1, sizeof *r);
  if (r == NULL) return PyErr_NoMemory();
  live_refs++;
  if (pcore_parse(args[1], &r->ins) != 0 || pcore_parse(args[2], &r->outs) != 0) {
    drop(r);
    return NULL;
  }
  if (r->ins.var || r->outs.var) {
    drop(r);
    PyErr_SetString(PyExc_ValueError, "nccc._core: a callback's spec cannot end in '*'");
    return NULL;
  }
  if (n == 6 && PyObject_IsTrue(args[5])) {
    r->any_thread = 1;
    pcore_releasing++;
  }
  r->fn = Py_NewRef(args[0]);
  r->notice = Py_NewRef(args[3]);
  r->conv = Py_NewRef(args[4]);
  return PyLong_FromVoidPtr(r);
}

PyObject *pcore_unref(PyObject *self, PyObject *env) {
  pcore_entry *r = PyLong_AsVoidPtr(env);
  (void)self;
  if (r == NULL) return PyErr_Occurred() ? NULL : (PyErr_SetString(PyExc_ValueError, "NULL"), NULL);
  drop(r);
  Py_RETURN_NONE;
}

/* release_gil(delta): adds delta to the count of reasons to release the
** GIL in calls; the count. */
PyObject *pcore_release_gil(PyObject *self, PyObject *delta) {
  Py_ssize_t d = PyLong_AsSsize_t(delta);
  (void)self;
  if (d == -1 && PyErr_Occurred()) return NULL;
  pcore_releasing += d;
  return PyLong_FromSsize_t(pcore_releasing);
}

PyObject *pcore_refs(PyObject *self, PyObject *unused) {
  (void)self, (void)unused;
  return PyLong_FromSsize_t(live_refs);
}

/* conv(k, v) */
static PyObject *convert(pcore_entry *r, Py_ssize_t k, PyObject *v) {
  PyObject *key = PyLong_FromSsize_t(k), *res = NULL;
  if (key != NULL) res = PyObject_CallFunctionObjArgs(r->conv, key, v, NULL);
  Py_XDECREF(key);
  return res;
}

static PyObject *arguments(pcore_entry *r, const uint64_t *in) {
  PyObject *args = PyTuple_New(r->ins.n);
  Py_ssize_t k;
  if (args == NULL) return NULL;
  for (k = 0; k < r->ins.n; k++) {
    const pcore_item *it = &r->ins.items[k];
    PyObject *v = pcore_give(it, in + 1 + it->slot);
    if (v != NULL && (it->kind == PCORE_WORD || it->kind == PCORE_BYTES)) {
      PyObject *c = convert(r, k + 1, v);
      Py_DECREF(v);
      v = c;
    }
    if (v == NULL) { Py_DECREF(args); return NULL; }
    PyTuple_SET_ITEM(args, k, v);
  }
  return args;
}

static int put(pcore_entry *r, Py_ssize_t k, PyObject *v, uint64_t *out) {
  const pcore_item *it = &r->outs.items[k];
  PyObject *c;
  int st;
  if (pcore_take(it, v, out + it->slot)) return 0;
  c = convert(r, -(k + 1), v);
  if (c == NULL) return -1;
  st = pcore_store(c, out + it->slot, it->slots);
  Py_DECREF(c);
  return st;
}

static int put_results(pcore_entry *r, PyObject *res, uint64_t *out) {
  PyObject *seq;
  Py_ssize_t k;
  int st = 0;
  if (r->outs.n == 0) return 0;
  if (r->outs.n == 1) return put(r, 0, res, out);
  seq = PySequence_Fast(res, "a callback with several results returns a sequence of them");
  if (seq == NULL) return -1;
  if (PySequence_Fast_GET_SIZE(seq) != r->outs.n) {
    PyErr_Format(PyExc_TypeError, "bad result (%zd values expected, got %zd)", r->outs.n,
                 PySequence_Fast_GET_SIZE(seq));
    st = -1;
  }
  for (k = 0; st == 0 && k < r->outs.n; k++)
    st = put(r, k, PySequence_Fast_GET_ITEM(seq, k), out);
  Py_DECREF(seq);
  return st;
}

/* The exception set now, kept for the call under way or reported. */
static void keep_error(pcore_entry *r) {
  PyObject *type, *value, *tb;
  if (pcore_current == NULL) {
    PyErr_WriteUnraisable(r->fn);
    return;
  }
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  if (tb != NULL && value != NULL) PyException_SetTraceback(value, tb);
  if (pcore_current->errors == NULL) pcore_current->errors = PyList_New(0);
  if (pcore_current->errors == NULL || value == NULL ||
      PyList_Append(pcore_current->errors, value) != 0)
    PyErr_Clear();
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
}

void pcore_dispatch(const uint64_t *in, uint64_t *out) {
  pcore_entry *r = (pcore_entry *)(uintptr_t)in[0];
  PyGILState_STATE gil = PyGILState_Ensure();
  if (out == NULL) {
    if (r->notice != Py_None) {
      PyObject *res = PyObject_CallNoArgs(r->notice);
      if (res == NULL) keep_error(r);
      Py_XDECREF(res);
    }
    if (r->running > 0)
      r->released = 1;
    else
      drop(r);
  } else {
    PyObject *args, *res = NULL;
    r->running++;
    args = arguments(r, in);
    if (args != NULL) res = PyObject_Call(r->fn, args, NULL);
    if (res == NULL || put_results(r, res, out) != 0) {
      keep_error(r);
      memset(out, 0, (size_t)r->outs.nslots * 8);
    }
    Py_XDECREF(args);
    Py_XDECREF(res);
    if (--r->running == 0 && r->released) drop(r);
  }
  PyGILState_Release(gil);
}

/*
** function.c — nccc._core.Function(addr, ins, outs, name, slow, post,
** refused): one nccc function's converter and call, made once from its
** slot specs (spec.c) and called through vectorcall. It checks the
** argument count, converts each argument into a slot buffer on the C
** stack, calls the function, and converts the results: None, one value,
** or a tuple. The call keeps the GIL (releasing and taking it again
** would cost more than the rest of the call) unless some reference may
** be called from another thread (pcore_releasing > 0: a closure claimed
** for any thread, a packed function, or nccc.release_gil(True)): then C
** runs with the GIL released, so that a thread C started can take it
** and call back while this call waits. What its fast paths do not take
** goes to the support library (docs/ABI.md, "Core items"):
**   slow(k, v)   argument k (from 1): its slot (int) or bytes, or raises;
**                with a helper key in place of k (nccc_items.h) it raises
**                that error: the count (v: the count given), the
**                callbacks' (v: their errors), keyword arguments (v:
**                their names);
**   post(k, v)   result k (from 1) of a closure, a helper or a record
**                item from its raw slot or bytes;
**   refused(a)   (or None) called with the arguments before a refusal
**                is raised: it releases the closures the call took.
*/
#include <string.h>

#include "core.h"
#include <structmember.h>

#define STACK_SLOTS 32

_Thread_local pcore_frame *pcore_current __attribute__((tls_model("initial-exec")));
Py_ssize_t pcore_releasing;

typedef struct {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  pcore_fn fn;
  pcore_side ins, outs;
  PyObject *name, *slow, *post, *refused;
  PyMethodDef def; /* function(): the same call as a builtin bound to this */
} pcore_function;

/* Runs fn as the innermost call of this thread (the GIL released when
** pcore_releasing says so): the dispatcher adds the errors of callbacks
** to fr->errors. */
void pcore_run(pcore_fn fn, const uint64_t *in, uint64_t *out, pcore_frame *fr) {
  fr->errors = NULL;
  fr->prev = pcore_current;
  pcore_current = fr;
  if (pcore_releasing > 0) {
    PyThreadState *ts = PyEval_SaveThread();
    fn(in, out);
    PyEval_RestoreThread(ts);
  } else {
    fn(in, out);
  }
  pcore_current = fr->prev;
}

static PyObject *refuse(pcore_function *f, PyObject *const *args, Py_ssize_t n) {
  if (f->refused != Py_None) {
    PyObject *type, *value, *tb, *tuple = PyTuple_New(n), *r;
    Py_ssize_t k;
    PyErr_Fetch(&type, &value, &tb);
    for (k = 0; tuple != NULL && k < n; k++) {
      Py_INCREF(args[k]);
      PyTuple_SET_ITEM(tuple, k, args[k]);
    }
    r = tuple ? PyObject_CallOneArg(f->refused, tuple) : NULL;
    Py_XDECREF(tuple);
    if (r == NULL) {
      Py_XDECREF(type);
      Py_XDECREF(value);
      Py_XDECREF(tb);
      return NULL;
    }
    Py_DECREF(r);
    PyErr_Restore(type, value, tb);
  }
  return NULL;
}

/* slow(k, v) raised (or returned an exception's absence). */
static PyObject *call_slow(pcore_function *f, Py_ssize_t k, PyObject *v) {
  PyObject *key = PyLong_FromSsize_t(k), *r;
  if (key == NULL) return NULL;
  r = PyObject_CallFunctionObjArgs(f->slow, key, v, NULL);
  Py_DECREF(key);
  return r;
}

static PyObject *results(pcore_function *f, const uint64_t *out) {
  PyObject *tuple = NULL;
  Py_ssize_t k, n = f->outs.n;
  if (n == 0) Py_RETURN_NONE;
  if (n > 1 && (tuple = PyTuple_New(n)) == NULL) return NULL;
  for (k = 0; k < n; k++) {
    const pcore_item *it = &f->outs.items[k];
    PyObject *v = pcore_give(it, out + it->slot);
    if (v != NULL && (it->kind == PCORE_WORD || it->kind == PCORE_BYTES)) {
      PyObject *key = PyLong_FromSsize_t(k + 1), *r = NULL;
      if (key != NULL) r = PyObject_CallFunctionObjArgs(f->post, key, v, NULL);
      Py_XDECREF(key);
      Py_DECREF(v);
      v = r;
    }
    if (v == NULL) { Py_XDECREF(tuple); return NULL; }
    if (n == 1) return v;
    PyTuple_SET_ITEM(tuple, k, v);
  }
  return tuple;
}

static PyObject *function_call(PyObject *self, PyObject *const *args, size_t nargsf,
                               PyObject *kwnames) {
  pcore_function *f = (pcore_function *)self;
  Py_ssize_t n = PyVectorcall_NARGS(nargsf), k;
  uint64_t in_stack[STACK_SLOTS], out_stack[STACK_SLOTS], *in = in_stack, *out = out_stack;
  size_t nin = f->ins.nslots, nout = f->outs.nslots;
  PyObject *r = NULL;
  pcore_frame fr;
  if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0) {
    Py_XDECREF(call_slow(f, NCCC_HELPER_KEYWORDS, kwnames));
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "no keyword arguments");
    return refuse(f, args, n);
  }
  if (n != f->ins.n && !(f->ins.var && n > f->ins.n)) {
    PyObject *count = PyLong_FromSsize_t(n);
    if (count != NULL) Py_XDECREF(call_slow(f, NCCC_HELPER_COUNT, count));
    Py_XDECREF(count);
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "wrong argument count");
    return refuse(f, args, n);
  }
  if (f->ins.var) nin += (size_t)(n - f->ins.n);
  if (nin > STACK_SLOTS && (in = PyMem_Calloc(nin, 8)) == NULL) return PyErr_NoMemory();
  if (nout > STACK_SLOTS && (out = PyMem_Calloc(nout, 8)) == NULL) {
    PyErr_NoMemory();
    goto done;
  }
  memset(out, 0, nout * 8);
  for (k = 0; k < n; k++) {
    static const pcore_item raw = {PCORE_RAW, 0, 64, 1, 0};
    const pcore_item *it = k < f->ins.n ? &f->ins.items[k] : &raw;
    uint64_t *slot = k < f->ins.n ? in + it->slot : in + f->ins.nslots + (k - f->ins.n);
    long long x;
    if (it->kind == PCORE_SINT && it->bits == 64 && pcore_small_int(args[k], &x)) {
      *slot = (uint64_t)x; /* the commonest argument, taken inline */
      continue;
    }
    if (!pcore_take(it, args[k], slot)) {
      PyObject *v = call_slow(f, k + 1, args[k]);
      int bad = v == NULL || pcore_store(v, slot, it->slots) != 0;
      Py_XDECREF(v);
      if (bad) { refuse(f, args, n); goto done; }
    }
  }
  pcore_run(f->fn, in, out, &fr);
  if (fr.errors != NULL) {
    Py_XDECREF(call_slow(f, NCCC_HELPER_CALLBACK_ERRORS, fr.errors));
    Py_DECREF(fr.errors);
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "error in callback");
    goto done;
  }
  r = results(f, out);
done:
  if (in != in_stack) PyMem_Free(in);
  if (out != out_stack) PyMem_Free(out);
  return r;
}

/* The call as a builtin method of the Function (METH_FASTCALL): CPython's
** interpreter calls builtins without the generic call protocol's steps. */
static PyObject *function_fastcall(PyObject *self, PyObject *const *args, Py_ssize_t n,
                                   PyObject *kwnames) {
  return function_call(self, args, (size_t)n, kwnames);
}

static PyObject *function_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  PyObject *addr, *ins, *outs, *name, *slow, *post, *refused = Py_None;
  static char *names[] = {"addr", "ins", "outs", "name", "slow", "post", "refused", NULL};
  pcore_function *f;
  void *p;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OUUUOO|O:Function", names, &addr, &ins, &outs,
                                   &name, &slow, &post, &refused))
    return NULL;
  p = PyLong_AsVoidPtr(addr);
  if (p == NULL) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "nccc._core: NULL function");
    return NULL;
  }
  f = (pcore_function *)type->tp_alloc(type, 0);
  if (f == NULL) return NULL;
  f->vectorcall = function_call;
  f->fn = (pcore_fn)(uintptr_t)p;
  if (pcore_parse(ins, &f->ins) != 0 || pcore_parse(outs, &f->outs) != 0) {
    Py_DECREF(f);
    return NULL;
  }
  if (f->outs.var) {
    Py_DECREF(f);
    PyErr_SetString(PyExc_ValueError, "nccc._core: results cannot end in '*'");
    return NULL;
  }
  f->name = Py_NewRef(name);
  f->slow = Py_NewRef(slow);
  f->post = Py_NewRef(post);
  f->refused = Py_NewRef(refused);
  f->def.ml_name = PyUnicode_AsUTF8(name);
  f->def.ml_meth = (PyCFunction)(void (*)(void))function_fastcall;
  f->def.ml_flags = METH_FASTCALL | METH_KEYWORDS;
  f->def.ml_doc = NULL;
  if (f->def.ml_name == NULL) {
    Py_DECREF(f);
    return NULL;
  }
  return (PyObject *)f;
}

static int function_traverse(PyObject *self, visitproc visit, void *arg) {
  pcore_function *f = (pcore_function *)self;
  Py_VISIT(f->slow);
  Py_VISIT(f->post);
  Py_VISIT(f->refused);
  return 0;
}

static int function_clear(PyObject *self) {
  pcore_function *f = (pcore_function *)self;
  Py_CLEAR(f->slow);
  Py_CLEAR(f->post);
  Py_CLEAR(f->refused);
  return 0;
}

static void function_dealloc(PyObject *self) {
  pcore_function *f = (pcore_function *)self;
  PyObject_GC_UnTrack(self);
  function_clear(self);
  Py_CLEAR(f->name);
  pcore_side_clear(&f->ins);
  pcore_side_clear(&f->outs);
  Py_TYPE(self)->tp_free(self);
}

static PyObject *function_repr(PyObject *self) {
  return PyUnicode_FromFormat("<nccc function %U>", ((pcore_function *)self)->name);
}

/* function(...): Function(...) as a builtin method bound to it, the
** fastest callable CPython has for it. */
PyObject *pcore_function_builtin(PyObject *self, PyObject *args, PyObject *kw) {
  PyObject *f = function_new(&pcore_function_type, args, kw), *b;
  (void)self;
  if (f == NULL) return NULL;
  b = PyCFunction_NewEx(&((pcore_function *)f)->def, f, NULL);
  Py_DECREF(f);
  return b;
}

static PyMemberDef function_members[] = {
  {"__name__", T_OBJECT, offsetof(pcore_function, name), READONLY, NULL},
  {NULL, 0, 0, 0, NULL},
};

PyTypeObject pcore_function_type = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "nccc._core.Function",
  .tp_basicsize = sizeof(pcore_function),
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
  .tp_doc = "An nccc function's converter and call, made once from its slot specs.",
  .tp_new = function_new,
  .tp_dealloc = function_dealloc,
  .tp_traverse = function_traverse,
  .tp_clear = function_clear,
  .tp_repr = function_repr,
  .tp_call = PyVectorcall_Call,
  .tp_vectorcall_offset = offsetof(pcore_function, vectorcall),
  .tp_members = function_members,
};

/*
** handext.c — the hand-written CPython extension of the Python benchmark
** (bench/python/bench.py): add(a, b) and mix(a, b, c, d, e, f) call the C
** functions tour's add and mix directly, converting as a careful
** hand-written METH_FASTCALL function does (exact types, range checks).
** bind(add_address, mix_address) gives it the functions.
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

static int64_t (*add_fn)(int64_t, int64_t);
static double (*mix_fn)(int8_t, uint16_t, float, double, int64_t, char);

static PyObject *bind(PyObject *self, PyObject *args) {
  PyObject *a, *m;
  (void)self;
  if (!PyArg_ParseTuple(args, "OO", &a, &m)) return NULL;
  add_fn = (int64_t(*)(int64_t, int64_t))(uintptr_t)PyLong_AsVoidPtr(a);
  mix_fn = (double (*)(int8_t, uint16_t, float, double, int64_t, char))(uintptr_t)
      PyLong_AsVoidPtr(m);
  if (PyErr_Occurred()) return NULL;
  Py_RETURN_NONE;
}

static int int_in(PyObject *v, long long lo, long long hi, long long *out) {
  int overflow;
  if (!PyLong_Check(v)) {
    PyErr_SetString(PyExc_TypeError, "integer expected");
    return -1;
  }
  *out = PyLong_AsLongLongAndOverflow(v, &overflow);
  if (overflow || *out < lo || *out > hi) {
    PyErr_SetString(PyExc_OverflowError, "out of range");
    return -1;
  }
  return 0;
}

static PyObject *add(PyObject *self, PyObject *const *args, Py_ssize_t n) {
  long long a, b;
  (void)self;
  if (n != 2) {
    PyErr_SetString(PyExc_TypeError, "add expects 2 arguments");
    return NULL;
  }
  if (int_in(args[0], LLONG_MIN, LLONG_MAX, &a) || int_in(args[1], LLONG_MIN, LLONG_MAX, &b))
    return NULL;
  return PyLong_FromLongLong(add_fn(a, b));
}

static PyObject *mix(PyObject *self, PyObject *const *args, Py_ssize_t n) {
  long long a, b, e, f;
  double c, d;
  (void)self;
  if (n != 6) {
    PyErr_SetString(PyExc_TypeError, "mix expects 6 arguments");
    return NULL;
  }
  if (int_in(args[0], INT8_MIN, INT8_MAX, &a) || int_in(args[1], 0, UINT16_MAX, &b) ||
      int_in(args[4], LLONG_MIN, LLONG_MAX, &e) || int_in(args[5], CHAR_MIN, CHAR_MAX, &f))
    return NULL;
  c = PyFloat_AsDouble(args[2]);
  d = PyFloat_AsDouble(args[3]);
  if (PyErr_Occurred()) return NULL;
  return PyFloat_FromDouble(mix_fn((int8_t)a, (uint16_t)b, (float)c, d, e, (char)f));
}

static PyMethodDef methods[] = {
  {"bind", bind, METH_VARARGS, NULL},
  {"add", (PyCFunction)(void (*)(void))add, METH_FASTCALL, NULL},
  {"mix", (PyCFunction)(void (*)(void))mix, METH_FASTCALL, NULL},
  {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "handext", NULL, -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit_handext(void) { return PyModule_Create(&module); }

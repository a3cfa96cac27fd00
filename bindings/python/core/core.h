/*
** core.h — the internal header of nccc._core, the CPython primitive of
** the Python support library (docs/PYTHON.md, "The primitive"): what its
** parts share. spec.c: slot specs parsed once, Python values to slots and
** back; function.c: nccc._core.Function, one nccc function's converter
** and call made once (vectorcall), and the calls under way on each
** thread; dispatch.c: the one dispatcher C calls for every callback and
** the references it calls; module.c: loading libraries, memory, the raw
** call, the module itself.
**
** Its specs are sides of signatures in the native cores' one item format
** (docs/ABI.md, "Core items"), whose codes, marks and helper keys come
** from idl/abi.json through the generated nccc_items.h.
*/
#ifndef NCCC_PYTHON_CORE_H
#define NCCC_PYTHON_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "nccc_items.h"

#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

typedef void (*pcore_fn)(const uint64_t *in, uint64_t *out);

/* How one item of a spec converts (spec.c: from its code's ABI kind). */
enum pcore_kind {
  PCORE_BOOL,   /* True / False */
  PCORE_SINT,   /* a signed integer of bits bits */
  PCORE_UINT,   /* an unsigned integer of bits bits */
  PCORE_F32,    /* a float C narrows (its double's bits in the slot) */
  PCORE_F64,    /* a double */
  PCORE_PTR,    /* an address (a pointer, a function), None for NULL */
  PCORE_STR,    /* a str (its UTF-8) or bytes; results are str */
  PCORE_RAW,    /* any 64-bit integer, two's complement: a slot after '*' */
  PCORE_WORD,   /* one slot only the support library converts: a closure,
                   an item marked helper */
  PCORE_BYTES   /* a record's slots as bytes, only the support library's */
};

typedef struct pcore_item {
  unsigned char kind;
  unsigned char nonnull; /* marked nonnull: a zero slot goes to the slow path */
  unsigned short bits;
  uint32_t slots;        /* slots it takes (a record's: its bytes / 8, up) */
  uint32_t slot;         /* its first slot */
} pcore_item;

typedef struct pcore_side {
  Py_ssize_t n;          /* items */
  int var;               /* ends in '*': more raw slots follow */
  uint32_t nslots;       /* slots of the items */
  pcore_item *items;
} pcore_side;

/* A call under way on this thread: errors its callbacks raised. */
typedef struct pcore_frame {
  PyObject *errors;      /* a list, or NULL */
  struct pcore_frame *prev;
} pcore_frame;

/* initial-exec: read inline, without __tls_get_addr (the module needs a
** few bytes of the static TLS glibc keeps spare for dlopen) */
extern _Thread_local pcore_frame *pcore_current __attribute__((tls_model("initial-exec")));
/* > 0: calls release the GIL (function.c); under the GIL */
extern Py_ssize_t pcore_releasing;

/* The value of an int that fits one machine word, without a call: 1, or
** 0 when v is not such an int (bool included). CPython's own layout of
** small ints, read where the version has it public. */
static inline int pcore_small_int(PyObject *v, long long *x) {
  if (!PyLong_CheckExact(v)) return 0;
#if PY_VERSION_HEX >= 0x030C0000
  if (!PyUnstable_Long_IsCompact((PyLongObject *)v)) return 0;
  *x = (long long)PyUnstable_Long_CompactValue((PyLongObject *)v);
#else
  {
    Py_ssize_t size = Py_SIZE(v);
    if (size < -1 || size > 1) return 0;
    *x = (long long)size * (long long)((PyLongObject *)v)->ob_digit[0];
  }
#endif
  return 1;
}

/* spec.c */
int pcore_parse(PyObject *spec, pcore_side *side);
void pcore_side_clear(pcore_side *side);
int pcore_take(const pcore_item *it, PyObject *v, uint64_t *slot);
PyObject *pcore_give(const pcore_item *it, const uint64_t *slots);
int pcore_store(PyObject *v, uint64_t *slots, uint32_t n);

/* function.c */
extern PyTypeObject pcore_function_type;
PyObject *pcore_function_builtin(PyObject *self, PyObject *args, PyObject *kw);
void pcore_run(pcore_fn fn, const uint64_t *in, uint64_t *out, pcore_frame *fr);

/* dispatch.c */
void pcore_dispatch(const uint64_t *in, uint64_t *out);
PyObject *pcore_ref(PyObject *self, PyObject *const *args, Py_ssize_t n);
PyObject *pcore_unref(PyObject *self, PyObject *env);
PyObject *pcore_refs(PyObject *self, PyObject *unused);
PyObject *pcore_release_gil(PyObject *self, PyObject *delta);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif

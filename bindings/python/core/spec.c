/*
** spec.c — slot specs: one side of a signature in the native cores'
** item format (docs/ABI.md, "Core items"; nccc_items.h, generated from
** idl/abi.json), parsed once into items of the kinds of core.h; and the
** conversions of one item between a Python value and its slot. A value
** the fast paths do not take goes to the support library (pcore_take
** returns 0).
*/
#include <float.h>
#include <math.h>
#include <string.h>

#include "core.h"

/* How each signature code converts, from the ABI's kind, size and
** sign of the code: an int of its bits, a closure only by the helper. */
#define KIND_BOOL(bytes, sgn) PCORE_BOOL
#define KIND_INT(bytes, sgn) ((sgn) ? PCORE_SINT : PCORE_UINT)
#define KIND_ERRNO KIND_INT
#define KIND_FLOAT(bytes, sgn) ((bytes) == 4 ? PCORE_F32 : PCORE_F64)
#define KIND_POINTER(bytes, sgn) PCORE_PTR
#define KIND_FUNCTION KIND_POINTER
#define KIND_STRING(bytes, sgn) PCORE_STR
#define KIND_CLOSURE(bytes, sgn) PCORE_WORD
#define CODE_ENTRY(c, kind, bytes, sgn) \
  [(unsigned char)(c)] = {1, KIND_##kind(bytes, sgn), 8 * (bytes)},
static const struct {
  unsigned char known, kind;
  unsigned short bits;
} CODES[128] = {NCCC_ITEM_CODES(CODE_ENTRY)};

/* The largest record: as many bytes as the most slots a call takes. */
#define MAX_RECORD_BYTES ((unsigned long)1 << 27)

static int spec_error(PyObject *spec) {
  PyErr_Format(PyExc_ValueError, "nccc._core: malformed slot spec %R", spec);
  return -1;
}

/* One item at s[*k] (its marks, then a code or a record) into it. */
static int parse_item(const char *s, Py_ssize_t len, Py_ssize_t *k, pcore_item *it) {
  int helper = 0;
  unsigned char c;
  for (; *k < len; ++*k) {
    if (s[*k] == NCCC_ABI_ITEM_NONNULL && !it->nonnull) it->nonnull = 1;
    else if (s[*k] == NCCC_ABI_ITEM_HELPER && !helper) helper = 1;
    else break;
  }
  if (*k >= len) return -1;
  c = (unsigned char)s[(*k)++];
  it->slots = 1;
  if (c == NCCC_ABI_SIG_RECORD_OPEN) {
    unsigned long size = 0;
    while (*k < len && s[*k] >= '0' && s[*k] <= '9') {
      size = size * 10 + (unsigned long)(s[(*k)++] - '0');
      if (size > MAX_RECORD_BYTES) return -1;
    }
    if (size == 0 || *k >= len || s[(*k)++] != NCCC_ABI_SIG_RECORD_CLOSE) return -1;
    it->kind = PCORE_BYTES;
    it->slots = (uint32_t)((size + 7) / 8);
    return 0;
  }
  if (c >= 128 || !CODES[c].known) return -1;
  it->kind = helper ? PCORE_WORD : CODES[c].kind;
  it->bits = CODES[c].bits;
  return 0;
}

int pcore_parse(PyObject *spec, pcore_side *side) {
  Py_ssize_t len, k = 0, n = 0;
  const char *s;
  uint32_t slot = 0;
  memset(side, 0, sizeof *side);
  if (!PyUnicode_Check(spec)) return spec_error(spec);
  s = PyUnicode_AsUTF8AndSize(spec, &len);
  if (s == NULL) return -1;
  side->items = PyMem_Calloc((size_t)len + 1, sizeof(pcore_item));
  if (side->items == NULL) { PyErr_NoMemory(); return -1; }
  while (k < len) {
    pcore_item *it = &side->items[n];
    if (s[k] == NCCC_ABI_SIG_VARIADIC && k == len - 1) { side->var = 1; break; }
    if (parse_item(s, len, &k, it) != 0) goto bad;
    it->slot = slot;
    slot += it->slots;
    n++;
  }
  side->n = n;
  side->nslots = slot;
  return 0;
bad:
  pcore_side_clear(side);
  return spec_error(spec);
}

void pcore_side_clear(pcore_side *side) {
  PyMem_Free(side->items);
  side->items = NULL;
  side->n = 0;
}

/* An int v within [lo, hi] of a signed item, or of 64 bits unsigned. */
static int take_int(const pcore_item *it, PyObject *v, uint64_t *slot) {
  int overflow = 0;
  long long x;
  if (pcore_small_int(v, &x)) goto range;
  if (!PyLong_Check(v) || PyBool_Check(v)) return 0;
  x = PyLong_AsLongLongAndOverflow(v, &overflow);
  if (x == -1 && PyErr_Occurred()) { PyErr_Clear(); return 0; }
  if (overflow != 0) {
    unsigned long long u;
    if (overflow < 0 || it->kind == PCORE_SINT) return 0;
    if (it->kind == PCORE_UINT && it->bits < 64) return 0;
    u = PyLong_AsUnsignedLongLong(v);
    if (u == (unsigned long long)-1 && PyErr_Occurred()) { PyErr_Clear(); return 0; }
    *slot = (uint64_t)u;
    return 1;
  }
range:
  if (it->kind == PCORE_SINT && it->bits < 64) {
    long long lim = (long long)1 << (it->bits - 1);
    if (x < -lim || x >= lim) return 0;
  } else if (it->kind == PCORE_UINT) {
    if (x < 0) return 0;
    if (it->bits < 64 && (unsigned long long)x >> it->bits) return 0;
  }
  *slot = (uint64_t)x;
  return 1;
}

static int take_double(PyObject *v, double *d) {
  if (PyFloat_CheckExact(v)) { *d = PyFloat_AS_DOUBLE(v); return 1; }
  if (PyLong_Check(v) && !PyBool_Check(v)) {
    *d = PyLong_AsDouble(v);
    if (*d == -1.0 && PyErr_Occurred()) { PyErr_Clear(); return 0; }
    return 1;
  }
  if (PyFloat_Check(v)) { *d = PyFloat_AS_DOUBLE(v); return 1; }
  return 0;
}

/* The slot of value v for item it (1), or 0: the support library
** converts v or says why not. Never leaves an exception set. Strings are
** not copied: the slot points into the str (its cached UTF-8) or bytes,
** which the caller holds for the call. */
int pcore_take(const pcore_item *it, PyObject *v, uint64_t *slot) {
  double d;
  switch (it->kind) {
  case PCORE_BOOL:
    if (v == Py_True) *slot = 1;
    else if (v == Py_False) *slot = 0;
    else return 0;
    return 1;
  case PCORE_SINT: case PCORE_UINT: case PCORE_RAW:
    if (!take_int(it, v, slot)) return 0;
    break;
  case PCORE_F32:
    if (!take_double(v, &d)) return 0;
    if (isfinite(d) && (d > FLT_MAX || d < -FLT_MAX)) return 0;
    memcpy(slot, &d, sizeof d);
    return 1;
  case PCORE_F64:
    if (!take_double(v, &d)) return 0;
    memcpy(slot, &d, sizeof d);
    return 1;
  case PCORE_PTR:
    if (v == Py_None) *slot = 0;
    else if (!PyLong_Check(v) || PyBool_Check(v)) return 0;
    else {
      unsigned long long u = PyLong_AsUnsignedLongLong(v);
      if (u == (unsigned long long)-1 && PyErr_Occurred()) { PyErr_Clear(); return 0; }
      *slot = (uint64_t)u;
    }
    break;
  case PCORE_STR: {
    const char *s;
    Py_ssize_t n;
    if (PyUnicode_Check(v)) {
      s = PyUnicode_AsUTF8AndSize(v, &n);
      if (s == NULL) { PyErr_Clear(); return 0; }
    } else if (PyBytes_Check(v)) {
      s = PyBytes_AS_STRING(v);
      n = PyBytes_GET_SIZE(v);
    } else {
      return 0;
    }
    if ((Py_ssize_t)strlen(s) != n) return 0; /* a NUL inside */
    *slot = (uint64_t)(uintptr_t)s;
    return 1;
  }
  default:
    return 0;
  }
  return !(it->nonnull && *slot == 0);
}

/* What a slow path returned, into n slots: an int (one slot, two's
** complement) or bytes of at most n * 8 (zero-padded). */
int pcore_store(PyObject *v, uint64_t *slots, uint32_t n) {
  if (PyLong_Check(v)) {
    pcore_item raw = {PCORE_RAW, 0, 64, 1, 0};
    if (!take_int(&raw, v, slots)) {
      PyErr_SetString(PyExc_OverflowError, "nccc._core: slot value out of 64 bits");
      return -1;
    }
    return 0;
  }
  if (PyBytes_Check(v) && (size_t)PyBytes_GET_SIZE(v) <= (size_t)n * 8) {
    memset(slots, 0, (size_t)n * 8);
    memcpy(slots, PyBytes_AS_STRING(v), (size_t)PyBytes_GET_SIZE(v));
    return 0;
  }
  PyErr_Format(PyExc_TypeError, "nccc._core: a slot value (int or at most %u bytes) "
               "expected, got %.80s", (unsigned)n * 8, Py_TYPE(v)->tp_name);
  return -1;
}

/* The Python value of item it from its slots; PCORE_WORD an int of the
** raw slot, PCORE_BYTES the bytes (the support library converts both). */
PyObject *pcore_give(const pcore_item *it, const uint64_t *slots) {
  uint64_t s = slots[0];
  double d;
  switch (it->kind) {
  case PCORE_BOOL: return PyBool_FromLong(s != 0);
  case PCORE_SINT: case PCORE_RAW: return PyLong_FromLongLong((long long)s);
  case PCORE_UINT: case PCORE_WORD: return PyLong_FromUnsignedLongLong(s);
  case PCORE_F32: case PCORE_F64:
    memcpy(&d, &s, sizeof d);
    return PyFloat_FromDouble(d);
  case PCORE_PTR:
    if (s == 0) Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(s);
  case PCORE_STR:
    if (s == 0) Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8((const char *)(uintptr_t)s,
                                (Py_ssize_t)strlen((const char *)(uintptr_t)s),
                                "surrogateescape");
  default:
    return PyBytes_FromStringAndSize((const char *)slots, (Py_ssize_t)it->slots * 8);
  }
}

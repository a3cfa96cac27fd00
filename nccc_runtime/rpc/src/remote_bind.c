/*
** remote_bind.c — a device module registered as a local module: its
** functions are static stubs of a fixed pool, each forwarding to the
** device function its entry names (docs/RPC.md, "Bound modules").
**
** nccc functions carry no context, so each bound function needs its own
** address; the pool is NCCC_REMOTE_STUBS ordinary C functions, made by
** the macros below, never code made at run time. Closing a remote
** (nccc_remote_close) is here too: its bound modules go first.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote_internal.h"

/* A function run here for a stub instead of a device call (the memory
** module): its status goes to out[0], like a built-in's. */
typedef nccc_status (*local_fn)(nccc_remote *r, const uint64_t *in, uint64_t *out);

typedef struct stub_entry {
  nccc_remote *remote; /* NULL: free, or unbound */
  nccci_remote_fn fn;
  local_fn local;      /* NULL: a device function */
} stub_entry;

static stub_entry stubs[NCCC_REMOTE_STUBS];
static pthread_mutex_t stubs_lock = PTHREAD_MUTEX_INITIALIZER;

static void stub_call(unsigned k, const uint64_t *in, uint64_t *out) {
  stub_entry *e = &stubs[k];
  nccc_status st;
  if (e->remote == NULL) {
    st = nccc_fail(NCCC_ERR_RPC_TRANSPORT, "rpc", "the remote was closed");
  } else if (e->local != NULL) {
    out[0] = (uint64_t)(int64_t)(int32_t)e->local(e->remote, in, out);
    return;
  } else {
    st = nccci_remote_invoke(e->remote, &e->fn, in, out);
  }
  if (st != NCCC_OK && e->fn.n_out) memset(out, 0, 8u * e->fn.n_out);
}

/* The pool: stub_0NNNN for each octal NNNN below 2000 (1024 stubs); X
** makes one item of a pool from its octal number. */
#define POOL8(X, p) X(p##0) X(p##1) X(p##2) X(p##3) X(p##4) X(p##5) X(p##6) X(p##7)
#define POOL64(X, p) POOL8(X, p##0) POOL8(X, p##1) POOL8(X, p##2) POOL8(X, p##3) \
                     POOL8(X, p##4) POOL8(X, p##5) POOL8(X, p##6) POOL8(X, p##7)
#define POOL512(X, p) POOL64(X, p##0) POOL64(X, p##1) POOL64(X, p##2) POOL64(X, p##3) \
                      POOL64(X, p##4) POOL64(X, p##5) POOL64(X, p##6) POOL64(X, p##7)
#define STUB(n) \
  static void stub_##n(const uint64_t *in, uint64_t *out) { stub_call(n, in, out); }
#define ADDR(n) stub_##n,
POOL512(STUB, 00)
POOL512(STUB, 01)
static const nccc_fn stub_fns[NCCC_REMOTE_STUBS] = {POOL512(ADDR, 00) POOL512(ADDR, 01)};

/* Claims a free stub for (r, signature's function; local: run here
** instead): its index, or -1. */
static int stub_claim(nccc_remote *r, nccc_handle handle, const char *signature,
                      local_fn local) {
  int k = -1;
  pthread_mutex_lock(&stubs_lock);
  for (int i = 0; i < NCCC_REMOTE_STUBS && k < 0; i++) {
    if (stubs[i].remote == NULL && stubs[i].fn.in_kind == NULL) k = i;
  }
  if (k >= 0 && nccci_remote_fn_init(&stubs[k].fn, handle, signature) == NCCC_OK) {
    stubs[k].remote = r;
    stubs[k].local = local;
  } else if (k >= 0) {
    k = -1;
  }
  pthread_mutex_unlock(&stubs_lock);
  return k;
}

static void stub_release(int k) {
  pthread_mutex_lock(&stubs_lock);
  stubs[k].remote = NULL;
  nccci_remote_fn_free(&stubs[k].fn);
  pthread_mutex_unlock(&stubs_lock);
}

/* ---- a bound module ---- */

typedef struct nccci_bound {
  struct nccci_bound *next;
  int added;             /* registered locally at module_index */
  uint16_t module_index;
  nccc_module module;
  nccc_registry registry;
  uint16_t n_fns;
  int *stub;             /* the stub of each function (-1: none) */
  nccc_fn *funcs;
  nccc_fn_info *info;
  void *names;           /* the names blob */
  nccc_type_layout *types;
  nccc_constant *constants;
  char **strings;        /* every string the module owns */
  size_t n_strings, cap_strings;
} nccci_bound;

static void bound_free(nccci_bound *b) {
  if (b->added) nccc_module_remove(b->module_index);
  for (uint16_t i = 0; b->stub && i < b->n_fns; i++) {
    if (b->stub[i] >= 0) stub_release(b->stub[i]);
  }
  for (uint16_t t = 0; b->types && t < b->module.n_types; t++) free((void *)b->types[t].fields);
  for (size_t i = 0; i < b->n_strings; i++) free(b->strings[i]);
  free(b->strings);
  free(b->stub);
  free(b->funcs);
  free(b->info);
  free(b->names);
  free(b->types);
  free(b->constants);
  free(b);
}

/* A copy the module owns of s (NULL for NULL or no memory). */
static const char *keep(nccci_bound *b, const char *s) {
  char *copy;
  if (s == NULL) return NULL;
  if (b->n_strings == b->cap_strings) {
    size_t cap = b->cap_strings ? 2 * b->cap_strings : 64;
    char **more = realloc(b->strings, cap * sizeof *more);
    if (more == NULL) return NULL;
    b->strings = more;
    b->cap_strings = cap;
  }
  copy = malloc(strlen(s) + 1);
  if (copy == NULL) return NULL;
  strcpy(copy, s);
  b->strings[b->n_strings++] = copy;
  return copy;
}

/* The device's built-ins the binding calls, by name. */
typedef struct builtins {
  nccci_remote_fn find, info, function, type, field, constant;
} builtins;

static nccc_status builtin(nccc_remote *r, int index, nccci_remote_fn *fn) {
  char sig[64];
  nccc_handle h;
  nccc_status st = nccci_remote_builtin(r, index, &h, sig, sizeof sig);
  return st == NCCC_OK ? nccci_remote_fn_init(fn, h, sig) : st;
}

/* Calls built-in fn; its status (out[0]) becomes the result. */
static nccc_status ask(nccc_remote *r, const nccci_remote_fn *fn, const uint64_t *in,
                       uint64_t *out) {
  nccc_status st = nccci_remote_invoke(r, fn, in, out);
  if (st == NCCC_OK && (int32_t)out[0] != 0) {
    /* the device's message is already this thread's last error */
    st = (nccc_status)(int32_t)out[0];
    if (nccc_last_status() != st) nccc_fail(st, "device built-in failed", NULL);
  }
  return st;
}

#define STR(slot) ((const char *)(uintptr_t)(slot))

/* sig with every record's slot count spelled out ({name} becomes
** {name:N}, N from the bound type's size), as a stub needs it; NULL when
** a record is not among the module's types or buf is too small. */
static const char *counted(const nccci_bound *b, const char *sig, char *buf, size_t cap) {
  size_t n = 0;
  for (const char *p = sig; *p; p++) {
    const char *close = strchr(p, NCCC_ABI_SIG_RECORD_CLOSE);
    const char *name = p + 1;
    size_t len = close ? (size_t)(close - name) : 0;
    if (*p != NCCC_ABI_SIG_RECORD_OPEN || memchr(name, NCCC_ABI_SIG_RECORD_COUNT, len)) {
      if (n + 1 >= cap) return NULL;
      buf[n++] = *p;
      continue;
    }
    uint16_t t = 0;
    while (t < b->module.n_types && (strlen(b->types[t].name) != len ||
                                     memcmp(b->types[t].name, name, len) != 0)) {
      t++;
    }
    if (t == b->module.n_types) return NULL;
    int w = snprintf(buf + n, cap - n, "{%.*s:%u}", (int)len, name,
                     (unsigned)NCCC_SLOTS(b->types[t].size));
    if (w < 0 || (size_t)w >= cap - n) return NULL;
    n += (size_t)w;
    p = close;
  }
  buf[n] = 0;
  return buf;
}

/* The names blob of b's functions, named names[i]. */
static nccc_status bound_names(nccci_bound *b, const char *const *names) {
  size_t blob = 3;
  char *at;
  for (uint16_t i = 0; i < b->n_fns; i++) blob += strlen(names[i]) + 1;
  b->names = malloc(blob);
  if (b->names == NULL) return nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", NULL);
  *(uint16_t *)b->names = b->n_fns;
  at = (char *)b->names + 2;
  for (uint16_t i = 0; i < b->n_fns; i++) {
    b->info[i].name_offset = (uint32_t)(at - (char *)b->names);
    strcpy(at, names[i]);
    at += strlen(names[i]) + 1;
  }
  *at = 0;
  return NCCC_OK;
}

/* b's tables for its name and counts (in b->n_fns and b->module). */
static nccc_status bound_tables(nccci_bound *b, const char *name) {
  b->module.name = keep(b, name);
  b->stub = malloc((b->n_fns + 1u) * sizeof *b->stub);
  b->funcs = calloc(b->n_fns + 1u, sizeof *b->funcs);
  b->info = calloc(b->n_fns + 1u, sizeof *b->info);
  b->types = calloc(b->module.n_types + 1u, sizeof *b->types);
  b->constants = calloc(b->module.n_constants + 1u, sizeof *b->constants);
  if (!b->stub || !b->funcs || !b->info || !b->types || !b->constants || !b->module.name) {
    return nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", NULL);
  }
  for (uint16_t i = 0; i < b->n_fns; i++) b->stub[i] = -1;
  return NCCC_OK;
}

/* Adds b as a local module. */
static nccc_status bound_add(nccci_bound *b) {
  nccc_status st;
  b->registry.names = b->names;
  b->registry.funcs = b->funcs;
  b->registry.info = b->info;
  b->registry.sorted = NULL;
  b->registry.hash_index = NULL;
  b->module.registry = &b->registry;
  b->module.types = b->types;
  b->module.constants = b->constants;
  st = nccc_module_add(&b->module, &b->module_index);
  b->added = st == NCCC_OK;
  return st;
}

static nccc_status bind_functions(nccc_remote *r, nccci_bound *b, const builtins *bi,
                                  uint16_t device_index) {
  nccc_status st = NCCC_OK;
  const char **names = calloc(b->n_fns + 1u, sizeof *names);
  if (names == NULL) return nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", NULL);
  for (uint16_t i = 0; i < b->n_fns; i++) {
    uint64_t in[1] = {nccc_handle_encode(device_index, i)}, out[6];
    st = ask(r, &bi->function, in, out);
    if (st == NCCC_OK) {
      names[i] = keep(b, STR(out[2]));
      b->info[i].signature = keep(b, STR(out[3]));
      b->info[i].n_in = (uint16_t)out[4];
      b->info[i].n_out = (uint16_t)out[5];
      char sig[256];
      const char *full = b->info[i].signature ? counted(b, b->info[i].signature, sig, sizeof sig)
                                              : NULL;
      b->stub[i] = names[i] && full ? stub_claim(r, (nccc_handle)in[0], full, NULL) : -1;
      if (b->stub[i] < 0) {
        st = nccc_fail(NCCC_ERR_POOL_EXHAUSTED, "nccc_remote_bind",
                       "NCCC_REMOTE_STUBS functions are bound");
      }
    }
    if (st != NCCC_OK) {
      free(names);
      return st;
    }
    b->funcs[i] = stub_fns[b->stub[i]];
  }
  st = bound_names(b, names);
  free(names);
  return st;
}

static nccc_status bind_types(nccc_remote *r, nccci_bound *b, const builtins *bi,
                              uint16_t device_index) {
  for (uint16_t t = 0; t < b->module.n_types; t++) {
    uint64_t in[3] = {device_index, t, 0}, out[6];
    nccc_type_layout *ty = &b->types[t];
    nccc_field *fields;
    nccc_status st = ask(r, &bi->type, in, out);
    if (st != NCCC_OK) return st;
    ty->name = keep(b, STR(out[1]));
    ty->size = (uint32_t)out[2];
    ty->align = (uint32_t)out[3];
    ty->kind = (uint16_t)out[4];
    ty->n_fields = (uint16_t)out[5];
    fields = calloc(ty->n_fields + 1u, sizeof *fields);
    ty->fields = fields;
    if (fields == NULL) return nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", NULL);
    for (uint16_t f = 0; f < ty->n_fields; f++) {
      in[2] = f;
      st = ask(r, &bi->field, in, out);
      if (st != NCCC_OK) return st;
      fields[f].name = keep(b, STR(out[1]));
      fields[f].type = keep(b, STR(out[2]));
      fields[f].offset = (uint32_t)out[3];
      fields[f].size = (uint32_t)out[4];
      fields[f].count = (uint32_t)out[5];
    }
  }
  for (uint16_t c = 0; c < b->module.n_constants; c++) {
    uint64_t in[2] = {device_index, c}, out[4];
    nccc_status st = ask(r, &bi->constant, in, out);
    if (st != NCCC_OK) return st;
    b->constants[c].name = keep(b, STR(out[1]));
    b->constants[c].type = keep(b, STR(out[2]));
    b->constants[c].value = out[3];
    if (out[3] && b->constants[c].type &&
        nccci_remote_kind(b->constants[c].type[0]) == NCCCI_SLOT_STRING) {
      /* a string constant's value is a device address: keep its text */
      char *text = nccci_remote_read_string(r, out[3]);
      const char *kept = text ? keep(b, text) : NULL;
      free(text);
      if (text == NULL) return nccc_last_status();
      if (kept == NULL) return nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", "a string constant");
      b->constants[c].value = (uint64_t)(uintptr_t)kept;
    }
  }
  return NCCC_OK;
}

static nccc_status bind(nccc_remote *r, nccci_bound *b, const builtins *bi, const char *module,
                        const char *local_name) {
  uint64_t in[1] = {(uint64_t)(uintptr_t)module}, out[5];
  uint16_t device_index;
  nccc_status st = ask(r, &bi->find, in, out);
  if (st != NCCC_OK) return st;
  device_index = (uint16_t)out[1];
  in[0] = device_index;
  st = ask(r, &bi->info, in, out);
  if (st != NCCC_OK) return st;
  b->n_fns = (uint16_t)out[2];
  b->module.n_types = (uint16_t)out[3];
  b->module.n_constants = (uint16_t)out[4];
  st = bound_tables(b, local_name ? local_name : module);
  /* types first: a function's record slots are counted from them */
  if (st == NCCC_OK) st = bind_types(r, b, bi, device_index);
  if (st == NCCC_OK) st = bind_functions(r, b, bi, device_index);
  if (st != NCCC_OK) return st;
  /* after the device's constants (their table has room for it): the
  ** marker by which host modules know to raise a failure of the remote
  ** call itself, which a stub can only leave as the last error */
  b->constants[b->module.n_constants].name = NCCC_RPC_BOUND_MARKER;
  b->constants[b->module.n_constants].type = "i";
  b->constants[b->module.n_constants].value = 1;
  b->module.n_constants++;
  return bound_add(b);
}

/* ---- the memory module: remote memory for hosts ---- */

static nccc_status mem_alloc(nccc_remote *r, const uint64_t *in, uint64_t *out) {
  out[1] = 0;
  return nccc_remote_alloc(r, in[0], &out[1]);
}
static nccc_status mem_free(nccc_remote *r, const uint64_t *in, uint64_t *out) {
  (void)out;
  return nccc_remote_free(r, in[0]);
}
/* device address, n, local buffer */
static nccc_status mem_read(nccc_remote *r, const uint64_t *in, uint64_t *out) {
  (void)out;
  return nccc_remote_read(r, in[0], (void *)(uintptr_t)in[2], (size_t)in[1]);
}
static nccc_status mem_write(nccc_remote *r, const uint64_t *in, uint64_t *out) {
  (void)out;
  return nccc_remote_write(r, in[0], (const void *)(uintptr_t)in[2], (size_t)in[1]);
}
static nccc_status mem_strlen(nccc_remote *r, const uint64_t *in, uint64_t *out) {
  out[1] = 0;
  return nccc_remote_strlen(r, in[0], &out[1]);
}

static const struct {
  const char *name, *signature;
  local_fn fn;
} memory_fns[] = {{"alloc", "L:ip", mem_alloc},
                  {"free", "p:i", mem_free},
                  {"read", "pLp:i", mem_read},
                  {"write", "pLp:i", mem_write},
                  {"strlen", "p:iL", mem_strlen}};
#define N_MEMORY_FNS (sizeof memory_fns / sizeof memory_fns[0])

static nccc_status bind_memory(nccc_remote *r, nccci_bound *b, const char *name) {
  const char *names[N_MEMORY_FNS];
  nccc_status st;
  b->n_fns = N_MEMORY_FNS;
  b->module.n_constants = 2;
  st = bound_tables(b, name);
  /* the facts a host needs to lay out values in the device's memory */
  if (st == NCCC_OK) {
    b->constants[0].name = "big_endian";
    b->constants[0].type = "i";
    b->constants[0].value = r->device.byte_order == NCCC_RPC_ORDER_BIG;
    b->constants[1].name = "pointer_bytes";
    b->constants[1].type = "i";
    b->constants[1].value = r->device.pointer_bytes;
  }
  for (uint16_t i = 0; st == NCCC_OK && i < N_MEMORY_FNS; i++) {
    names[i] = memory_fns[i].name;
    b->info[i].signature = memory_fns[i].signature;
    st = nccc_signature_counts(memory_fns[i].signature, &b->info[i].n_in, &b->info[i].n_out);
    b->stub[i] = stub_claim(r, 0, memory_fns[i].signature, memory_fns[i].fn);
    if (st == NCCC_OK && b->stub[i] < 0) {
      st = nccc_fail(NCCC_ERR_POOL_EXHAUSTED, "nccc_remote_bind_memory",
                     "NCCC_REMOTE_STUBS functions are bound");
    }
    if (st == NCCC_OK) b->funcs[i] = stub_fns[b->stub[i]];
  }
  if (st == NCCC_OK) st = bound_names(b, names);
  return st == NCCC_OK ? bound_add(b) : st;
}

nccc_status nccc_remote_bind_memory(nccc_remote *r, const char *name, uint16_t *out_index) {
  nccci_bound *b;
  nccc_status st;
  if (r == NULL || name == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "nccc_remote_bind_memory", NULL);
  }
  b = calloc(1, sizeof *b);
  if (b == NULL) return nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", NULL);
  pthread_mutex_lock(&r->lock);
  st = bind_memory(r, b, name);
  if (st == NCCC_OK) {
    b->next = r->bound;
    r->bound = b;
    if (out_index) *out_index = b->module_index;
  } else {
    bound_free(b);
  }
  pthread_mutex_unlock(&r->lock);
  return st;
}

static nccc_status bind_locked(nccc_remote *r, const char *module, const char *local_name,
                               uint16_t *out_index) {
  builtins bi;
  nccci_bound *b;
  nccc_status st;
  memset(&bi, 0, sizeof bi);
  st = builtin(r, NCCC_BUILTIN_MODULE_FIND, &bi.find);
  if (st == NCCC_OK) st = builtin(r, NCCC_BUILTIN_MODULE_INFO, &bi.info);
  if (st == NCCC_OK) st = builtin(r, NCCC_BUILTIN_FUNCTION, &bi.function);
  if (st == NCCC_OK) st = builtin(r, NCCC_BUILTIN_MODULE_TYPE, &bi.type);
  if (st == NCCC_OK) st = builtin(r, NCCC_BUILTIN_MODULE_FIELD, &bi.field);
  if (st == NCCC_OK) st = builtin(r, NCCC_BUILTIN_MODULE_CONSTANT, &bi.constant);
  b = st == NCCC_OK ? calloc(1, sizeof *b) : NULL;
  if (st == NCCC_OK && b == NULL) st = nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", NULL);
  if (st == NCCC_OK) st = bind(r, b, &bi, module, local_name);
  if (st == NCCC_OK) {
    b->next = r->bound;
    r->bound = b;
    if (out_index) *out_index = b->module_index;
  } else if (b) {
    bound_free(b);
  }
  nccci_remote_fn_free(&bi.find);
  nccci_remote_fn_free(&bi.info);
  nccci_remote_fn_free(&bi.function);
  nccci_remote_fn_free(&bi.type);
  nccci_remote_fn_free(&bi.field);
  nccci_remote_fn_free(&bi.constant);
  return st;
}

nccc_status nccc_remote_bind(nccc_remote *r, const char *module, const char *local_name,
                             uint16_t *out_index) {
  nccc_status st;
  if (r == NULL || module == NULL) return nccc_fail(NCCC_ERR_NULL_POINTER, "nccc_remote_bind", NULL);
  pthread_mutex_lock(&r->lock);
  st = bind_locked(r, module, local_name, out_index);
  pthread_mutex_unlock(&r->lock);
  return st;
}

void nccc_remote_close(nccc_remote *r) {
  if (r == NULL) return;
  while (r->bound) {
    nccci_bound *b = r->bound;
    r->bound = b->next;
    bound_free(b);
  }
  nccci_remote_free(r);
}

/* The runtime core built with every feature of nccc/config.h left out
** (trace, faults, thunks, the TVM layer, closures, the global registry,
** the status texts, the host built-ins, the name hash) on a Cortex-M3: a function of a
** const module is called, the built-ins of the left-out features keep
** their places but answer that they are not there, and so does
** nccc_register; a registry's hash index is ignored. */
#include <string.h>

#include <nccc/nccc.h>

#if NCCC_WITH_TRACE || NCCC_WITH_FAULTS || NCCC_WITH_THUNKS || NCCC_WITH_TVM || \
    NCCC_WITH_CLOSURES || NCCC_WITH_GLOBAL_REGISTRY || NCCC_WITH_STATUS_NAMES || \
    NCCC_WITH_HOST_BUILTINS || NCCC_WITH_NAME_HASH
#error "build with every NCCC_WITH_* switch of the runtime 0"
#endif

static void add(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_i64(nccc_slot_to_i64(in[0]) + nccc_slot_to_i64(in[1]));
}

NCCC_NAMES_BLOB(small_names, 1, "add\0");
static const nccc_fn small_funcs[] = {add};
static const nccc_fn_info small_info[] = {{"ll:l", 2, 1, 2}};
static const nccc_registry small_registry = {(const char *)&small_names, small_funcs,
                                             small_info, NULL, NULL};
static const nccc_module small_module = {"small", &small_registry, NULL, 0, 0, NULL};

/* More names than are scanned (17), with a hash index whose slots are all
** empty: a runtime that probed it would find none of them. Built without
** NCCC_WITH_NAME_HASH, lookup ignores it and scans the blob. */
NCCC_NAMES_BLOB(wide_names, 17, "f00\0f01\0f02\0f03\0f04\0f05\0f06\0f07\0f08\0f09\0f10\0f11\0f12\0f13\0f14\0f15\0f16\0");
static const nccc_fn wide_funcs[17] = {add, add, add, add, add, add, add, add, add,
                                       add, add, add, add, add, add, add, add};
static const nccc_fn_info wide_info[17] = {
    {"ll:l", 2, 1, 2},
    {"ll:l", 2, 1, 6},
    {"ll:l", 2, 1, 10},
    {"ll:l", 2, 1, 14},
    {"ll:l", 2, 1, 18},
    {"ll:l", 2, 1, 22},
    {"ll:l", 2, 1, 26},
    {"ll:l", 2, 1, 30},
    {"ll:l", 2, 1, 34},
    {"ll:l", 2, 1, 38},
    {"ll:l", 2, 1, 42},
    {"ll:l", 2, 1, 46},
    {"ll:l", 2, 1, 50},
    {"ll:l", 2, 1, 54},
    {"ll:l", 2, 1, 58},
    {"ll:l", 2, 1, 62},
    {"ll:l", 2, 1, 66}};
static const uint16_t wide_empty_index[1 + 64] = {63};
static const nccc_registry wide_registry = {(const char *)&wide_names, wide_funcs, wide_info,
                                            NULL, wide_empty_index};
static const nccc_module wide_module = {"wide", &wide_registry, NULL, 0, 0, NULL};

/* Calls built-in name with zeroed in slots; returns its status slot. */
static uint64_t builtin_status(const char *name) {
  uint64_t in[8] = {0}, out[8] = {0};
  nccc_handle h;
  if (nccc_lookup(name, &h) != NCCC_OK) return ~(uint64_t)0;
  if (nccc_call(h, in, out) != NCCC_OK) return ~(uint64_t)0;
  return out[0];
}

int main(void) {
  uint64_t in[2] = {40, 2}, out[1] = {0};
  nccc_handle h;
  if (nccc_init(NULL, 0) != NCCC_OK) return 1;
  if (nccc_module_add(&small_module, NULL) != NCCC_OK) return 2;
  if (nccc_lookup("small.add", &h) != NCCC_OK) return 3;
  if (nccc_call_checked(h, in, 2, out, 1) != NCCC_OK || out[0] != 42) return 4;
  if (builtin_status("nccc.trace_clear") != NCCC_ERR_NOT_IMPLEMENTED) return 5;
  if (builtin_status("nccc.fault_disarm") != NCCC_ERR_NOT_IMPLEMENTED) return 6;
  if (builtin_status("nccc.closure_stats") != NCCC_ERR_NOT_IMPLEMENTED) return 7;
  if (builtin_status("nccc.register") != NCCC_ERR_NOT_IMPLEMENTED) return 8;
  if (builtin_status("nccc.peek") != NCCC_ERR_NOT_IMPLEMENTED) return 9;
  if (builtin_status("nccc.module_count") != NCCC_OK) return 10;
  if (nccc_register("add", add, "ll:l", 0, &h) != NCCC_ERR_NOT_IMPLEMENTED) return 11;
  if (nccc_lookup("add", &h) != NCCC_ERR_NAME_NOT_FOUND) return 12;
  if (strcmp(nccc_status_name(NCCC_ERR_BAD_HANDLE), nccc_status_name(NCCC_OK)) != 0) return 13;
  if (nccc_module_add(&wide_module, NULL) != NCCC_OK) return 14;
  if (nccc_lookup("wide.f16", &h) != NCCC_OK) return 15;
  if (nccc_call_checked(h, in, 2, out, 1) != NCCC_OK || out[0] != 42) return 16;
  if (nccc_lookup("wide.f17", &h) != NCCC_ERR_NAME_NOT_FOUND) return 17;
  return 0;
}

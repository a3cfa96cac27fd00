/*
** test_tvm_registry.c — TVM CRT's function registries: const registries
** in TVM's names-blob format and mutable ones carved out of a buffer,
** with one test per defect of TVM's implementation that nccc fixes.
*/
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <nccc/status.h>
#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/error_codes.h>
#include <tvm/runtime/crt/func_registry.h>

#include "crt_config.h"
#include "nccc_check.h"

/* Distinct packed functions, so a test can tell which one an entry holds. */
#define PF(k)                                                            \
  static int pf##k(TVMValue *a, int *t, int n, TVMValue *r, int *rt,     \
                   void *res) {                                          \
    (void)a; (void)t; (void)n; (void)rt; (void)res;                      \
    r[0].v_int64 = k;                                                    \
    return 0;                                                            \
  }
PF(0) PF(1) PF(2) PF(3) PF(4) PF(5) PF(6) PF(7)
static const TVMBackendPackedCFunc pfs[8] = {pf0, pf1, pf2, pf3,
                                             pf4, pf5, pf6, pf7};

#define FUNC_ALIGN offsetof(struct { char c; TVMBackendPackedCFunc f; }, f)
#define NAME_MAX_BYTES (TVM_CRT_MAX_STRLEN_FUNCTION_NAME - 1)

/* ---- a const registry as TVM's code generator lays it out -------------- */

static const struct {
  uint16_t count;
  char text[sizeof "add\0mul\0tvmgen_default_fused_nn_relu\0"];
} blob3 = {3, "add\0mul\0tvmgen_default_fused_nn_relu\0"};
static const TVMBackendPackedCFunc funcs3[3] = {pf0, pf1, pf2};
static const TVMFuncRegistry const_reg = {(const char *)&blob3, funcs3};

START_TEST(const_registry_reads) {
  tvm_function_index_t idx = 0xbeef;
  TVMBackendPackedCFunc fn = pf7;
  ck_assert_uint_eq(TVMFuncRegistry_GetNumFuncs(&const_reg), 3);
  ck_assert_str_eq(TVMFuncRegistry_Get0thFunctionName(&const_reg), "add");
  ck_assert_int_eq(TVMFuncRegistry_Lookup(&const_reg, "add", &idx), 0);
  ck_assert_uint_eq(idx, 0);
  ck_assert_int_eq(TVMFuncRegistry_Lookup(&const_reg, "mul", &idx), 0);
  ck_assert_uint_eq(idx, 1);
  ck_assert_int_eq(
      TVMFuncRegistry_Lookup(&const_reg, "tvmgen_default_fused_nn_relu", &idx),
      0);
  ck_assert_uint_eq(idx, 2);
  for (tvm_function_index_t i = 0; i < 3; i++) {
    ck_assert_int_eq(TVMFuncRegistry_GetByIndex(&const_reg, i, &fn), 0);
    ck_assert(fn == pfs[i]);
  }
}
END_TEST

START_TEST(lookup_miss_leaves_out_untouched) {
  tvm_function_index_t idx = 0xbeef;
  const char *misses[] = {"", "ad", "addx", "mu", "tvmgen", "relu", "MUL"};
  for (size_t i = 0; i < sizeof misses / sizeof misses[0]; i++) {
    nccc_clear_error();
    ck_assert_int_eq(TVMFuncRegistry_Lookup(&const_reg, misses[i], &idx),
                     kTvmErrorFunctionNameNotFound);
    ck_assert_uint_eq(idx, 0xbeef);
    ck_assert_int_eq(nccc_last_status(), kTvmErrorFunctionNameNotFound);
  }
  nccc_clear_error();
  ck_assert_int_eq(TVMFuncRegistry_Lookup(&const_reg, "addx", &idx),
                   kTvmErrorFunctionNameNotFound);
  ck_assert_ptr_nonnull(strstr(TVMGetLastError(), "addx"));
}
END_TEST

START_TEST(get_by_index_out_of_range) {
  TVMBackendPackedCFunc fn = pf7;
  const tvm_function_index_t bad[] = {3, 4, 0x7fff, 0x8000, 0xffff};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ck_assert_int_eq(TVMFuncRegistry_GetByIndex(&const_reg, bad[i], &fn),
                     kTvmErrorFunctionIndexInvalid);
    ck_assert(fn == pf7);
  }
}
END_TEST

/* A module without functions: count 0 and no function table, as TVM's
** code generator emits it. Valid; every index is out of range and every
** name missing. */
START_TEST(empty_registry_is_valid) {
  static const struct {
    uint16_t count;
    char text[1];
  } blob0 = {0, ""};
  const TVMFuncRegistry empty = {(const char *)&blob0, NULL};
  tvm_function_index_t idx = 0xbeef;
  TVMBackendPackedCFunc fn = pf7;
  ck_assert_uint_eq(TVMFuncRegistry_GetNumFuncs(&empty), 0);
  ck_assert_int_eq(TVMFuncRegistry_GetByIndex(&empty, 0, &fn),
                   kTvmErrorFunctionIndexInvalid);
  ck_assert(fn == pf7);
  ck_assert_int_eq(TVMFuncRegistry_Lookup(&empty, "add", &idx),
                   kTvmErrorFunctionNameNotFound);
  ck_assert_uint_eq(idx, 0xbeef);
}
END_TEST

START_TEST(null_arguments_refused) {
  tvm_function_index_t idx = 0xbeef;
  TVMBackendPackedCFunc fn = pf7;
  TVMFuncRegistry no_names = {NULL, funcs3};
  ck_assert_uint_eq(TVMFuncRegistry_GetNumFuncs(NULL), 0);
  ck_assert_uint_eq(TVMFuncRegistry_GetNumFuncs(&no_names), 0);
  ck_assert_ptr_null(TVMFuncRegistry_Get0thFunctionName(NULL));
  ck_assert_int_eq(TVMFuncRegistry_Lookup(NULL, "add", &idx),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMFuncRegistry_Lookup(&no_names, "add", &idx),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMFuncRegistry_Lookup(&const_reg, NULL, &idx),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMFuncRegistry_Lookup(&const_reg, "add", NULL),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMFuncRegistry_GetByIndex(NULL, 0, &fn),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMFuncRegistry_GetByIndex(&const_reg, 0, NULL),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMFuncRegistry_SetNumFuncs(NULL, 1),
                   kTvmErrorNcccNullPointer);
  ck_assert_uint_eq(idx, 0xbeef);
  ck_assert(fn == pf7);
}
END_TEST

START_TEST(set_num_funcs_writes_the_count) {
  struct {
    uint16_t count;
    char text[sizeof "a\0b\0"];
  } blob = {2, "a\0b\0"};
  TVMFuncRegistry reg = {(const char *)&blob, funcs3};
  ck_assert_int_eq(TVMFuncRegistry_SetNumFuncs(&reg, 1), 0);
  ck_assert_uint_eq(blob.count, 1);
  ck_assert_uint_eq(TVMFuncRegistry_GetNumFuncs(&reg), 1);
}
END_TEST

/* ---- mutable registries -------------------------------------------------- */

/* Buffers are placed at chosen offsets inside an arena whose other bytes
** are a guard pattern, so any write outside the buffer is seen. */
#define ARENA_BYTES 4096
#define GUARD 0xa5
static _Alignas(16) uint8_t arena[ARENA_BYTES];

static uint8_t *place(size_t offset, size_t size) {
  ck_assert_uint_le(64 + offset + size + 64, ARENA_BYTES);
  memset(arena, GUARD, sizeof arena);
  return arena + 64 + offset;
}

static void check_guards(const uint8_t *buf, size_t size) {
  const uint8_t *p = arena;
  while (p < buf && *p == GUARD) p++;
  ck_assert_ptr_eq(p, buf);
  p = buf + size;
  while (p < arena + ARENA_BYTES && *p == GUARD) p++;
  ck_assert_ptr_eq(p, arena + ARENA_BYTES);
}

/* What a test expects entry i to be. */
typedef struct expect {
  char name[TVM_CRT_MAX_STRLEN_FUNCTION_NAME];
  int fn;
} expect;

/* Reads everything back: count, blob, every name and function, the
** final NUL, and that the table lies aligned inside the buffer. */
static void verify(const TVMMutableFuncRegistry *reg, const expect *ex,
                   uint16_t n, const uint8_t *buf, size_t size) {
  const TVMFuncRegistry *r = &reg->registry;
  const char *p = TVMFuncRegistry_Get0thFunctionName(r);
  const uint8_t *table = (const uint8_t *)r->funcs;
  ck_assert_uint_eq(TVMFuncRegistry_GetNumFuncs(r), n);
  for (uint16_t i = 0; i < n; i++) {
    tvm_function_index_t idx = 0xbeef;
    TVMBackendPackedCFunc fn = NULL;
    ck_assert_str_eq(p, ex[i].name);
    p += strlen(p) + 1;
    ck_assert_int_eq(TVMFuncRegistry_Lookup(r, ex[i].name, &idx), 0);
    ck_assert_uint_eq(idx, i);
    ck_assert_int_eq(TVMFuncRegistry_GetByIndex(r, i, &fn), 0);
    ck_assert(fn == pfs[ex[i].fn]);
  }
  ck_assert_int_eq(*p, '\0'); /* the blob's final NUL */
  ck_assert((const uint8_t *)p < table);
  ck_assert_uint_eq((uintptr_t)table % FUNC_ALIGN, 0);
  ck_assert(table >= buf);
  ck_assert(table + reg->max_functions * sizeof(TVMBackendPackedCFunc) <=
            buf + size);
  ck_assert_ptr_eq(r->names, (const char *)buf);
  check_guards(buf, size);
}

START_TEST(create_too_small) {
  TVMMutableFuncRegistry reg, before;
  memset(&reg, 0x5a, sizeof reg);
  before = reg;
  for (size_t size = 0; size < NCCC_TVM_REGISTRY_MIN_BYTES; size++) {
    uint8_t *buf = place(3, size);
    ck_assert_int_eq(TVMMutableFuncRegistry_Create(&reg, buf, size),
                     kTvmErrorBufferTooSmall);
    ck_assert_mem_eq(&reg, &before, sizeof reg);
    check_guards(buf, 0);
  }
  ck_assert_int_eq(TVMMutableFuncRegistry_Create(NULL, arena, 64),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMMutableFuncRegistry_Create(&reg, NULL, 64),
                   kTvmErrorNcccNullPointer);
}
END_TEST

/* Defect 1: TVM put the table at buffer + size - n * sizeof(void *),
** misaligned unless size and buffer happened to be. Every offset and
** size must give an aligned table inside the buffer, TVM's capacity, and
** room for at least one name. */
START_TEST(table_aligned_for_every_offset_and_size) {
  for (size_t offset = 0; offset < 16; offset++) {
    for (size_t size = NCCC_TVM_REGISTRY_MIN_BYTES; size <= 700; size++) {
      TVMMutableFuncRegistry reg;
      uint8_t *buf = place(offset, size);
      expect ex = {"f", 3};
      ck_assert_int_eq(TVMMutableFuncRegistry_Create(&reg, buf, size), 0);
      ck_assert_uint_eq(reg.max_functions,
                        size / kTvmAverageFuncEntrySizeBytes);
      verify(&reg, &ex, 0, buf, size);
      ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, "f", pf3, 0), 0);
      verify(&reg, &ex, 1, buf, size);
    }
  }
}
END_TEST

static uint32_t rng;
static uint32_t next_rand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

/* Registers names of random lengths until the registry is full, checking
** the whole registry and the guard bytes after every step, and that a
** refused Set changes no byte. */
START_TEST(fill_until_full_never_writes_outside) {
  static expect ex[700];
  static uint8_t snapshot[ARENA_BYTES];
  rng = 12345;
  for (size_t offset = 0; offset < 8; offset++) {
    for (size_t size = NCCC_TVM_REGISTRY_MIN_BYTES; size <= 400; size += 3) {
      TVMMutableFuncRegistry reg;
      uint8_t *buf = place(offset, size);
      uint16_t n = 0;
      ck_assert_int_eq(TVMMutableFuncRegistry_Create(&reg, buf, size), 0);
      for (;;) {
        size_t len = 1 + next_rand() % 24;
        tvm_crt_error_t err;
        snprintf(ex[n].name, sizeof ex[n].name, "%u_%.*s", (unsigned)n,
                 (int)len, "abcdefghijklmnopqrstuvwxyz");
        ex[n].fn = (int)(next_rand() % 8);
        memcpy(snapshot, arena, sizeof arena);
        err = TVMMutableFuncRegistry_Set(&reg, ex[n].name, pfs[ex[n].fn], 0);
        if (err != kTvmErrorNoError) {
          ck_assert_int_eq(err, kTvmErrorFunctionRegistryFull);
          ck_assert_mem_eq(snapshot, arena, sizeof arena);
          break;
        }
        n++;
        verify(&reg, ex, n, buf, size);
      }
      ck_assert_uint_le(n, reg.max_functions);
    }
  }
}
END_TEST

/* Defect 2: TVM accepted a name whose NUL was the last byte before the
** table and then wrote the blob's final NUL onto the table's first entry.
** Here the name one byte too long is refused without a change, and the
** longest one that fits leaves every function intact. */
START_TEST(name_exactly_filling_the_names_area) {
  static uint8_t snapshot[ARENA_BYTES];
  for (size_t offset = 0; offset < 8; offset++) {
    for (size_t size = NCCC_TVM_REGISTRY_MIN_BYTES + 8; size <= 150; size++) {
      TVMMutableFuncRegistry reg;
      uint8_t *buf = place(offset, size);
      expect ex[2] = {{"a", 5}, {"", 6}};
      const char *final_nul;
      size_t room;
      ck_assert_int_eq(TVMMutableFuncRegistry_Create(&reg, buf, size), 0);
      if (reg.max_functions < 2) continue;
      ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, "a", pf5, 0), 0);
      final_nul = reg.registry.names + sizeof(uint16_t) + 2;
      room = (size_t)((const char *)reg.registry.funcs - final_nul);
      ck_assert_uint_ge(room, 2);
      if (room - 1 > NAME_MAX_BYTES) continue;
      /* room - 1 characters: the name and its NUL fill the area exactly,
      ** leaving no byte for the final NUL (TVM took it). */
      memset(ex[1].name, 'x', room - 1);
      ex[1].name[room - 1] = '\0';
      memcpy(snapshot, arena, sizeof arena);
      ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, ex[1].name, pf6, 0),
                       kTvmErrorFunctionRegistryFull);
      ck_assert_mem_eq(snapshot, arena, sizeof arena);
      verify(&reg, ex, 1, buf, size);
      /* room - 2 characters fit, final NUL included. */
      if (room < 3) continue;
      ex[1].name[room - 2] = '\0';
      ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, ex[1].name, pf6, 0), 0);
      verify(&reg, ex, 2, buf, size);
      /* the final NUL is the last byte before the table */
      ck_assert_int_eq(((const char *)reg.registry.funcs)[-1], '\0');
    }
  }
}
END_TEST

/* Defect 3: TVM took "" as a name: the blob then ended early while the
** count went up. It is refused, and the registry stays consistent. */
START_TEST(empty_name_refused) {
  static uint8_t snapshot[ARENA_BYTES];
  TVMMutableFuncRegistry reg;
  uint8_t *buf = place(1, 200);
  expect ex[2] = {{"first", 1}, {"second", 2}};
  ck_assert_int_eq(TVMMutableFuncRegistry_Create(&reg, buf, 200), 0);
  memcpy(snapshot, arena, sizeof arena);
  ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, "", pf0, 0),
                   kTvmErrorNcccBadName);
  ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, "", pf0, 1),
                   kTvmErrorNcccBadName);
  ck_assert_mem_eq(snapshot, arena, sizeof arena);
  ck_assert_int_eq(nccc_last_status(), kTvmErrorNcccBadName);
  ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, "first", pf1, 0), 0);
  memcpy(snapshot, arena, sizeof arena);
  ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, "", pf0, 0),
                   kTvmErrorNcccBadName);
  ck_assert_mem_eq(snapshot, arena, sizeof arena);
  ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, "second", pf2, 0), 0);
  verify(&reg, ex, 2, buf, 200);
}
END_TEST

START_TEST(long_names) {
  static char name[1001];
  static expect ex[1];
  TVMMutableFuncRegistry reg;
  uint8_t *buf = place(0, 1024);
  ck_assert_int_eq(TVMMutableFuncRegistry_Create(&reg, buf, 1024), 0);
  memset(name, 'n', sizeof name - 1);
  name[sizeof name - 1] = '\0';
  ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, name, pf0, 0),
                   kTvmErrorNcccBadName);
  name[NAME_MAX_BYTES + 1] = '\0';
  ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, name, pf0, 0),
                   kTvmErrorNcccBadName);
  ck_assert_uint_eq(TVMFuncRegistry_GetNumFuncs(&reg.registry), 0);
  /* the longest name fits a char[TVM_CRT_MAX_STRLEN_FUNCTION_NAME] */
  name[NAME_MAX_BYTES] = '\0';
  ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, name, pf4, 0), 0);
  strcpy(ex[0].name, name);
  ex[0].fn = 4;
  verify(&reg, ex, 1, buf, 1024);
}
END_TEST

START_TEST(set_null_arguments_refused) {
  TVMMutableFuncRegistry reg, never_created;
  uint8_t *buf = place(0, 100);
  memset(&never_created, 0, sizeof never_created);
  ck_assert_int_eq(TVMMutableFuncRegistry_Create(&reg, buf, 100), 0);
  ck_assert_int_eq(TVMMutableFuncRegistry_Set(NULL, "f", pf0, 0),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, NULL, pf0, 0),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, "f", NULL, 0),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMMutableFuncRegistry_Set(&never_created, "f", pf0, 0),
                   kTvmErrorNcccNullPointer);
  ck_assert_uint_eq(TVMFuncRegistry_GetNumFuncs(&reg.registry), 0);
  check_guards(buf, 100);
}
END_TEST

START_TEST(duplicate_and_override) {
  TVMMutableFuncRegistry reg;
  uint8_t *buf = place(5, 300);
  expect ex[3] = {{"a", 0}, {"b", 1}, {"c", 2}};
  ck_assert_int_eq(TVMMutableFuncRegistry_Create(&reg, buf, 300), 0);
  for (int i = 0; i < 3; i++) {
    ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, ex[i].name, pfs[i], 0),
                     0);
  }
  ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, "b", pf7, 0),
                   kTvmErrorFunctionAlreadyDefined);
  verify(&reg, ex, 3, buf, 300);
  /* replaced in place: same index, same count */
  ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, "b", pf7, 1), 0);
  ex[1].fn = 7;
  verify(&reg, ex, 3, buf, 300);
}
END_TEST

/* Full by function count (short names) and full by names area (long
** names): a new name is refused, an override of an existing one works. */
static void full_then_override(size_t size, size_t name_len,
                               int by_count) {
  static expect ex[64];
  static uint8_t snapshot[ARENA_BYTES];
  TVMMutableFuncRegistry reg;
  uint8_t *buf = place(3, size);
  uint16_t n = 0;
  tvm_crt_error_t err;
  ck_assert_int_eq(TVMMutableFuncRegistry_Create(&reg, buf, size), 0);
  for (;; n++) {
    ck_assert_uint_lt(n, 64);
    snprintf(ex[n].name, sizeof ex[n].name, "%c%.*s", 'a' + n, (int)name_len,
             "__________________________________________________");
    ex[n].fn = n % 8;
    err = TVMMutableFuncRegistry_Set(&reg, ex[n].name, pfs[ex[n].fn], 0);
    if (err != kTvmErrorNoError) break;
  }
  ck_assert_int_eq(err, kTvmErrorFunctionRegistryFull);
  ck_assert_uint_ge(n, 2);
  if (by_count) {
    ck_assert_uint_eq(n, reg.max_functions);
  } else {
    ck_assert_uint_lt(n, reg.max_functions);
  }
  memcpy(snapshot, arena, sizeof arena);
  /* the name that did not fit, now with override */
  ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, ex[n].name, pf0, 1),
                   kTvmErrorFunctionRegistryFull);
  ck_assert_mem_eq(snapshot, arena, sizeof arena);
  ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, ex[0].name, pf7, 0),
                   kTvmErrorFunctionAlreadyDefined);
  ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, ex[0].name, pf7, 1), 0);
  ck_assert_int_eq(TVMMutableFuncRegistry_Set(&reg, ex[n - 1].name, pf6, 1),
                   0);
  ex[0].fn = 7;
  ex[n - 1].fn = 6;
  verify(&reg, ex, n, buf, size);
}

START_TEST(full_by_count) {
  /* 1-character names: the count limit comes first */
  full_then_override(200, 0, 1);
}
END_TEST

START_TEST(full_by_names_area) {
  full_then_override(200, 40, 0);
}
END_TEST

/* The biggest buffers cap the count at 0x7fff, the largest function
** index a handle can hold. */
START_TEST(capacity_capped_at_handle_limit) {
  static uint8_t big[0x7fff * 19 + 4096];
  TVMMutableFuncRegistry reg;
  ck_assert_int_eq(TVMMutableFuncRegistry_Create(&reg, big, sizeof big), 0);
  ck_assert_uint_eq(reg.max_functions, 0x7fff);
  ck_assert_uint_eq((uintptr_t)reg.registry.funcs % FUNC_ALIGN, 0);
}
END_TEST

/* Errors keep TVM's values and equal nccc's where both exist. */
START_TEST(error_code_values) {
  ck_assert_int_eq(kTvmErrorFunctionNameNotFound, 0x100);
  ck_assert_int_eq(kTvmErrorFunctionIndexInvalid, 0x101);
  ck_assert_int_eq(kTvmErrorFunctionRegistryFull, 0x102);
  ck_assert_int_eq(kTvmErrorFunctionAlreadyDefined, 0x103);
  ck_assert_int_eq(kTvmErrorBufferTooSmall, 0x104);
  ck_assert_int_eq(kTvmErrorFramingInvalidState, 0x200);
  ck_assert_int_eq(kTvmErrorFramingPayloadIncomplete, 0x204);
  ck_assert_int_eq(kTvmErrorWriteStreamLongWrite, 0x301);
  ck_assert_int_eq(kTvmErrorSessionReceiveBufferShortWrite, 0x402);
  ck_assert_int_eq(kTvmErrorPlatformCheckFailure, 0x500);
  ck_assert_int_eq(kTvmErrorPlatformNoMemory, 0x503);
  ck_assert_int_eq(kTvmErrorPlatformStackAllocBadFree, 0x505);
  ck_assert_int_eq(kTvmErrorGeneratedInvalidStorageId, 0x600);
  ck_assert_int_eq(kTvmErrorExecutorModuleNoSuchInput, 0x702);
  ck_assert_int_eq(kTvmErrorFunctionCallNumArguments, 0x800);
  ck_assert_int_eq(kTvmErrorFunctionCallInvalidArg, 0x803);
  ck_assert_int_eq(kTvmErrorTimeEvaluatorBadHandle, 0x900);
  ck_assert_int_eq((unsigned)kTvmErrorSystemErrorMask, 0x80000000u);
  ck_assert_int_eq(kTvmErrorNcccBadName, NCCC_ERR_BAD_NAME);
  ck_assert_int_eq(kTvmErrorNcccNullPointer, NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(kTvmErrorNcccNotInitialized, NCCC_ERR_NOT_INITIALIZED);
  ck_assert_int_eq(kTVMArgInt, 0);
  ck_assert_int_eq(kDLUInt, 1);
  ck_assert_int_eq(kTVMArgFloat, 2);
  ck_assert_int_eq(kTVMOpaqueHandle, 3);
  ck_assert_int_eq(kTVMNullptr, 4);
  ck_assert_int_eq(kTVMDataType, 5);
  ck_assert_int_eq(kDLDevice, 6);
  ck_assert_int_eq(kTVMDLTensorHandle, 7);
  ck_assert_int_eq(kTVMObjectHandle, 8);
  ck_assert_int_eq(kTVMModuleHandle, 9);
  ck_assert_int_eq(kTVMPackedFuncHandle, 10);
  ck_assert_int_eq(kTVMStr, 11);
  ck_assert_int_eq(kTVMBytes, 12);
  ck_assert_int_eq(kTVMNDArrayHandle, 13);
  ck_assert_int_eq(kTVMObjectRValueRefArg, 14);
  ck_assert_int_eq(kTVMArgBool, 15);
  ck_assert_int_eq(kTVMExtBegin, 16);
  ck_assert_int_eq(kDLCPU, 1);
  ck_assert_int_eq(kDLMicroDev, 35);
  ck_assert_uint_eq(sizeof(TVMValue), 8);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("tvm_registry");
  nccc_check_tcase(s, "const", NULL, NULL,
                   NCCC_CHECK_TESTS(const_registry_reads,
                                    lookup_miss_leaves_out_untouched,
                                    get_by_index_out_of_range,
                                    empty_registry_is_valid,
                                    null_arguments_refused,
                                    set_num_funcs_writes_the_count,
                                    error_code_values));
  TCase *c = nccc_check_tcase(s, "mutable", NULL, NULL,
      NCCC_CHECK_TESTS(create_too_small,
                       table_aligned_for_every_offset_and_size,
                       fill_until_full_never_writes_outside,
                       name_exactly_filling_the_names_area, empty_name_refused,
                       long_names, set_null_arguments_refused,
                       duplicate_and_override, full_by_count,
                       full_by_names_area, capacity_capped_at_handle_limit));
  tcase_set_timeout(c, 120);
  return s;
}

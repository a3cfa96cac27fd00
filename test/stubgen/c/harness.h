/*
** harness.h — what the generator's C test programs (tour_main.c,
** cmini_main.c, callbacks_main.c, padding_main.c) share: the CHECK
** counter, the in[] / out[] slots of their calls, a checked call through
** the runtime, and main() (harness.c).
**
** A program defines harness_register, the register function of the
** module it tests, and harness_tests, its test functions in the order
** they run, NULL-terminated. main() initialises the runtime, registers
** the module, runs the tests, prints one line per failed check and
** "checks: N failed: M", and exits 1 if any check failed.
*/
#ifndef STUBGEN_TEST_HARNESS_H
#define STUBGEN_TEST_HARNESS_H

#include <stdint.h>
#include <stdio.h>

#include <nccc/nccc.h>

extern int harness_checks, harness_failed;

#define CHECK(cond)                                                     \
  do {                                                                  \
    harness_checks++;                                                   \
    if (!(cond)) {                                                      \
      harness_failed++;                                                 \
      printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond);          \
    }                                                                   \
  } while (0)

/* The slots of every call: enough for the largest test. */
#define HARNESS_SLOTS 16
extern uint64_t in[HARNESS_SLOTS], out[HARNESS_SLOTS];

/* Looks name up, fills out[] with 0xA5 bytes (a slot the wrapper leaves
** unwritten shows) and calls it checked with the slot counts of its
** registry entry; returns that entry, or NULL (the lookup's error
** printed) when name is not found. */
const nccc_fn_info *harness_call(const char *name);

/* ---- defined by each program ------------------------------------------ */
extern nccc_status (*const harness_register)(void);
extern void (*const harness_tests[])(void);

#endif

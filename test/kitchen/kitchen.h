/*
** kitchen.h — what the kitchen tests share: the C types of
** idl/examples/tour.idl and edges.idl, the table of documented signatures
** and slot counts, and the checked call every test makes through the
** runtime. Include it first (it asks for POSIX's SSIZE_MAX).
*/
#ifndef NCCC_KITCHEN_H
#define NCCC_KITCHEN_H

#define _POSIX_C_SOURCE 200809L /* SSIZE_MAX */

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <nccc/nccc.h>

#include "edges_nccc.h"
#include "tour_nccc.h"
#include "nccc_check.h"

/* ---- the C types of the two IDL files (their generated headers do not
** declare them) -------------------------------------------------------- */

struct point { int x; int y; };
typedef struct { double re, im; } complex_t;
union number { int64_t i; double d; unsigned char bytes[8]; };
struct record {
  char name[16];
  const char *label;
  int *items;
  size_t count;
  struct point where;
  void (*hook)(int);
};
enum color { RED, GREEN = 5, BLUE };
enum { FLAG_A = 1, FLAG_B = FLAG_A << 1, FLAG_AB = FLAG_A | FLAG_B };
typedef int (*binop)(int, int);
long negate_impl(long x); /* tour_impl.c: reached only through the shim */

struct triple { int32_t a, b, c; };
struct rgb { uint8_t r, g, b; };
union half { uint16_t h[2]; uint8_t b[4]; };

/* ---- the documented signatures and slot counts --------------------------- */

#define C NCCC_SIG_CHAR
#define LG NCCC_SIG_LONG
#define UL NCCC_SIG_ULONG
#define SZ NCCC_SIG_SIZE
#define SSZ NCCC_SIG_SSIZE
#define IP NCCC_SIG_INTPTR
#define UP NCCC_SIG_UINTPTR
#define PT NCCC_SLOTS(sizeof(struct point))
#define CX NCCC_SLOTS(sizeof(complex_t))
#define NB NCCC_SLOTS(sizeof(union number))
#define TR NCCC_SLOTS(sizeof(struct triple))
#define RG NCCC_SLOTS(sizeof(struct rgb))
#define HF NCCC_SLOTS(sizeof(union half))

typedef struct sig {
  const char *name, *signature;
  size_t n_in, n_out;
} sig;

/* Every function of both modules, registry order (tour's, then edges'). */
extern const sig sigs[];
extern const size_t n_sigs;
#define N_SIGS n_sigs
#define N_TOUR 57
#define N_EDGES 12

#define SENTINEL 0xA5A5A5A5A5A5A5A5u

/* The table's entry of name; fails the test when there is none. */
const sig *sig_of(const char *name);

/* Calls name through a checked call of n_in / n_out slots, which must be
** the documented counts; the registry must agree with the table. errno
** is 123 at the call and out[] full of SENTINEL. */
void call(const char *name, const uint64_t *in, size_t n_in, uint64_t *out,
          size_t n_out);

/* Calls the one-slot function name with in_slot; out[0] must be want. */
void echo(const char *name, uint64_t in_slot, uint64_t want);

/* Checks that slot holds a pointer to the string want. */
void expect_string(uint64_t slot, const char *want);

uint64_t float_slot_of_bits(uint32_t bits);

/* The byte at position i (memory order) of a slot buffer. */
unsigned byte_at(const uint64_t *slots, size_t i);

/* The registered module name, and its type layout n. */
const nccc_module *module(const char *name);
const nccc_type_layout *layout(const nccc_module *m, const char *n);

/* Every test's fixture: the runtime with both modules registered. */
void setup(void);

#endif

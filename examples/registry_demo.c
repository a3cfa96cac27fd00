/*
** registry_demo.c — the runtime on its own: register functions in the
** global registry, find them by name, call them by handle with and
** without slot-count checks, and reach everything through nccc_root the
** way a host language does.
*/
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <nccc/nccc.h>

/* int64 add(int64, int64) */
static void add(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_i64(nccc_slot_to_i64(in[0]) + nccc_slot_to_i64(in[1]));
}

/* double hypot(double, double) */
static void hypotenuse(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_double(
      hypot(nccc_slot_to_double(in[0]), nccc_slot_to_double(in[1])));
}

/* size_t count_char(const char *s, char c) */
static void count_char(const uint64_t *in, uint64_t *out) {
  const char *s = nccc_slot_to_ptr(in[0]);
  char c = (char)nccc_slot_to_i8(in[1]);
  uint64_t n = 0;
  for (; *s; s++) n += (*s == c);
  out[0] = nccc_slot_from_u64(n);
}

/* Calls a built-in the way a host does: root gives its address. */
static nccc_fn builtin(unsigned index) {
  uint64_t in[1] = {index}, out[4];
  nccc_root(in, out);
  return (nccc_fn)(uintptr_t)out[1];
}

int main(void) {
  nccc_handle h_add, h_hyp, h_count;
  uint64_t in[2], out[2];

  if (nccc_init(NULL, 0) != NCCC_OK ||
      nccc_register("demo.add", add, "ll:l", 0, &h_add) != NCCC_OK ||
      nccc_register("demo.hypot", hypotenuse, "dd:d", 0, &h_hyp) != NCCC_OK ||
      nccc_register("demo.count_char", count_char, "sb:L", 0, &h_count) !=
          NCCC_OK) {
    fprintf(stderr, "setup failed: %s\n", nccc_last_error());
    return 1;
  }

  printf("registered 3 functions; handles %08" PRIx32 " %08" PRIx32
         " %08" PRIx32 "\n", h_add, h_hyp, h_count);

  in[0] = nccc_slot_from_i64(-40);
  in[1] = nccc_slot_from_i64(82);
  nccc_call(h_add, in, out);
  printf("demo.add(-40, 82)            = %" PRId64 "\n", nccc_slot_to_i64(out[0]));

  in[0] = nccc_slot_from_double(3.0);
  in[1] = nccc_slot_from_double(4.0);
  nccc_call_checked(h_hyp, in, 2, out, 1);
  printf("demo.hypot(3, 4)             = %g\n", nccc_slot_to_double(out[0]));

  if (nccc_lookup("demo.count_char", &h_count) == NCCC_OK) {
    in[0] = nccc_slot_from_ptr("normalized calling convention");
    in[1] = nccc_slot_from_i8('n');
    nccc_call(h_count, in, out);
    printf("demo.count_char(\"normalized calling convention\", 'n') = %" PRIu64
           "\n", out[0]);
  }

  if (nccc_call_checked(h_add, in, 3, out, 1) != NCCC_OK) {
    printf("checked call with 3 in slots refused: %s\n", nccc_last_error());
  }
  if (nccc_lookup("demo.sub", &h_add) != NCCC_OK) {
    printf("lookup of a missing name: %s\n", nccc_last_error());
  }

  /* Through the root, as a host would: lookup + call by handle. */
  {
    uint64_t lin[1] = {nccc_slot_from_ptr("demo.add")}, lout[2];
    uint64_t args[2] = {nccc_slot_from_i64(20), nccc_slot_from_i64(22)};
    uint64_t res[1], cin[3], cout[1];
    builtin(NCCC_BUILTIN_LOOKUP)(lin, lout);
    cin[0] = lout[1];
    cin[1] = nccc_slot_from_ptr(args);
    cin[2] = nccc_slot_from_ptr(res);
    builtin(NCCC_BUILTIN_CALL)(cin, cout);
    printf("via nccc_root: demo.add(20, 22) = %" PRId64 " (status %" PRIu64 ")\n",
           nccc_slot_to_i64(res[0]), cout[0]);
  }
  return 0;
}

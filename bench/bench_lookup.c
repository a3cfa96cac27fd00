/*
** bench_lookup.c — the cost of finding a function by name: nccc_lookup
** of "m.NAME" in a module of N functions, against two ways a C program
** finds the same N names without nccc.
**
**   nccc_bench_lookup WAY.N ITERATIONS
**
** WAY is one of
**   nccc   nccc_lookup("m.NAME"): the module, then the registry's hash
**          index (the const registry as the generator writes it)
**   sorted nccc_lookup("s.NAME"): the same registry without its hash
**          index, so found through the sorted index
**   scan   a plain scan: strcmp against an array of the N names in order
**   hash   an open-addressing hash table of the N names (FNV-1a, twice
**          as many slots as names, linear probing), then one strcmp
** and N the number of names (1..NAMES_MAX). Each iteration looks up one
** name, every name in turn (a stride prime to N), so every way does the
** same lookups. bench/run_lookup.sh runs each way under callgrind for two
** iteration counts and prints the difference per lookup: set-up, which
** does not depend on the iterations, cancels out. Exits 1 when a lookup
** finds the wrong function, so a broken way cannot pass for a fast one.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nccc/nccc.h>

#define NAMES_MAX 10000
#define NAME_BYTES 24

/* Names in the shape of a C library's: a few shared words, then a
** number, so that sorted neighbours share prefixes. */
static const char *const words[8] = {"deflate", "inflate", "get",    "set",
                                     "stream",  "buffer",  "window", "crc"};
static char names[NAMES_MAX][NAME_BYTES];
static char qualified[NAMES_MAX][NAME_BYTES + 2];        /* "m." + name */
static char qualified_sorted[NAMES_MAX][NAME_BYTES + 2]; /* "s." + name */
static unsigned n_names;

/* The registry: a names blob, functions, info, the sorted index and the
** hash index (the same table as the hash way's, its mask first). */
static char blob[2 + NAMES_MAX * NAME_BYTES + 1];
static nccc_fn funcs[NAMES_MAX];
static nccc_fn_info info[NAMES_MAX];
static uint16_t sorted_index[NAMES_MAX];
static nccc_registry registry, registry_sorted;
static nccc_module module, module_sorted;

/* The hash table: slot = index + 1, 0 empty (as nccc/registry.h says). */
#define HASH_SLOTS 32768u
static uint16_t hash_index[1 + HASH_SLOTS];
static uint16_t *const hash_table = hash_index + 1;
static uint32_t hash_mask;

static void target(const uint64_t *in, uint64_t *out) {
  (void)in;
  (void)out;
}

static int by_name(const void *a, const void *b) {
  return strcmp(names[*(const uint16_t *)a], names[*(const uint16_t *)b]);
}

static uint32_t fnv1a(const char *s) {
  uint32_t h = 2166136261u;
  while (*s != '\0') h = (h ^ (uint8_t)*s++) * 16777619u;
  return h;
}

static void make_names(unsigned n) {
  unsigned i, size = 2;
  uint16_t count = (uint16_t)n;
  n_names = n;
  memcpy(blob, &count, sizeof count);
  for (i = 0; i < n; i++) {
    snprintf(names[i], NAME_BYTES, "%s_%u", words[(i * 5u) % 8u], i);
    snprintf(qualified[i], sizeof qualified[i], "m.%s", names[i]);
    snprintf(qualified_sorted[i], sizeof qualified_sorted[i], "s.%s", names[i]);
    info[i].name_offset = size;
    info[i].signature = "";
    info[i].n_in = 0;
    info[i].n_out = 0;
    funcs[i] = target;
    sorted_index[i] = (uint16_t)i;
    memcpy(blob + size, names[i], strlen(names[i]) + 1);
    size += (unsigned)strlen(names[i]) + 1;
  }
  blob[size] = '\0';
  qsort(sorted_index, n, sizeof sorted_index[0], by_name);
  registry.names = blob;
  registry.funcs = funcs;
  registry.info = info;
  registry.sorted = sorted_index;
  registry_sorted = registry;
  for (hash_mask = 1; hash_mask < 2 * n; hash_mask <<= 1) {
  }
  hash_mask -= 1;
  hash_index[0] = (uint16_t)hash_mask;
  registry.hash_index = hash_index;
  for (i = 0; i < n; i++) {
    uint32_t h = fnv1a(names[i]) & hash_mask;
    while (hash_table[h] != 0) h = (h + 1) & hash_mask;
    hash_table[h] = (uint16_t)(i + 1);
  }
}

static unsigned find_scan(const char *name) {
  unsigned i;
  for (i = 0; i < n_names; i++) {
    if (strcmp(names[i], name) == 0) return i;
  }
  return n_names;
}

static unsigned find_hash(const char *name) {
  uint32_t h = fnv1a(name) & hash_mask;
  while (hash_table[h] != 0) {
    unsigned i = hash_table[h] - 1u;
    if (strcmp(names[i], name) == 0) return i;
    h = (h + 1) & hash_mask;
  }
  return n_names;
}

static unsigned find_nccc(const char *qualified_name) {
  nccc_handle h;
  if (nccc_lookup(qualified_name, &h) != NCCC_OK) return n_names;
  return nccc_handle_function(h);
}

int main(int argc, char **argv) {
  const char *dot;
  unsigned long n, iterations, k, i = 0, stride = 7919;
  unsigned wrong = 0;
  int way;
  if (argc != 3 || (dot = strchr(argv[1], '.')) == NULL) {
    fprintf(stderr, "usage: nccc_bench_lookup nccc|sorted|scan|hash.N ITERATIONS\n");
    return 2;
  }
  way = strncmp(argv[1], "nccc.", 5) == 0     ? 0
        : strncmp(argv[1], "scan.", 5) == 0   ? 1
        : strncmp(argv[1], "hash.", 5) == 0   ? 2
        : strncmp(argv[1], "sorted.", 7) == 0 ? 3
                                               : -1;
  n = strtoul(dot + 1, NULL, 10);
  iterations = strtoul(argv[2], NULL, 10);
  if (way < 0 || n < 1 || n > NAMES_MAX) {
    fprintf(stderr, "nccc_bench_lookup: unknown way or N out of 1..%d: %s\n",
            NAMES_MAX, argv[1]);
    return 2;
  }
  make_names((unsigned)n);
  while (stride % n == 0 && n > 1) stride++;
  module.name = "m";
  module.registry = &registry;
  module_sorted.name = "s";
  module_sorted.registry = &registry_sorted;
  if (nccc_init(NULL, 0) != NCCC_OK || nccc_module_add(&module, NULL) != NCCC_OK ||
      nccc_module_add(&module_sorted, NULL) != NCCC_OK) {
    fprintf(stderr, "nccc_bench_lookup: %s\n", nccc_last_error());
    return 1;
  }
  for (k = 0; k < iterations; k++) {
    unsigned found;
    i = (i + stride) % n;
    found = way == 0   ? find_nccc(qualified[i])
            : way == 1 ? find_scan(names[i])
            : way == 2 ? find_hash(names[i])
                       : find_nccc(qualified_sorted[i]);
    wrong += found != i;
  }
  if (wrong != 0) {
    fprintf(stderr, "nccc_bench_lookup: %s found %u wrong functions\n", argv[1], wrong);
    return 1;
  }
  return 0;
}

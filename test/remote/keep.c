/*
** keep.c — the C side of module "keep" (keep.idl): owned boxes and
** strings counted while they live, a box's handlers and user data, and
** a callback handed arrays and strings.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEEP_MOST 8

typedef void visit_fn(void *ud, const char *name, const char **tags);
typedef int32_t weigh_fn(void *ud, const char *text, int32_t len,
                         const int32_t *values, int32_t count);
typedef int64_t total_fn(void *ctx, const int64_t *xs, int32_t n,
                         const char **words);

struct keep_box {
  int64_t value;
  visit_fn *visit;
  weigh_fn *weigh;
  void *ud;
};
static int32_t boxes_live, texts_live;

struct keep_box *keep_box_new(int64_t v) {
  struct keep_box *b = calloc(1, sizeof *b);
  if (b == NULL) return NULL;
  b->value = v;
  boxes_live++;
  return b;
}

void keep_box_free(struct keep_box *b) {
  if (b == NULL) return;
  boxes_live--;
  free(b);
}

int64_t keep_box_value(struct keep_box *b) { return b->value; }

int32_t keep_boxes_live(void) { return boxes_live; }

char *keep_repeat(const char *s, int32_t n) {
  size_t len = strlen(s), total, at;
  char *r;
  if (n < 0) return NULL;
  total = len * (size_t)n;
  r = malloc(total + 1);
  if (r == NULL) return NULL;
  for (at = 0; at < total; at++) r[at] = s[at % len];
  r[total] = '\0';
  texts_live++;
  return r;
}

void keep_text_free(char *s) {
  if (s == NULL) return;
  texts_live--;
  free(s);
}

int32_t keep_texts_live(void) { return texts_live; }

void keep_box_watch(struct keep_box *b, visit_fn *visit, weigh_fn *weigh) {
  b->visit = visit;
  b->weigh = weigh;
}

void keep_box_user(struct keep_box *b, void *ud) { b->ud = ud; }

int32_t keep_box_run(struct keep_box *b, const char *name, int32_t n) {
  char value[24];
  const char *tags[] = {"value", value, "name", name, NULL};
  int32_t values[KEEP_MOST], k, sum = 0;
  if (b->ud == NULL || n < 0 || n > KEEP_MOST) return -1;
  snprintf(value, sizeof value, "%lld", (long long)b->value);
  for (k = 0; k < n; k++) values[k] = (int32_t)b->value + k;
  if (b->visit != NULL) b->visit(b->ud, name, tags);
  if (b->weigh != NULL) sum += b->weigh(b->ud, "weighed", 7, values, n);
  return sum;
}

int64_t keep_total(total_fn *fn, void *ctx, int32_t n) {
  const char *words[] = {"one", "two", "three", NULL};
  int64_t xs[KEEP_MOST];
  int32_t k;
  if (n < 0 || n > KEEP_MOST) return -1;
  for (k = 0; k < n; k++) xs[k] = k + 1;
  return fn(ctx, xs, n, words);
}

/*
** cdata.c — the library of test/cdata/cdata.idl: fills events of a union
** of records defined in place, compares and sets array-typedef ids, and
** reads the one field of a record that the IDL names partly; a parser
** that keeps its input, unsigned-char text, and a reader callback that
** fills the buffer it is given.
*/
#include <string.h>

#include "cdata.h"

static const unsigned char scalar_text[] = "caf\xc3\xa9";

int cd_event_fill(cd_event *ev, int type) {
  memset(ev, 0, sizeof *ev);
  ev->type = type;
  if (type == 1) {
    ev->data.scalar.value = scalar_text;
    ev->data.scalar.length = sizeof scalar_text - 1;
  } else if (type == 2) {
    ev->data.shape.corners[0].x = -3;
    ev->data.shape.corners[1].y = 7;
    ev->data.shape.weight = 0.5f;
  } else {
    return -1;
  }
  ev->stamps[2] = 2.25;
  ev->ranges[1].hi = -2;
  return 0;
}

int cd_id_compare(const cd_id a, const cd_id b) {
  return memcmp(a, b, sizeof(cd_id));
}

void cd_id_set(cd_id out, unsigned char first) {
  size_t i;
  for (i = 0; i < sizeof(cd_id); i++) out[i] = (unsigned char)(first + i);
}

int cd_big_used(const struct cd_big *b) { return b->used; }

void cd_parser_set_input(cd_parser *p, const unsigned char *s, size_t n) {
  p->input = s;
  p->length = n;
  p->at = 0;
}

int cd_parser_next(cd_parser *p, cd_event *ev) {
  size_t start;
  memset(ev, 0, sizeof *ev);
  while (p->at < p->length && p->input[p->at] == ' ') p->at++;
  if (p->at == p->length) return 0;
  start = p->at;
  while (p->at < p->length && p->input[p->at] != ' ') p->at++;
  ev->type = 1;
  ev->data.scalar.value = p->input + start;
  ev->data.scalar.length = p->at - start;
  return 1;
}

size_t cd_text_length(const unsigned char *text) {
  return strlen((const char *)text);
}

size_t cd_read_all(int (*fn)(void *ctx, unsigned char *buffer, size_t size),
                   void *ctx, unsigned char *dest, size_t cap) {
  unsigned char chunk[4];
  size_t total = 0;
  while (total < cap) {
    int n;
    memset(chunk, 0xEE, sizeof chunk);
    n = fn(ctx, chunk, sizeof chunk);
    if (n <= 0) break;
    if ((size_t)n > sizeof chunk) n = (int)sizeof chunk;
    if ((size_t)n > cap - total) n = (int)(cap - total);
    memcpy(dest + total, chunk, (size_t)n);
    total += (size_t)n;
  }
  return total;
}

#ifndef CDATA_H
#define CDATA_H
#include <stddef.h>

typedef unsigned char cd_id[4];

struct cd_point { int x; int y; };

typedef struct {
  int type;
  union {
    struct {
      const unsigned char *value;
      size_t length;
    } scalar;
    struct {
      struct cd_point corners[2];
      union { int tag; float weight; };
    } shape;
  } data;
  double stamps[3];
  struct { short lo; short hi; } ranges[2];
} cd_event;

struct cd_big { char before[24]; int used; char after[40]; };

typedef struct {
  const unsigned char *input;
  size_t length;
  size_t at;
} cd_parser;

int cd_event_fill(cd_event *ev, int type);
/* keeps s: cd_parser_next reads it after this call returns */
void cd_parser_set_input(cd_parser *p, const unsigned char *s, size_t n);
/* the next space-separated word of the input as a scalar event (type 1,
** pointing into the input); 0 at the end */
int cd_parser_next(cd_parser *p, cd_event *ev);
size_t cd_text_length(const unsigned char *text);
/* calls fn with a 4-byte buffer until it returns 0 or less or dest is
** full, appending what it wrote to dest (at most cap bytes); returns the
** bytes appended */
size_t cd_read_all(int (*fn)(void *ctx, unsigned char *buffer, size_t size),
                   void *ctx, unsigned char *dest, size_t cap);
int cd_id_compare(const cd_id a, const cd_id b);
void cd_id_set(cd_id out, unsigned char first);
int cd_big_used(const struct cd_big *b);
#endif

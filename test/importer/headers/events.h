/* events.h: C data for the importer's rules (test_cdata.py): an event
** the caller allocates, holding a union of records defined in place and
** an anonymous member; a parser the caller allocates, whose input the
** library keeps; a reader callback filling a buffer; unsigned-char text;
** a cursor only the library allocates. */
#ifndef EVENTS_H
#define EVENTS_H
#include <stddef.h>

typedef struct {
  int type;
  union {
    struct { const unsigned char *value; size_t length; } scalar;
    struct { int first; union { int tag; float weight; }; } mark;
  } data;
  struct { short lo; short hi; } ranges[2];
} ev_event;

typedef struct ev_parser {
  const unsigned char *input;
  size_t length;
  size_t at;
} ev_parser;

typedef int (*ev_read_fn)(void *data, unsigned char *buffer, size_t size,
                          size_t *size_read);

struct ev_cursor { int position; int depth; };

int ev_parser_init(ev_parser *p);
void ev_parser_set_input(ev_parser *p, const unsigned char *input,
                         size_t size);
void ev_parser_set_reader(ev_parser *p, ev_read_fn reader, void *data);
int ev_parser_next(ev_parser *p, ev_event *event);
int ev_scalar_is(const unsigned char *text, const ev_event *event);
struct ev_cursor *ev_cursor_new(void);
int ev_cursor_depth(const struct ev_cursor *c);
void ev_cursor_free(struct ev_cursor *c);
#endif

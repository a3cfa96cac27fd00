/* A made-up API with one case of every rule of the importer
   (docs/IMPORT.md); test_rules.py reads its draft. */
#include <stddef.h>
#include <stdio.h>

#define WIDGET_MAX 16
#define WIDGET_BITS ((unsigned long)WIDGET_MAX << 2)
#define WIDGET_API extern
#define WIDGET_UNKNOWN no_such_name
#define WIDGET_NAME "widget"
#define WIDGET_SCALE 1.5
#define WIDGET_CLAMP(x) ((x) > WIDGET_MAX ? WIDGET_MAX : (x))

enum widget_kind { WIDGET_ROUND, WIDGET_SQUARE = 4 };

typedef struct widget widget;
struct flags { unsigned visible : 1; };
typedef int (*widget_visit_fn)(void *ud, const char *key, int depth);

widget *widget_new(const char *name, enum widget_kind kind);
void widget_free(widget *w);
int widget_open(const char *path, widget **out_widget);
size_t widget_write(widget *w, const void *data, size_t len);
int widget_read(widget *w, void *buf, size_t *buf_len);
int widget_get_size(const widget *w, int *width, int *height);
int widget_name(widget *w, char *dest);
char *widget_describe(const widget *w);
int widget_error(widget *w, char **out_message);
int widget_send(widget *w, const char *text, int n);
int widget_tag(widget *w, const char **tags);
int widget_each(widget *w, widget_visit_fn visit, void *ud);
void widget_on_close(widget *w, void (*cb)(void *ud, int code), void *ud);
void widget_watch(widget *w, void (*cb)(int code, void *ud), void *ud,
                  void (*release)(void *ud));
int widget_log(const char *fmt, ...);
long double widget_precise(widget *w);
__attribute__((deprecated)) int widget_old(widget *w);
void widget_flags(widget *w, struct flags *f);
struct mark { fpos_t at; };
int widget_seek(widget *w, fpos_t at, struct mark *m);
int widget_mark(widget *w, struct mark *m);
extern int widget_count;
#ifdef WIDGET_EXTRA
int widget_extra(void);
#endif

/*
** padding.h — records with padding inside and at the end, for
** test/stubgen/idl/padding.idl (whose generated C checks itself against
** this header) and padding_impl.c.
*/
#ifndef PADDING_H
#define PADDING_H

#include <stdint.h>

struct pad { char c; double d; short s; };     /* padding after c and s */
struct inner { char a; int b; };               /* padding after a */
struct outer {
  char k;
  struct inner one;
  struct inner two[2][2];
  short t;
};
union u3 { uint8_t b[3]; uint16_t h; };        /* byte 3 is past every member */
struct holder { char tag; union u3 u; };

/* Each one fills its record with 0xAA bytes before setting the fields,
** so its padding bytes hold 0xAA. */
struct pad pad_make(char c, double d, short s);
void pad_out(char c, double d, short s, struct pad *p);
void pad_bump(struct pad *p);
struct outer outer_make(int seed);
union u3 u3_make(uint8_t x);
void holder_out(uint8_t x, struct holder *h);

#endif

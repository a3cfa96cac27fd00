/*
** nccc_items.h — the slot items nccc._core takes (docs/ABI.md,
** "Core items"): the signature codes it converts, the grammar of a
** side, the item marks and the helper keys.
**
** Generated from idl/abi.json by stubgen/abi (python3 -m stubgen.abi
** --write); do not edit.
*/
#ifndef NCCC_ITEMS_H
#define NCCC_ITEMS_H

/* NCCC_ITEM_CODES(X): X(CODE, KIND, BYTES, SIGNED); KIND is BOOL INT FLOAT
** POINTER STRING FUNCTION CLOSURE or ERRNO; BYTES 0 means pointer-sized. */
#define NCCC_ITEM_CODES(X) \
  X('?', BOOL, 1, 0) \
  X('b', INT, 1, 1) \
  X('B', INT, 1, 0) \
  X('h', INT, 2, 1) \
  X('H', INT, 2, 0) \
  X('i', INT, 4, 1) \
  X('I', INT, 4, 0) \
  X('l', INT, 8, 1) \
  X('L', INT, 8, 0) \
  X('f', FLOAT, 4, 1) \
  X('d', FLOAT, 8, 1) \
  X('p', POINTER, 0, 0) \
  X('s', STRING, 0, 0) \
  X('F', FUNCTION, 0, 0) \
  X('c', CLOSURE, 0, 0) \
  X('e', ERRNO, 4, 1) \
  X('W', ERRNO, 4, 0)

#define NCCC_ABI_SIG_VARIADIC '*'
#define NCCC_ABI_SIG_RECORD_OPEN '{'
#define NCCC_ABI_SIG_RECORD_CLOSE '}'
#define NCCC_ABI_SIG_RECORD_COUNT ':'

/* ---- the native cores' items (docs/ABI.md, "Core items") ---- */

/* Marks before an item: a zero slot is the helper's to refuse; the
** helper converts the item both ways. */
#define NCCC_ABI_ITEM_NONNULL '!'
#define NCCC_ABI_ITEM_HELPER '~'
/* What slow(k, v) takes in place of an argument number k to raise
** one of the call's other errors. */
typedef enum nccc_helper_key {
  NCCC_HELPER_COUNT = 0, /* the call has the wrong number of arguments; v: how many it has */
  NCCC_HELPER_CALLBACK_ERRORS = -1, /* callbacks raised during the call; v: what they raised */
  NCCC_HELPER_POOL_EXHAUSTED = -2, /* the call needed a thunk and its pool was full; v: the last error's message */
  NCCC_HELPER_KEYWORDS = -3 /* the call has keyword arguments; v: their names */
} nccc_helper_key;

#endif

/*
** board_arena.h — the image's static arena (board_arena.c): its size, a
** build constant (docs/DEVICE.md, "The arena"), and its installation as
** the platform's allocator.
*/
#ifndef NCCC_DEVICE_BOARD_ARENA_H
#define NCCC_DEVICE_BOARD_ARENA_H

/* The bytes of the image's static arena (a multiple of 8; 0: none). */
#ifndef NCCC_DEVICE_ARENA_BYTES
#define NCCC_DEVICE_ARENA_BYTES 8192
#endif

/* Installs the platform's alloc and free over the arena (with none,
** alloc keeps failing). */
void board_arena_install(void);

#endif

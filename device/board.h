/*
** board.h — the Cortex-M3 board under the nccc device image: QEMU's
** mps2-an385 (start-up code, the CMSDK UART0 at 0x40004000, semihosting).
**
** The start-up code (board_startup.c) copies .data, clears .bss, paints
** the stack, runs main() and ends the emulator with main's result as its
** exit status. Nothing here allocates.
*/
#ifndef NCCC_DEVICE_BOARD_H
#define NCCC_DEVICE_BOARD_H

#include <stddef.h>
#include <stdint.h>

int main(void);

/* ---- semihosting (board_semihosting.c): the emulator's console and exit */

/* Writes text to the emulator's console (its standard error). */
void board_log(const char *text);

/* Writes text, then value in decimal, then a newline. */
void board_log_number(const char *text, uint32_t value);

/* Ends the emulator with status as its exit status. */
_Noreturn void board_exit(int status);

/* ---- the stack (board_startup.c) ---------------------------------------- */

/* Bytes of the stack ever used since reset: the painted words that were
** overwritten, counted from the top. */
size_t board_stack_used(void);

/* Resets the whole board (the core's system reset request): the image
** starts again from its reset handler. */
_Noreturn void board_reset(void);

/* ---- UART0 (board_uart.c): polled, no interrupts ------------------------ */

/* Enables transmit and receive. */
void board_uart_init(void);

/* Sends n bytes, waiting while the transmitter is full. */
void board_uart_write(const void *bytes, size_t n);

/* Waits for the first byte, then reads what has arrived, up to n bytes;
** returns the count (at least 1 when n > 0). */
size_t board_uart_read(void *bytes, size_t n);

#endif

/*
** board_startup.c — reset handler and vector table of the Cortex-M3 image.
**
** Linked with -nostartfiles: newlib's own start-up uses semihosting calls
** that do not suit a device, so this file is the whole path from reset to
** main(). The symbols board_* come from mps2_an385.ld.
*/
#include <string.h>

#include "board.h"

extern uint32_t board_data_start[], board_data_end[], board_data_load[];
extern uint32_t board_bss_start[], board_bss_end[];
extern uint32_t board_stack_bottom[], board_stack_top[];

/* What unused stack words hold; board_stack_used() looks for the first
** word, from the bottom, that no longer does. */
#define STACK_PAINT 0x5ac75ac7u

/* The words below the handler's own frame (the margin covers it). */
#define PAINT_MARGIN_WORDS 16

_Noreturn void board_reset_handler(void);

static void paint_stack(void) {
  uint32_t *sp, *p = board_stack_bottom;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  while (p < sp - PAINT_MARGIN_WORDS) *p++ = STACK_PAINT;
}

size_t board_stack_used(void) {
  const uint32_t *p = board_stack_bottom;
  while (p < board_stack_top && *p == STACK_PAINT) p++;
  return (size_t)((const char *)board_stack_top - (const char *)p);
}

_Noreturn void board_reset_handler(void) {
  int status;
  memcpy(board_data_start, board_data_load,
         (size_t)((char *)board_data_end - (char *)board_data_start));
  memset(board_bss_start, 0,
         (size_t)((char *)board_bss_end - (char *)board_bss_start));
  paint_stack();
  status = main();
  board_log_number("device: stack used (bytes): ", (uint32_t)board_stack_used());
  board_log_number("device: main returned ", (uint32_t)status);
  board_exit(status);
}

/* Any fault ends the run with a message and a status no test uses. */
static void board_fault(void) {
  board_log("device: fault exception\n");
  board_exit(70);
}

/* System control block: AIRCR with its write key and SYSRESETREQ. */
#define SCB_AIRCR (*(volatile uint32_t *)0xE000ED0Cu)
#define AIRCR_RESET_REQUEST 0x05FA0004u

_Noreturn void board_reset(void) {
  __asm__ volatile("dsb" ::: "memory");
  SCB_AIRCR = AIRCR_RESET_REQUEST;
  __asm__ volatile("dsb" ::: "memory");
  for (;;) {
  }
}

typedef void (*board_vector)(void);

/* The initial stack pointer, then the handlers of the core's own
** exceptions: reset, NMI, hard fault, memory management, bus and usage
** faults. No interrupt is enabled, so no entry follows. */
__attribute__((section(".vectors"), used))
static const board_vector board_vectors[7] = {
    (board_vector)(uintptr_t)board_stack_top,
    (board_vector)board_reset_handler,
    board_fault,
    board_fault,
    board_fault,
    board_fault,
    board_fault,
};

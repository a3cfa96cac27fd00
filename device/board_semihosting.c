/*
** board_semihosting.c — the emulator's console and exit, through ARM
** semihosting (a BKPT 0xAB with the operation in r0 and its argument in
** r1; QEMU runs with -semihosting).
*/
#include "board.h"

#define SYS_WRITE0 0x04u
#define SYS_EXIT_EXTENDED 0x20u
/* Reason of SYS_EXIT(_EXTENDED): the application exited. */
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

static uint32_t semihost(uint32_t op, const void *arg) {
  register uint32_t r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

void board_log(const char *text) { semihost(SYS_WRITE0, text); }

void board_log_number(const char *text, uint32_t value) {
  char digits[12];
  char *p = digits + sizeof digits;
  *--p = '\0';
  *--p = '\n';
  do {
    *--p = (char)('0' + value % 10);
    value /= 10;
  } while (value != 0);
  board_log(text);
  board_log(p);
}

/* SYS_EXIT_EXTENDED takes a block {reason, status}, so that the status
** becomes the emulator's exit status (plain SYS_EXIT on a 32-bit core
** has no room for it). */
_Noreturn void board_exit(int status) {
  const uint32_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status};
  semihost(SYS_EXIT_EXTENDED, block);
  for (;;) {
  }
}

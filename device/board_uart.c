/*
** board_uart.c — UART0 of the mps2-an385: an Arm CMSDK APB UART at
** 0x40004000, driven by polling its registers.
*/
#include "board.h"

#define UART0_BASE 0x40004000u
#define UART_DATA (*(volatile uint32_t *)(UART0_BASE + 0x00u))
#define UART_STATE (*(volatile uint32_t *)(UART0_BASE + 0x04u))
#define UART_CTRL (*(volatile uint32_t *)(UART0_BASE + 0x08u))
#define UART_BAUDDIV (*(volatile uint32_t *)(UART0_BASE + 0x10u))

#define STATE_TX_FULL 0x1u
#define STATE_RX_FULL 0x2u
#define CTRL_TX_ENABLE 0x1u
#define CTRL_RX_ENABLE 0x2u

/* The board's 25 MHz clock over 115200 baud; the emulator ignores the
** rate but refuses divisors under 16. */
#define UART_DIVISOR 217u

void board_uart_init(void) {
  UART_BAUDDIV = UART_DIVISOR;
  UART_CTRL = CTRL_TX_ENABLE | CTRL_RX_ENABLE;
}

void board_uart_write(const void *bytes, size_t n) {
  const uint8_t *p = bytes;
  while (n-- > 0) {
    while (UART_STATE & STATE_TX_FULL) {
    }
    UART_DATA = *p++;
  }
}

size_t board_uart_read(void *bytes, size_t n) {
  uint8_t *p = bytes;
  size_t got = 0;
  if (n == 0) return 0;
  while (!(UART_STATE & STATE_RX_FULL)) {
  }
  while (got < n && (UART_STATE & STATE_RX_FULL)) p[got++] = (uint8_t)UART_DATA;
  return got;
}

/*
** nccc_check_main.c — main() of every Check test program: the program's
** own suite (nccc_check_suite), run by the shared runner. In a file of its
** own, so that a program with a main() of its own can still link the
** library for the fixtures.
*/
#include <stdlib.h>

#include "nccc_check.h"

int main(void) {
  return nccc_check_run(nccc_check_suite()) == 0 ? EXIT_SUCCESS
                                                 : EXIT_FAILURE;
}

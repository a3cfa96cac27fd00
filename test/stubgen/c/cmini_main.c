/*
** cmini_main.c — calls libc through the wrappers generated from
** test/stubgen/idl/cmini.idl, looked up in the runtime by name (the
** runner is harness.c).
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nccc/nccc.h>

#include "cmini_nccc.h"
#include "harness.h"

static void calls(void) {
  const char *text = "123abc";
  char buf[32];
  div_t d;
  char *copy;

  in[0] = nccc_slot_from_i32(17);
  in[1] = nccc_slot_from_i32(5);
  harness_call("cmini.div");
  nccc_slots_to_bytes(&d, out, sizeof d);
  CHECK(d.quot == 3 && d.rem == 2);

  in[0] = nccc_slot_from_double(8.0);
  harness_call("cmini.frexp");
  CHECK(nccc_slot_to_double(out[0]) == 0.5 && out[1] == 4);

  in[0] = nccc_slot_from_double(-2.75);
  harness_call("cmini.modf");
  CHECK(nccc_slot_to_double(out[0]) == -0.75 &&
        nccc_slot_to_double(out[1]) == -2.0);

  in[0] = nccc_slot_from_ptr(text);
  in[1] = nccc_slot_from_i32(10);
  harness_call("cmini.strtol");
  CHECK(out[0] == 123 && nccc_slot_to_ptr(out[1]) == text + 3 && out[2] == 0);

  in[0] = nccc_slot_from_ptr("99999999999999999999999999");
  harness_call("cmini.strtol");
  CHECK(out[2] == nccc_slot_from_i32(ERANGE));

  in[0] = nccc_slot_from_ptr("copy me");
  harness_call("cmini.strdup");
  copy = nccc_slot_to_ptr(out[0]);
  CHECK(copy != NULL && strcmp(copy, "copy me") == 0);
  in[0] = out[0];
  harness_call("cmini.free");

  in[0] = nccc_slot_from_i32(-9);
  harness_call("cmini.iabs");
  CHECK(out[0] == 9);

  in[0] = nccc_slot_from_ptr(buf);
  in[1] = sizeof buf;
  in[2] = nccc_slot_from_ptr("%.3f");
  in[3] = nccc_slot_from_double(1.25);
  harness_call("cmini.snprintf_d");
  CHECK(out[0] == 5 && strcmp(buf, "1.250") == 0);

  in[2] = nccc_slot_from_ptr("%s=%d");
  in[3] = nccc_slot_from_ptr("n");
  in[4] = nccc_slot_from_i32(-4);
  harness_call("cmini.snprintf_si");
  CHECK(strcmp(buf, "n=-4") == 0);

  CHECK(nccc_cmini_module.n_constants == 4);
  CHECK(nccc_cmini_module.constants[0].value == (uint64_t)EDOM);
  CHECK(nccc_cmini_module.constants[2].value == UINT64_MAX);
  CHECK(nccc_cmini_module.constants[3].value == (uint64_t)BUFSIZ);
  CHECK(nccc_cmini_module.types[0].size == sizeof(div_t));
}

nccc_status (*const harness_register)(void) = nccc_cmini_register;
void (*const harness_tests[])(void) = {calls, NULL};

/*
** cbt_generated.c — the test fixture over the generated module "cbt":
** the thunk pools through the accessors the generator writes.
*/
#include "cbt_fixture.h"
#include "cbt/cbt_nccc.h" /* the generated one, not the hand-written */

const nccc_thunk_pool *cbt_cmp_pool(void) { return nccc_cbt_cmp_fn_thunk_pool(); }
const nccc_thunk_pool *cbt_event_pool(void) { return nccc_cbt_event_fn_thunk_pool(); }

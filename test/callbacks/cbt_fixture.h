/*
** cbt_fixture.h — what the callback tests need from module "cbt",
** provided both by the hand-written wrappers (cbt_nccc.c) and by the
** generated ones (cbt.idl, with cbt_generated.c).
*/
#ifndef CBT_FIXTURE_H
#define CBT_FIXTURE_H

#include <stdint.h>

#include <nccc/closure.h>
#include <nccc/status.h>

nccc_status nccc_cbt_register(void);

/* One wrapper called directly, not through the registry. */
void nccc_cbt_add(const uint64_t *in, uint64_t *out);

/* The thunk pools of cmp_fn (4 thunks) and event_fn (2 thunks). */
const nccc_thunk_pool *cbt_cmp_pool(void);
const nccc_thunk_pool *cbt_event_pool(void);

#endif

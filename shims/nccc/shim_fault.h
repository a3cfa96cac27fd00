/*
** nccc/shim_fault.h — the fault injection shim.
**
** A [fault] wrapper checks, before it runs its body, whether a fault is
** armed for its function (nccc_fault_arm or the fault_arm built-in); if
** one is, the armed result slots and errno are written to out[] and the
** body — the C call — is skipped. It is written with NCCC_SITE_WRAP
** (nccc/shim_site.h) and NCCC_SITE_FAULT in its shim set, plus
** NCCC_SITE_ERRNO when its last out slot is errno; a wrapper with
** [fault] only (and maybe [errno]) can use the short form below.
*/
#ifndef NCCC_SHIM_FAULT_H
#define NCCC_SHIM_FAULT_H

#include <nccc/shim_site.h>

/* Fault only; errno_shim is 1 when the last of the n_out slots is errno. */
#define NCCC_FAULT_WRAP(module, index, body, in, out, n_out, errno_shim)   \
  NCCC_SITE_WRAP(module, index,                                           \
                 NCCC_SITE_FAULT | ((errno_shim) ? NCCC_SITE_ERRNO : 0u), \
                 body, in, out, n_out)

#endif

/*
** device_client.c — the library a host loads to reach the device: the
** runtime, the remote-call client, and the entry points that the
** generated modules m and dev call when they bind (nccc_m_open,
** nccc_dev_open), which bind the device's module of that name over the
** link NCCC_DEVICE_LINK names ("exec:bash device/run_qemu.sh IMAGE";
** docs/RPC.md, "From a host language").
*/
#include <nccc/nccc.h>
#include <nccc/remote.h>

NCCC_API void nccc_m_open(const uint64_t *in, uint64_t *out);
NCCC_API void nccc_dev_open(const uint64_t *in, uint64_t *out);

void nccc_m_open(const uint64_t *in, uint64_t *out) {
  (void)in;
  out[0] = nccc_slot_from_i32((int32_t)nccc_remote_bind_env("m", "NCCC_DEVICE_LINK"));
}

void nccc_dev_open(const uint64_t *in, uint64_t *out) {
  (void)in;
  out[0] = nccc_slot_from_i32((int32_t)nccc_remote_bind_env("dev", "NCCC_DEVICE_LINK"));
}

/*
** device_client.c — the library a host loads to reach the device: the
** runtime, the remote-call client, and the entry points that the
** generated modules m, dev and callbacks call when they bind
** (nccc_m_open, nccc_dev_open, nccc_callbacks_open), which bind the
** device's module of that name over the link NCCC_DEVICE_LINK names
** ("exec:bash device/run_qemu.sh IMAGE"; docs/RPC.md, "From a host
** language").
*/
#include <nccc/nccc.h>
#include <nccc/remote.h>

NCCC_API void nccc_m_open(const uint64_t *in, uint64_t *out);
NCCC_API void nccc_dev_open(const uint64_t *in, uint64_t *out);
NCCC_API void nccc_callbacks_open(const uint64_t *in, uint64_t *out);

static void bind_device_module(const char *name, uint64_t *out) {
  out[0] = nccc_slot_from_i32((int32_t)nccc_remote_bind_env(name, "NCCC_DEVICE_LINK"));
}

void nccc_m_open(const uint64_t *in, uint64_t *out) {
  (void)in;
  bind_device_module("m", out);
}

void nccc_dev_open(const uint64_t *in, uint64_t *out) {
  (void)in;
  bind_device_module("dev", out);
}

void nccc_callbacks_open(const uint64_t *in, uint64_t *out) {
  (void)in;
  bind_device_module("callbacks", out);
}

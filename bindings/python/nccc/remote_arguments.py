"""Host buffers passed to a function of a module bound from a device
(docs/PYTHON.md, "C objects on a device"): the device cannot read this
process's memory, so a buffer (bytes, bytearray, memoryview, any object
with the buffer protocol) given for a pointer parameter is copied into
device memory through the module's memory module (M_memory's alloc and
write) for the call, copied back into a writable buffer after it (what
the device wrote there), and freed when the call returns. A parameter
the library keeps ([kept]) refuses a host buffer: the device would keep
a copy that is freed when the call returns."""

from nccc import signature
from nccc.errors import ArgumentError, Error


def _host_buffer(v):
    """The writable-or-not memoryview of v when v is a host buffer (not
    an address, None, a str or an object that has an address)."""
    if v is None or isinstance(v, (int, str)) or \
            getattr(v, "_nccc_address", None) is not None:
        return None
    try:
        return memoryview(v)
    except TypeError:
        return None


def copying(objects, rec, sig, call):
    """call of function record rec (signature sig, the device's) with the
    host buffers of its pointer parameters copied into the device's
    memory (objects: the module's RemoteObjects); call itself when it
    has no pointer parameter."""
    ins = signature.parse(sig)[0]
    pointers = [k for k, it in enumerate(ins) if it.code == "p"]
    if not pointers:
        return call
    kept = {e["arg"] - 1 for e in rec.get("kept", ())}
    name = rec["error_name"]

    def copied(*args):
        found = [(k, _host_buffer(args[k])) for k in pointers if k < len(args)]
        found = [(k, view) for k, view in found if view is not None]
        if not found:
            return call(*args)
        for k, _ in found:
            if k in kept:
                raise ArgumentError(
                    "bad argument #%d to '%s' (the device keeps this "
                    "pointer after the call: a host buffer cannot be "
                    "kept there; pass device memory from %s_memory's "
                    "alloc and write)" % (k + 1, name, objects.module),
                    function=name, parameter=k + 1)
        try:
            mem = objects.mem
        except Error as e:
            raise ArgumentError("bad argument #%d to '%s' (a host buffer "
                                "is copied into the device's memory: %s)"
                                % (found[0][0] + 1, name, e),
                                function=name, parameter=found[0][0] + 1) \
                from None
        args, copies = list(args), []
        try:
            for k, view in found:
                data = view.cast("B")
                p = mem.alloc(max(data.nbytes, 1))
                copies.append((p, data))
                mem.write(p, data.tobytes())
                args[k] = p
            result = call(*args)
            for p, data in copies:
                if not data.readonly and data.nbytes:
                    data[:] = mem.read(p, data.nbytes)
            return result
        finally:
            for p, _ in copies:
                mem.free(p)
    return copied

"""The arguments a callback type's value descriptions describe
(docs/BINDING.md, "Value descriptions"), as a callback receives them:
text as str, [bytes] buffers as bytes, arrays as lists, and a buffer
to fill ("fill") as a writable memoryview. They are read where C's
memory is: this process's for a local library; for a module bound from
a device, the device's, through its memory module M_memory
(docs/PYTHON.md, "C objects on a device"), since the addresses the
device passes are its own. There a buffer to fill is a copy of the
device's bytes, written back to the device when the callback returns,
before its results go back to the device."""

from nccc import values


class LocalMemory:
    """This process's memory, read through the library lib."""

    def __init__(self, lib):
        self.lib = lib

    def text(self, p, n):
        return self.lib.string(p, n)

    def bytes(self, p, n):
        return self.lib.read(p, n)

    def element(self, p, code, size):
        return self.lib.peek(p, code)

    def stride(self, spec):
        return spec["stride"]

    def fill(self, p, n):
        """A writable view of the n bytes at p and what writes it back
        (nothing: the view is C's memory)."""
        return values.memory_view(p, n), None


class DeviceMemory:
    """A device's memory, read and written through mem, the bound
    module's memory module (nccc.remote_cdata.Memory)."""

    def __init__(self, mem):
        self.mem = mem

    def text(self, p, n):
        if n is None:
            n = self.mem.strlen(p)
        return self.mem.read(p, n).decode("utf-8", "surrogateescape")

    def bytes(self, p, n):
        return self.mem.read(p, n)

    def element(self, p, code, size):
        return self.mem.scalar(code, size, p)

    def stride(self, spec):
        """A pointer element has the device's pointer size, whatever
        target's description the module chose."""
        return self.mem.pointer_bytes if spec["code"] in "ps" \
            else spec["stride"]

    def fill(self, p, n):
        """A writable view of a copy of the n bytes at p and what writes
        the copy back to p."""
        copy = bytearray(self.mem.read(p, n))
        return memoryview(copy), lambda: self.mem.write(p, copy)


def _read_array(memory, p, spec, n):
    code = "p" if spec["code"] == "s" else spec["code"]
    stride = memory.stride(spec)
    out, k = [], 0
    while n is None or k < n:
        v = memory.element(p + k * stride, code, stride)
        if n is None and not v:
            break
        out.append(memory.text(v, None) if spec["code"] == "s" and v else v)
        k += 1
    return out


def converting(memory_of, descs, fn):
    """fn with the arguments the value descriptions descs describe
    turned into str, bytes and lists, and a buffer to fill into a
    writable memoryview, released when fn returns (NULL stays as it is).
    memory_of() gives the memory they are in (LocalMemory or
    DeviceMemory), asked for at the first non-NULL one; what fn wrote
    into a device's buffer is written back when fn returns."""
    def call(*args):
        args, views, backs = list(args), [], []
        for spec in descs:
            p = args[spec["arg"] - 1]
            if p:
                memory = memory_of()
                count = spec["count"]
                n = args[count["arg"] - 1] if "arg" in count \
                    else count.get("fixed")
                if spec["kind"] == "string":
                    v = memory.text(p, n)
                elif spec["kind"] != "bytes":
                    v = _read_array(memory, p, spec, n)
                elif spec.get("fill"):
                    v, back = memory.fill(p, n)
                    views.append(v)
                    if back is not None:
                        backs.append(back)
                else:
                    v = memory.bytes(p, n)
                args[spec["arg"] - 1] = v
        try:
            result = fn(*args)
        finally:
            for v in views:
                v.release()
        for back in backs:
            back()
        return result
    return call

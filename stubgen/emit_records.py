"""The records emitter (--lang records): M.records.json, the module's
binding records (stubgen/model/binding.py) as JSON, in the format of
idl/binding.schema.json (docs/BINDING.md). Every host module carries the
same records in its own language; this file is them as the generator
made them, for tools and for checking against the schema."""

from stubgen.literal import JSON, literal
from stubgen.model.binding import records


def emit(module, idl_name):
    del idl_name  # JSON has no comments to name the IDL in
    return {module.name + ".records.json":
            literal(records(module), JSON) + "\n"}

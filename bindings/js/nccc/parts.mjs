// nccc/parts.mjs — a class composed from its parts: each part exports its
// methods as one object, and the front of the library (index.mjs, and
// remote/index.mjs for the Device) adds them all in one place.

// Adds each part's methods (an object of functions) to cls's prototype,
// once, so that a call finds them as the class's own; a part may not
// redefine a method the class or another part has.
export function compose(cls, ...parts) {
  for (const methods of parts) {
    for (const [name, f] of Object.entries(methods)) {
      if (Object.prototype.hasOwnProperty.call(cls.prototype, name)) {
        throw new Error(`nccc: two parts define the method '${cls.name}.${name}'`);
      }
      cls.prototype[name] = f;
    }
  }
}

// types.mts — type-checked, never run (npm.sh: tsc --noEmit): the
// declarations the tarball carries are the ones "nccc" resolves to
// through its package.json, and they type the API (a wrong argument is
// an error, so the types are not `any`).
import * as nccc from "nccc";

export async function open(wasm: string): Promise<nccc.Runtime> {
  return nccc.load(wasm);
}
export const scope: nccc.Scope = "call";
export const bits: bigint = nccc.doubleToBits(1.5);
// @ts-expect-error: doubleToBits takes a number
nccc.doubleToBits("1.5");

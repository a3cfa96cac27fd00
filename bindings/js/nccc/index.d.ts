// Declarations of the nccc package's front (index.mjs); docs/JS.md is the
// manual.

/** A pointer argument: its address, null for NULL, or an object holding one. */
export type Pointer = number | null | Owned | Closure | CObject | CArray;
/** A callback scope (docs/CALLBACKS.md, "Scopes"). */
export type Scope = "call" | "async" | "notified" | "forever";

/** Every error of the library. */
export class NcccError extends Error {
  /** count, type, range, integral, null, nul, closed, released, field,
   *  unknown, scope, pool, callback, packed, status or load */
  readonly kind: string;
  /** the runtime's status code, when it returned one */
  readonly status?: number;
  /** the nccc function concerned */
  readonly function?: string;
  /** the argument concerned, from 1 */
  readonly parameter?: number;
}

/** A closure for a JavaScript function, passed in a callback's slot. */
export class Closure {
  readonly live: boolean;
  readonly scope: Scope;
  readonly signature: string;
  readonly signatures: string[];
  /** the context C gets */
  readonly context: number;
  /** releases it now; false if it was released already */
  release(): boolean;
}

/** An [owned] result: freed once by close(), [Symbol.dispose]() or the collector. */
export class Owned {
  readonly type: string;
  readonly closed: boolean;
  /** its address, null once closed */
  readonly address: number | null;
  close(): boolean;
  [Symbol.dispose](): void;
}

/** A C object (docs/JS.md, "C objects"): a struct or union in wasm memory
 *  made by a bound module's new (owned: freed by free(), close(),
 *  [Symbol.dispose]() or the collector) or view (borrowed: never frees),
 *  its fields as properties. A field named like a member below hides it. */
export class CObject {
  /** its address; throws once freed */
  readonly address: number;
  readonly freed: boolean;
  /** frees it (a view: only stops it); false if it was freed already */
  free(): boolean;
  close(): boolean;
  [Symbol.dispose](): void;
  /** a copy of the whole record, an object of its fields */
  record(): { [field: string]: any };
  /** a copy of its bytes */
  bytes(): Uint8Array;
  /** copies a whole record in: an object of fields (the others zero), its bytes, or a C object of its layout */
  assign(value: { [field: string]: any } | Uint8Array | CObject): void;
  /** its fields */
  [field: string]: any;
}

/** An array field of a C object, or count records from view: elements by
 *  index from 0, checked. */
export interface CArray<T = any> {
  readonly length: number;
  readonly address: number;
  [index: number]: T;
  toArray(): T[];
  [Symbol.iterator](): Iterator<T>;
}

/** A record layout from the registry. */
export interface Layout {
  name: string; module: string; size: number; align: number; kind: string; slots: number;
  fields: { name: string; type: string; offset: number; size: number; count: number }[];
  field: { [name: string]: { name: string; type: string; offset: number; size: number; count: number } };
}

/** A function's description. */
export interface FunctionInfo {
  name: string; addr: number; signature: string; handle?: number;
  nin: number; nout: number; varIn: boolean; varOut: boolean;
}

/** A loaded wasm module and its nccc runtime. */
export class Runtime {
  readonly version: string;
  readonly exports: WebAssembly.Exports;
  readonly memory: WebAssembly.Memory;
  readonly table: WebAssembly.Table;

  call(nameOrHandle: string | number, ...args: any[]): any;
  fast(nameOrHandle: string | number, opts?: object): (...args: any[]) => any;
  callVar(nameOrHandle: string | number, count: number, ...args: any[]): any[];
  callAddress(addr: number, signature: string, ...args: any[]): any;
  lookup(name: string): number;
  fn(nameOrHandle: string | number): FunctionInfo;
  signature(nameOrHandle: string | number): string;
  functions(module: string | number): { name: string; signature: string; handle: number }[];
  modules(): { index: number; name: string; functions: number; types: number; constants: number; global: boolean }[];
  layout(qualified: string): Layout;
  constants(module: string | number): { [name: string]: number | bigint | boolean | null };
  constant(qualified: string): number | bigint | boolean | null;
  symbol(name: string): number;

  callback(signature: string, fn: (...args: any[]) => any, scope?: Scope): Closure;
  callbackGroup(scope: Scope, final: number, ...members: [string, (...args: any[]) => any][]): Closure;
  /** capacity, in use, stale calls, type mismatches, wrong-thread calls */
  closureStats(): [number, number, number, number, number];
  /** host functions held for C to call */
  refs(): number;

  packed(name: string, ...args: any[]): any;
  registerPacked(name: string, psig: string, fn: (...args: any[]) => any, flags?: number): true;
  owner(free: string | ((p: number) => void), type?: string): (p: number | null) => Owned | null;
  ownedString(free: string): (p: number | null) => string | null;

  alloc(n: number): number;
  free(p: number | null): void;
  cstring(p: number | null, n?: number): string | null;
  newCString(s: string): number;
  read(p: number, n: number): Uint8Array;
  write(p: number, bytes: Uint8Array): void;
  lastError(): [number, string];

  /** what a generated module's bind(rt) calls */
  bindModule(module: object): any;
}

/** Instantiates an nccc wasm module and binds its root. */
export function load(source: string | URL | Response | ArrayBuffer | ArrayBufferView | WebAssembly.Module,
  options?: { root?: string }): Promise<Runtime>;
/** Binds a module that emscripten's own glue instantiated and started (a
 *  threaded module): the glue's Module object, once ready. */
export function attach(module: { asm: object; wasmMemory?: WebAssembly.Memory },
  options?: { root?: string }): Promise<Runtime>;
/** x sent to a packed function as a float even when integral. */
export function float(x: number): object;
export function bitsToDouble(bits: bigint | number): number;
export function doubleToBits(x: number): bigint;
/** an empty array that keeps every double bit for bit */
export function valueList(): any[];
/** the ABI's facts (idl/abi.json) */
export const abi: any;

// Declarations of nccc/remote (index.mjs): a device reached over a link
// and the modules bound to it; docs/JS.md, "Remote devices", is the manual.
import type { Layout, NcccError, Scope } from "../index.js";

/** A byte link to a device: node's links (nccc/remote/node), webSocketLink, or one's own. */
export interface Link {
  /** set by the session: the bytes that came from the device */
  onBytes: (bytes: Uint8Array) => void;
  /** set by the session: the link closed */
  onClosed: () => void;
  send(bytes: Uint8Array): void;
  close(): void;
}

/** connect's options. */
export interface ConnectOptions {
  /** how long a request waits for the device before it is resent (2000) */
  timeoutMs?: number;
  /** how many times a request is resent (2) */
  retries?: number;
  /** the device's log messages */
  log?: (level: number, text: string) => void;
}

/** The device's start announcement. */
export interface DeviceInfo {
  version: number; pointerBytes: number; byteOrder: number; maxDepth: number;
  maxMessage: number; maxSlots: number; session: number;
}

/** The client's counters. */
export interface DeviceStats {
  requests: number; resent: number; badFrames: number; notices: number; stale: number;
  restarts: number; sessions: number; served: number; logs: number;
  bytesSent: number; bytesReceived: number; garbage: number;
}

/** A device address: a number, a bigint past 2^53. */
export type Address = number | bigint;

/** What lookup answers. */
export interface Found { handle: number; nIn: number; nOut: number; signature: string }

/** A string carried inside a call: the in slot that points to it on the device. */
export interface StringIn { slot: number; bytes: Uint8Array }

/** What a raw call answers. */
export interface CallResult {
  out: BigUint64Array;
  /** the fetched strings by out slot */
  strings: Map<number, Uint8Array>;
  requestBase: bigint | null;
}

/** A closure for a device function's callback parameter. */
export class RemoteClosure {
  readonly live: boolean;
  readonly scope: Scope;
  readonly signature: string;
  readonly signatures: string[];
  /** releases it here; false if it was released already */
  release(): boolean;
}

/** A device reached over a link (made by connect). */
export class Device {
  readonly info: DeviceInfo;
  readonly stats: DeviceStats;
  close(): void;
  setTimeout(ms: number, retries: number): void;
  /** [status, text] the device's last call recorded, or [0, ""] */
  lastError(): [number, string];
  lookup(name: string): Promise<Found>;
  handle(name: string): Promise<number>;
  call(handle: number, ins: bigint[], nOut: number, stringsIn?: StringIn[], fetch?: number[]): Promise<CallResult>;
  /** a built-in by name (abi.builtins): its out values, strings as strings */
  builtin(name: string, args: (number | bigint | string)[]): Promise<unknown[]>;
  alloc(size: number): Promise<Address | null>;
  free(addr: Address): Promise<void>;
  read(addr: Address, n: number): Promise<Uint8Array>;
  write(addr: Address, bytes: Uint8Array): Promise<void>;
  strlen(addr: Address): Promise<number>;
  cstring(addr: Address): Promise<string>;
  callback(signature: string, fn: (...args: any[]) => unknown, scope?: Scope): RemoteClosure;
  /** one closure of several members (closure sets), as rt.callbackGroup */
  callbackGroup(scope: Scope, final: number, ...members: [string, (...args: any[]) => unknown][]): RemoteClosure;
  hostFunction(signature: string, fn: (...args: any[]) => unknown): number;
  /** a generated module bound to the device (what M.bind(device) calls) */
  bindModule(M: object): Promise<Bound>;
}

/** A record in a device's memory (docs/JS.md, "C objects on a device"): fields by path (names, an index after an array field). */
export interface RemoteObject {
  /** the device address; throws once freed */
  readonly address: bigint;
  readonly size: number;
  readonly freed: boolean;
  /** a scalar field's value, a text field's string or bytes, or a view of the record at path */
  get(...path: (string | number)[]): Promise<unknown>;
  /** writes the field at path (a record at path: copied in as assign does) */
  set(...pathAndValue: unknown[]): Promise<void>;
  /** the record's bytes in the device's byte order */
  bytes(): Promise<Uint8Array>;
  /** a copy out: an object of the record's fields */
  record(): Promise<Record<string, unknown>>;
  /** a copy in: an object of fields, bytes of the layout's size, or a C object of the same device */
  assign(value: Record<string, unknown> | Uint8Array | RemoteObject): Promise<void>;
  /** frees an object made by new (a view only stops): true the first time */
  free(): Promise<boolean>;
  close(): Promise<boolean>;
  [Symbol.asyncDispose](): Promise<boolean>;
  /** frees without waiting */
  [Symbol.dispose](): void;
}

/** count records in a row in a device's memory (view(name, p, count)); indexes checked. */
export interface RemoteRecords {
  readonly length: number;
  readonly address: bigint;
  readonly freed: boolean;
  /** a view of record i */
  at(i: number): RemoteObject;
  /** the field at path of record i, or (no path) a view of record i */
  get(i: number, ...path: (string | number)[]): Promise<unknown>;
  /** writes the field at path of record i, or (value alone) record i as assign does */
  set(i: number, ...pathAndValue: unknown[]): Promise<void>;
  /** copies of all the records */
  records(): Promise<Record<string, unknown>[]>;
  free(): Promise<boolean>;
  close(): Promise<boolean>;
  [Symbol.asyncDispose](): Promise<boolean>;
  /** frees without waiting */
  [Symbol.dispose](): void;
}

/** A module bound to a device: async functions, constants and the helpers. */
export interface Bound {
  [name: string]: unknown;
  callback(type: string, fn: (...args: any[]) => unknown, scope?: Scope): RemoteClosure;
  signature(type: string): string;
  /** fn with the arguments type's value descriptions describe read from the device */
  values(type: string, fn: (...args: any[]) => unknown): (...args: any[]) => Promise<unknown>;
  layout(name: string): Layout;
  /** a zeroed struct or union in the device's memory, or one holding value (docs/JS.md, "C objects on a device") */
  // quoted: new( in an interface would declare a constructor
  "new"(name: string, value?: Record<string, unknown> | Uint8Array | RemoteObject): Promise<RemoteObject>;
  /** a borrowed view of the record at a device address */
  view(name: string, p: Address | RemoteObject | RemoteRecords): RemoteObject;
  /** a borrowed view of count records at a device address */
  view(name: string, p: Address | RemoteObject | RemoteRecords, count: number): RemoteRecords;
  runtime: Device;
}

/** A Promise of the Device on link once its session opened. */
export function connect(link: Link | Promise<Link>, options?: ConnectOptions): Promise<Device>;
/** A link over a WebSocket to url (the bridge), once the socket is open. */
export function webSocketLink(url: string): Promise<Link>;
/** Whether a request that failed with status may have run. */
export function outcomeUnknown(status: number): boolean;
/** A slot as a device address: null for 0. */
export function address(slot: bigint): Address | null;

/** The framing (RPC.md, "Framing"), for tools and tests. */
export function crc16(crc: number, bytes: Uint8Array, from?: number, to?: number): number;
export function encodeFrame(payload: Uint8Array): Uint8Array;
export class Decoder {
  /** onEvent("frame", payload) or onEvent("bad", "crc" | "cut" | "too long") */
  constructor(cap: number, onEvent: (event: "frame" | "bad", what: Uint8Array | string) => void);
  readonly garbage: number;
  push(bytes: Uint8Array): void;
}

export type { NcccError };

// Declarations of nccc/remote/node (node.mjs): node's links to a device;
// docs/JS.md, "Remote devices".
import type { Link } from "./index.js";

/** A link over a child process's pipes; child is the process (node's ChildProcess:
 *  declared by what the declarations need, so that @types/node is no dependency). */
export interface ExecLink extends Link {
  child: { readonly pid?: number; kill(signal?: string | number): boolean };
}

/** A child process serving on its standard input and output (argv[0] searched on PATH). */
export function execLink(argv: string[]): Promise<ExecLink>;
/** TCP to host:port (127.0.0.1), tried until timeoutMs (2000) passes. */
export function tcpLink(port: number, options?: { host?: string; timeoutMs?: number }): Promise<Link>;
/** A terminal device (a pty, a serial port) in raw mode, at the port's own speed. */
export function serialLink(path: string): Promise<Link>;
/** The link a text names: "exec:PROGRAM ARG ...", "tcp:PORT" or "pty:PATH". */
export function openLink(spec: string, options?: { timeoutMs?: number }): Promise<Link>;

// Declarations of nccc/remote/bridge (bridge.mjs): the WebSocket bridge
// between a page and a device; docs/JS.md, "The bridge".

/** What the bridge needs of an http.Server (declared here, so that @types/node is no dependency). */
export interface UpgradingServer {
  on(event: "upgrade", listener: (...args: any[]) => void): unknown;
}

/** Adds the bridge to server: each WebSocket upgrade of path ("/nccc-link") opens a link to link (exec:, tcp:, pty:). */
export function attachBridge<S extends UpgradingServer>(server: S, options: { link: string; path?: string }): S;

// A static file server for the web examples, on 127.0.0.1 only, with
// node's own modules (no dependencies).
//
//   node serve.mjs ROOT [PORT] [--also DIR]... [--link SPEC]
//
// (PORT 0 or absent: any free port) prints the page's address and serves
// until stopped: a file is looked for in ROOT, then in each DIR in turn.
// With --link, the page reaches a device through nccc's bridge
// (bindings/js/nccc/remote/bridge.mjs) at the WebSocket /nccc-link, each
// connection on its own link SPEC (exec:, tcp:, pty:; docs/JS.md, "The
// bridge"). As a module, serve(root, port, {also, link}) resolves to
// { url, close() } (the browser tests use it).
//
// Every response carries a content security policy that allows scripts
// from this origin and WebAssembly compilation, and nothing else: no
// eval, no inline script. The nccc page needs no more than that.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { attachBridge } from '../../bindings/js/nccc/remote/bridge.mjs';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

const POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";

function reply(res, status, text) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text + '\n');
}

// The file a request names, or null when the path leaves the root.
function fileOf(root, url) {
  let path;
  try {
    path = decodeURIComponent(new URL(url, 'http://host').pathname);
  } catch {
    return null;
  }
  if (path.includes('\0')) return null;
  const file = resolve(root, '.' + path);
  return file === root || file.startsWith(root + sep) ? file : null;
}

// The file a request names in root, and its stat, or [file, null].
async function find(root, url) {
  let file = fileOf(root, url);
  if (!file) return [null, null];
  let info = await stat(file).catch(() => null);
  if (info?.isDirectory()) {
    file = resolve(file, 'index.html');
    info = await stat(file).catch(() => null);
  }
  return [file, info];
}

async function handle(roots, req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return reply(res, 405, 'only GET and HEAD');
  }
  let file, info;
  for (const root of roots) {
    [file, info] = await find(root, req.url);
    if (!file) return reply(res, 400, 'bad path');
    if (info?.isFile()) break;
  }
  if (!info?.isFile()) return reply(res, 404, 'not found');
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': info.size,
    'content-security-policy': POLICY,
    'cache-control': 'no-store',
  });
  if (req.method === 'HEAD') return res.end();
  createReadStream(file).pipe(res);
}

export function serve(root, port = 0, { also = [], link } = {}) {
  const dirs = [root, ...also].map((d) => resolve(d));
  const server = createServer((req, res) => {
    handle(dirs, req, res).catch((err) => reply(res, 500, String(err)));
  });
  if (link) attachBridge(server, { link });
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address();
      done({
        url: `http://127.0.0.1:${bound}/`,
        close: () => new Promise((closed) => server.close(closed)),
      });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2), also = [];
  let link;
  for (let k = args.indexOf('--also'); k >= 0; k = args.indexOf('--also')) also.push(...args.splice(k, 2).slice(1));
  const at = args.indexOf('--link');
  if (at >= 0) link = args.splice(at, 2)[1];
  const [root, port] = args;
  if (!root || also.includes(undefined) || (at >= 0 && !link)) {
    console.error('usage: node serve.mjs ROOT [PORT] [--also DIR]... [--link SPEC]');
    process.exit(2);
  }
  const { url } = await serve(root, Number(port ?? 0), { also, link });
  console.log(`serving ${resolve(root)} at ${url}${link ? ` (device: ${link})` : ''} (Ctrl-C stops)`);
}

// A static file server for the web example, on 127.0.0.1 only, with
// node's own modules (no dependencies).
//
//   node serve.mjs ROOT [PORT]      (PORT 0 or absent: any free port)
//
// prints the page's address and serves until stopped. As a module,
// serve(root, port) resolves to { url, close() } (the browser test uses it).
//
// Every response carries a content security policy that allows scripts
// from this origin and WebAssembly compilation, and nothing else: no
// eval, no inline script. The nccc page needs no more than that.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

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

async function handle(root, req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return reply(res, 405, 'only GET and HEAD');
  }
  let file = fileOf(root, req.url);
  if (!file) return reply(res, 400, 'bad path');
  let info = await stat(file).catch(() => null);
  if (info?.isDirectory()) {
    file = resolve(file, 'index.html');
    info = await stat(file).catch(() => null);
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

export function serve(root, port = 0) {
  const dir = resolve(root);
  const server = createServer((req, res) => {
    handle(dir, req, res).catch((err) => reply(res, 500, String(err)));
  });
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
  const [root, port] = process.argv.slice(2);
  if (!root) {
    console.error('usage: node serve.mjs ROOT [PORT]');
    process.exit(2);
  }
  const { url } = await serve(root, Number(port ?? 0));
  console.log(`serving ${resolve(root)} at ${url} (Ctrl-C stops)`);
}

// The web example's static server (examples/web/serve.mjs) on a folder
// made here: what it serves, with which types and policy, and what it
// refuses (paths out of the folder, other methods).
//
//   node --test serve.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../../examples/web/serve.mjs';

// One request with a raw path (no normalisation by a URL parser).
function get(url, path, method = 'GET') {
  const { hostname, port } = new URL(url);
  return new Promise((done, fail) => {
    const req = request({ hostname, port, path, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { body += chunk; });
      res.on('end', () => done({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

test('serve.mjs serves one folder on 127.0.0.1 and nothing else', async (t) => {
  const parent = mkdtempSync(join(tmpdir(), 'nccc-serve-'));
  t.after(() => rmSync(parent, { recursive: true, force: true }));
  const root = join(parent, 'site');
  mkdirSync(join(root, 'sub'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<p>page</p>');
  writeFileSync(join(root, 'app.mjs'), 'export default 1;');
  writeFileSync(join(root, 'm.wasm'), Buffer.from([0, 97, 115, 109]));
  writeFileSync(join(root, 'sub', 'index.html'), 'sub page');
  writeFileSync(join(parent, 'secret.txt'), 'outside the root');

  const server = await serve(root);
  t.after(() => server.close());
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);

  const page = await get(server.url, '/');
  assert.equal(page.status, 200);
  assert.equal(page.body, '<p>page</p>');
  assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(page.headers['content-security-policy'],
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'");

  assert.equal((await get(server.url, '/app.mjs')).headers['content-type'],
    'text/javascript; charset=utf-8');
  const wasm = await get(server.url, '/m.wasm');
  assert.equal(wasm.headers['content-type'], 'application/wasm');
  assert.equal(wasm.headers['content-length'], '4');
  assert.equal((await get(server.url, '/sub')).body, 'sub page');
  assert.equal((await get(server.url, '/missing.js')).status, 404);

  for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/sub/../../secret.txt']) {
    const res = await get(server.url, path);
    assert.notEqual(res.status, 200, path);
    assert.doesNotMatch(res.body, /outside the root/, path);
  }
  assert.equal((await get(server.url, '/%E0%A4%A')).status, 400);
  assert.equal((await get(server.url, '/index.html', 'POST')).status, 405);
  const head = await get(server.url, '/index.html', 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.body, '');
});

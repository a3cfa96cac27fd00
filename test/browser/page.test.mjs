// The web example in a real browser: serves the built page
// (examples/web/, assembled in the build folder) on 127.0.0.1, opens it
// in Debian's chromium driven over the DevTools protocol by puppeteer-core,
// waits for the page to finish, reads its results from the DOM and
// checks them against values computed here. Saves a screenshot.
//
//   node --test page.test.mjs      with the environment
//     NCCC_WEB_SITE     the assembled page (index.html, app.mjs, ...)
//     NCCC_WEB_NPM      the folder npm ci installed puppeteer-core into
//     NCCC_WEB_SQLITE_H the sqlite3.h the page's SQLite was built from
//     NCCC_WEB_SHOT     where the screenshot goes (a .png)
//     NCCC_CHROMIUM     the browser (default /usr/bin/chromium)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { serve } from '../../examples/web/serve.mjs';
import { PLANETS, UNSORTED } from '../../examples/web/data.mjs';

function env(name) {
  const value = process.env[name];
  if (!value) throw new Error(`page.test.mjs: set ${name}`);
  return value;
}

const site = env('NCCC_WEB_SITE');
const puppeteer = createRequire(join(env('NCCC_WEB_NPM'), 'package.json'))('puppeteer-core');
const sqliteVersion = readFileSync(env('NCCC_WEB_SQLITE_H'), 'utf8')
  .match(/#define SQLITE_VERSION\s+"([^"]+)"/)[1];

// Everything the page shows, read from its DOM: the status line and every
// element marked data-result (tables as arrays of rows of cell texts).
function readPage() {
  const text = (el) => el.textContent.trim();
  const results = {};
  for (const el of document.querySelectorAll('[data-result]')) {
    results[el.dataset.result] = el.tagName === 'TABLE'
      ? [...el.tBodies[0].rows].map((row) => [...row.cells].map(text))
      : text(el);
  }
  const status = document.getElementById('status');
  return { state: status.dataset.state, status: text(status), results };
}

test('the web example shows SQLite and qsort working with JS callbacks', async (t) => {
  const server = await serve(site);
  t.after(() => server.close());
  const browser = await puppeteer.launch({
    executablePath: process.env.NCCC_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  t.after(() => browser.close());

  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()}`));
  await page.setViewport({ width: 1000, height: 900 });
  await page.goto(server.url, { waitUntil: 'load' });
  await page.waitForSelector('#status:not([data-state="running"])', { timeout: 60000 });
  await page.screenshot({ path: env('NCCC_WEB_SHOT'), fullPage: true });

  const { state, status, results } = await page.evaluate(readPage);
  assert.deepEqual(problems, []);
  assert.equal(state, 'done', status);

  assert.equal(results['sqlite-version'], sqliteVersion);
  assert.match(results['nccc-version'], /^\d+\.\d+\.\d+$/);

  // The row callback: every planet, ordered by radius, as SQLite's text.
  const byRadius = [...PLANETS].sort((a, b) => a.radius - b.radius);
  assert.deepEqual(results.rows,
    byRadius.map((p) => [p.name, p.radius.toFixed(1), String(p.moons)]));

  // The SQL function: 4 pi r^2 for each planet, largest first, in km^2.
  const byArea = [...PLANETS].sort((a, b) => b.radius - a.radius);
  assert.deepEqual(results.areas,
    byArea.map((p) => [p.name, Math.round(4 * Math.PI * p.radius ** 2).toString()]));
  assert.equal(results['area-calls'], String(PLANETS.length));
  assert.equal(results['area-released'], 'yes');

  // qsort with the JS comparator: largest first.
  assert.equal(results['qsort-before'], UNSORTED.join(' '));
  assert.equal(results['qsort-after'], [...UNSORTED].sort((a, b) => b - a).join(' '));
  assert.ok(Number(results['qsort-calls']) >= UNSORTED.length - 1,
    `the comparator ran ${results['qsort-calls']} times`);
});

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
import { serve } from '../../examples/web/serve.mjs';
import { PLANETS, UNSORTED } from '../../examples/web/data.mjs';
import { openPage } from './chromium.mjs';
import { env } from '../js/env.mjs';

const site = env('NCCC_WEB_SITE');
const sqliteVersion = readFileSync(env('NCCC_WEB_SQLITE_H'), 'utf8')
  .match(/#define SQLITE_VERSION\s+"([^"]+)"/)[1];

test('the web example shows SQLite and qsort working with JS callbacks', async (t) => {
  const server = await serve(site);
  t.after(() => server.close());
  const { state, status, results, problems } = await openPage(t,
    { npm: env('NCCC_WEB_NPM'), url: server.url, shot: env('NCCC_WEB_SHOT') });
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

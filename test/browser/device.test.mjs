// The Cortex-M3 image from a page in a real browser, its UART on QEMU's
// pipes and on TCP: serves
// examples/web-device (with nccc's package and the modules generated
// from device/fixture/*.idl) and nccc's bridge on 127.0.0.1, the bridge's
// link the image on QEMU; opens the page in Debian's chromium
// (chromium.mjs), waits for it, and checks what it shows against values
// computed here. Saves a screenshot.
//
//   node --test device.test.mjs      with the environment
//     NCCC_WEB_NPM        the folder npm ci installed puppeteer-core into
//     NCCC_JS_MODULES     the folder of the generated m.mjs, dev.mjs, callbacks.mjs
//     NCCC_DEVICE_RUN     device/run_qemu.sh
//     NCCC_DEVICE_IMAGE   the full image (firmware.elf)
//     NCCC_WEB_SHOT       where the screenshot goes (a .png)
//     NCCC_CHROMIUM       the browser (default /usr/bin/chromium)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serve } from '../../examples/web/serve.mjs';
import { openPage } from './chromium.mjs';
import { env } from '../js/env.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

// Serves the page with the bridge to link, opens it, checks what it shows.
async function pageOn(t, link) {
  const server = await serve(here('../../examples/web-device'), 0, {
    // the page's own files, then the web example's style and icon, nccc's
    // package and the generated modules
    also: [here('../../examples/web'), here('../../bindings/js'), env('NCCC_JS_MODULES')],
    link,
  });
  t.after(() => server.close());
  const { state, status, results, problems } = await openPage(t,
    { npm: env('NCCC_WEB_NPM'), url: server.url, shot: env('NCCC_WEB_SHOT') });
  assert.deepEqual(problems, []);
  assert.equal(state, 'done', status);

  // what the image announced: a 32-bit device, its bare-metal limits
  assert.equal(results['pointer-bytes'], '4');
  assert.equal(Number(results['max-message']) % 8, 0);
  assert.ok(Number(results['max-depth']) >= 1);
  // computed on the device, checked here
  assert.equal(results.sqrt2, String(Math.sqrt(2)));
  assert.equal(results.hypotf, String(Math.hypot(3, 4)));
  assert.equal(results.frexp, [48 / 2 ** 6, 6].join(', '));
  assert.equal(results.midpoint, `${(1 + 4) / 2}, ${(-2 + 8) / 2}`);
  // the page's callbacks, called by the device
  assert.equal(results.fold, String([...Array(10).keys()].reduce((a, i) => a + i, 0)));
  assert.equal(results['fold-calls'], '10');
  assert.equal(results['sort-digits'], [...'31415'].sort().reverse().join(''));
  assert.equal(results.emit, String(10 * 4));
  assert.equal(results['watch-released'], 'true');
}

test('a page calls the Cortex-M3 image through the bridge, on QEMU\'s pipes', async (t) => {
  await pageOn(t, `exec:bash ${env('NCCC_DEVICE_RUN')} --link ${env('NCCC_DEVICE_IMAGE')}`);
});

test('the same with the image\'s UART on TCP', async (t) => {
  const port = await new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
  const qemu = spawn('bash', [env('NCCC_DEVICE_RUN'), env('NCCC_DEVICE_IMAGE'), '-serial',
    `tcp:127.0.0.1:${port},server=on`], { stdio: 'ignore' });
  t.after(() => qemu.kill());
  await pageOn(t, `tcp:${port}`);
});

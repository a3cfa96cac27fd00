// What the browser tests share: a page opened in Debian's chromium
// (headless, --no-sandbox) through puppeteer-core from the folder npm ci
// installed it into, waited for until its #status leaves "running", a
// screenshot saved, and everything it shows read from its DOM.
import { createRequire } from 'node:module';
import { join } from 'node:path';

// Everything the page shows: the status line and every element marked
// data-result (tables as arrays of rows of cell texts). Runs in the page.
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

// Opens url in chromium, waits for the page (at most timeout ms), saves
// a screenshot to shot; resolves to {state, status, results, problems}
// (page errors, console errors, failed requests). t closes the browser.
export async function openPage(t, { npm, url, shot, timeout = 60000 }) {
  const puppeteer = createRequire(join(npm, 'package.json'))('puppeteer-core');
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
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector('#status:not([data-state="running"])', { timeout });
  await page.screenshot({ path: shot, fullPage: true });
  return { ...(await page.evaluate(readPage)), problems };
}

// The page of examples/web-device: the Cortex-M3 image's functions called
// over the bridge's WebSocket (docs/JS.md, "The bridge"). Writes each
// result into the element marked data-result, and #status's data-state
// ("done" or "failed").
import { connect, webSocketLink } from '/nccc/remote/index.mjs';
import * as m from '/m.mjs';
import * as dev from '/dev.mjs';
import * as callbacks from '/callbacks.mjs';

const status = document.getElementById('status');
const show = (name, value) => {
  document.querySelector(`[data-result="${name}"]`).textContent = String(value);
};

try {
  const device = await connect(webSocketLink(`ws://${location.host}/nccc-link`), { timeoutMs: 5000 });
  show('pointer-bytes', device.info.pointerBytes);
  show('max-message', device.info.maxMessage);
  show('max-depth', device.info.maxDepth);

  const mm = await m.bind(device), d = await dev.bind(device), cb = await callbacks.bind(device);
  show('sqrt2', await mm.sqrt(2));
  show('hypotf', await mm.hypotf(3, 4));
  show('frexp', (await mm.frexp(48)).join(', '));
  const mid = await d.midpoint({ x: 1, y: -2 }, { x: 4, y: 8 });
  show('midpoint', `${mid.x}, ${mid.y}`);

  let steps = 0;
  show('fold', await cb.fold(10, cb.callback('step_fn', (acc, i) => {
    steps++;
    return acc + i;
  })));
  show('fold-calls', steps);
  show('sort-digits', await cb.sort_digits(31415, cb.callback('cmp_fn', (a, b) => b - a)));
  const watcher = cb.callback('watch_fn', (event) => 10 * event, 'notified');
  await cb.watch(watcher);
  show('emit', await cb.emit(4));
  await cb.unwatch();
  show('watch-released', !watcher.live);
  device.close();
  status.dataset.state = 'done';
  status.textContent = 'done: every result below came from the device';
} catch (err) {
  status.dataset.state = 'failed';
  status.textContent = `failed: ${err.message}`;
}

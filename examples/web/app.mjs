// The web example's script: loads nccc_web.wasm (SQLite's amalgamation,
// emscripten's libc, the nccc runtime and the wrappers generated from
// idl/sqlite3.idl and em_libc.idl), binds the JavaScript modules
// generated from the same IDL files, and writes what SQLite and qsort
// return into the page. The row callback, the SQL function and the
// comparator are JavaScript functions; C reaches them through the one
// dispatcher the wasm module imports (docs/JS.md, "Callbacks").
//
// The browser test (test/browser/page.test.mjs) reads the elements
// marked data-result and #status's data-state ("done" or "failed").
import * as nccc from './nccc/index.mjs';
import * as sqlite3Module from './sqlite3.mjs';
import * as emLibcModule from './em_libc.mjs';
import { PLANETS, UNSORTED } from './data.mjs';

const status = document.getElementById('status');

function show(name, text) {
  document.querySelector(`[data-result="${name}"]`).textContent = text;
}

function fill(name, rows) {
  const body = document.querySelector(`[data-result="${name}"]`).tBodies[0];
  body.replaceChildren(...rows.map((cells) => {
    const tr = document.createElement('tr');
    for (const cell of cells) tr.insertCell().textContent = cell;
    return tr;
  }));
}

// SQL run by sqlite3_exec, each row handed to row(values, names) as
// strings (null for an SQL NULL); throws SQLite's message on failure.
function execWith(rt, sqlite3, db) {
  return (sql, row) => {
    const cb = row && sqlite3.callback('exec_fn', (ncols, values, names) => {
      row(values.map((p) => rt.cstring(p)), names.map((p) => rt.cstring(p)));
      return 0;
    });
    const [rc, message] = sqlite3.sqlite3_exec(db, sql, cb);
    if (rc !== sqlite3.SQLITE_OK) {
      throw new Error(`${sql}: ${message ?? sqlite3.sqlite3_errmsg(db)}`);
    }
  };
}

// SQLite copies text bound with this destructor: (void *)-1, as the
// unsigned 32-bit number a pointer is on wasm32.
const SQLITE_TRANSIENT = 0xffffffff;

function insertPlanets(rt, sqlite3, db) {
  const [rc, stmt] = sqlite3.sqlite3_prepare_v2(db, 'INSERT INTO planets VALUES (?, ?, ?)', -1);
  if (rc !== sqlite3.SQLITE_OK) throw new Error(`prepare: ${sqlite3.sqlite3_errmsg(db)}`);
  for (const p of PLANETS) {
    const name = rt.newCString(p.name);
    // -1: the text ends at its NUL (a byte count, not a string's length)
    sqlite3.sqlite3_bind_text(stmt, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3.sqlite3_bind_double(stmt, 2, p.radius);
    sqlite3.sqlite3_bind_int64(stmt, 3, BigInt(p.moons));
    const step = sqlite3.sqlite3_step(stmt);
    rt.free(name);
    if (step !== sqlite3.SQLITE_DONE) throw new Error(`insert ${p.name}: ${sqlite3.sqlite3_errmsg(db)}`);
    sqlite3.sqlite3_reset(stmt);
  }
  if (!stmt.close()) throw new Error('sqlite3_finalize did not run'); // stmt is owned too
}

function runSqlite(rt) {
  const sqlite3 = sqlite3Module.bind(rt);
  show('sqlite-version', sqlite3.sqlite3_libversion());
  // db is an owned object ([out, owned(sqlite3_close)] in the IDL):
  // close() closes it, at most once
  const [rc, db] = sqlite3.sqlite3_open(':memory:');
  if (rc !== sqlite3.SQLITE_OK) throw new Error(`sqlite3_open returned ${rc}`);
  const exec = execWith(rt, sqlite3, db);
  exec('CREATE TABLE planets (name TEXT, radius_km REAL, moons INTEGER)');
  insertPlanets(rt, sqlite3, db);

  const rows = [];
  exec('SELECT name, radius_km, moons FROM planets ORDER BY radius_km',
    (values) => rows.push(values));
  fill('rows', rows);

  // sphere_area(r) = 4 pi r^2, a JavaScript function SQLite calls for
  // every row. "notified": SQLite's destroy notify releases it when the
  // connection closes.
  let calls = 0;
  const area = sqlite3.callback('sql_func_fn', (ctx, argc, argv) => {
    calls++;
    const r = sqlite3.sqlite3_value_double(argv[0]);
    sqlite3.sqlite3_result_double(ctx, 4 * Math.PI * r * r);
  }, 'notified');
  const flags = sqlite3.SQLITE_UTF8 | sqlite3.SQLITE_DETERMINISTIC;
  const made = sqlite3.sqlite3_create_function_v2(db, 'sphere_area', 1, flags, area, null, null);
  if (made !== sqlite3.SQLITE_OK) throw new Error(`sqlite3_create_function_v2 returned ${made}`);
  const areas = [];
  exec('SELECT name, sphere_area(radius_km) AS area FROM planets ORDER BY area DESC',
    ([name, value]) => areas.push([name, Math.round(Number(value)).toString()]));
  fill('areas', areas);
  show('area-calls', String(calls));

  if (!db.close()) throw new Error('sqlite3_close did not run');
  show('area-released', area.live ? 'no' : 'yes');
}

// qsort over an int32 array in wasm memory, largest first, with a
// JavaScript comparator bound to one of em_libc's thunks for the call.
function runQsort(rt) {
  const libc = emLibcModule.bind(rt);
  const n = UNSORTED.length;
  const base = rt.alloc(4 * n);
  const view = () => new Int32Array(rt.mem.buffer, base, n);
  view().set(UNSORTED);
  show('qsort-before', Array.from(view()).join(' '));
  let calls = 0;
  const int32At = (p) => new Int32Array(rt.mem.buffer, p, 1)[0];
  const largestFirst = libc.callback('cmp_fn', (a, b) => {
    calls++;
    const x = int32At(a), y = int32At(b);
    return x < y ? 1 : x > y ? -1 : 0;
  });
  libc.qsort(base, n, 4, largestFirst);
  show('qsort-after', Array.from(view()).join(' '));
  show('qsort-calls', String(calls));
  rt.free(base);
}

async function main() {
  const rt = await nccc.load(new URL('nccc_web.wasm', import.meta.url));
  show('nccc-version', rt.version);
  runSqlite(rt);
  runQsort(rt);
}

main().then(() => {
  status.dataset.state = 'done';
  status.textContent = 'done: every result below came from C compiled to WebAssembly';
}, (err) => {
  status.dataset.state = 'failed';
  status.textContent = `failed: ${err.message}`;
  console.error(err);
});

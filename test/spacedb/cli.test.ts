// atrium db against a running API server: query, tables, export, import into
// another space, writes, guest writes, reset and restore, with --json.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, expect, it } from 'vitest';
import { cliTimeout } from '../cli/run-cli.ts';
import { devLogin, request, useApiServers, type ApiProcess } from '../process-server.ts';

const run = promisify(execFile);
const servers = useApiServers();
let server: ApiProcess;

beforeAll(async () => {
  server = await servers.start();
});

it('queries, lists, exports, imports, logs, resets and restores from the command line', { timeout: cliTimeout(16) }, async () => {
  const { token } = await devLogin(server.origin, 'dbcli');
  const space = async (name: string) => (await request(server.origin, 'POST', '/v1/spaces', { token, body: { workspace: 'dbcli', name } })).json.id as string;
  const [source, target] = [await space('Source'), await space('Target')];
  const dir = mkdtempSync(path.join(tmpdir(), 'atrium-db-cli-'));
  const env = { ...process.env, ATRIUM_URL: server.origin, ATRIUM_TOKEN: token, ATRIUM_CONFIG_DIR: dir };
  const atrium = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, [path.resolve('cli/main.ts'), ...args], { env, cwd: dir });
    return stdout;
  };
  const json = async (...args: string[]) => JSON.parse(await atrium('--json', ...args));

  await atrium('db', 'query', '--space', source, '--write', "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t (name) VALUES ('a'), ('b');");
  expect((await json('db', 'query', '--space', source, 'SELECT name FROM t WHERE id = ?', '-p', '2')).rows).toEqual([['b']]);
  expect(await atrium('db', 'query', '--space', source, 'SELECT name FROM t ORDER BY id')).toMatch(/a\n.*b/s);
  expect((await json('db', 'tables', '--space', source)).tables.map((t: { name: string; rows: number }) => [t.name, t.rows])).toEqual([['t', 2]]);

  const dump = path.join(dir, 'dump.sql');
  await atrium('db', 'export', '--space', source, '-o', dump);
  expect(readFileSync(dump, 'utf8')).toContain('CREATE TABLE t');
  // sqlite3 .dump style wrapping is accepted too.
  writeFileSync(dump, `BEGIN TRANSACTION;\n${readFileSync(dump, 'utf8')}COMMIT;\n`);
  expect((await json('db', 'import', '--space', target, dump)).rowsWritten).toBe(2);
  expect((await json('db', 'query', '--space', target, 'SELECT name FROM t ORDER BY id')).rows).toEqual([['a'], ['b']]);

  const guest = path.join(dir, 'guest.json');
  writeFileSync(guest, JSON.stringify([{ name: 'add', sql: 'INSERT INTO t (name) VALUES (?)' }]));
  expect(await json('db', 'guest-writes', '--space', source, '--set', guest)).toEqual([{ name: 'add', sql: 'INSERT INTO t (name) VALUES (?)' }]);
  expect((await json('db', 'writes', '--space', source)).map((w: { rowsWritten: number }) => w.rowsWritten)).toEqual([2]);

  const reset = await json('db', 'reset', '--space', source, '--yes');
  expect((await json('db', 'tables', '--space', source)).tables).toEqual([]);
  const restored = await json('db', 'restore', '--space', source, String(reset.before));
  expect(restored.undoBookmark).toMatch(/^bm-\d+$/);
  expect((await json('db', 'query', '--space', source, 'SELECT count(*) AS n FROM t')).rows).toEqual([[2]]);
  await expect(atrium('db', 'reset', '--space', source)).rejects.toThrow(/--yes/);
});

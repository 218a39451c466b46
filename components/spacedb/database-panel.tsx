'use client';
// The Database tab of a space: tables with paged rows, an SQL console, guest
// writes, the write log, export, and reset and restore (with how to undo).
import { useCallback, useEffect, useState } from 'react';
import { Button, ButtonLink } from '@/components/ui/button.tsx';
import { Card, EmptyState, ErrorNote } from '@/components/ui/card.tsx';
import { useConfirm } from '@/components/ui/dialog.tsx';
import { Cell, Table } from '@/components/ui/table.tsx';
import { spacedbApi } from '@/lib/schemas/spacedb.ts';
import { web } from '@/lib/web/api-client.ts';

type Permissions = { view: boolean; push: boolean; admin: boolean };
type Value = string | number | null | { blob: string };
type Result = { columns: string[]; rows: Value[][]; rowsRead: number; rowsWritten: number; truncated: boolean };
type Overview = Awaited<ReturnType<typeof loadOverview>>;

const PAGE = 50;
const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

function loadOverview(id: string) {
  return web.call(spacedbApi.overview, { params: { id } });
}

function show(value: Value) {
  if (value === null) return <span className="text-muted">NULL</span>;
  if (typeof value === 'object') return <span className="text-muted">BLOB ({Math.floor((value.blob.length * 3) / 4)} bytes)</span>;
  return String(value);
}

function Grid({ result, label }: { result: Result; label: string }) {
  if (result.columns.length === 0) return <p className="text-sm text-muted">Done: {result.rowsWritten} row(s) written.</p>;
  return (
    <div>
      <Table headers={result.columns} label={label}>
        {result.rows.map((row, i) => (
          <tr key={i}>
            {row.map((value, j) => (
              <Cell key={j}>{show(value)}</Cell>
            ))}
          </tr>
        ))}
      </Table>
      <p className="mt-2 text-xs text-muted">
        {result.rows.length} row(s){result.truncated ? ' (truncated)' : ''} · {result.rowsRead} read · {result.rowsWritten} written
      </p>
    </div>
  );
}

function Tables({ id, overview }: { id: string; overview: Overview | null }) {
  const [table, setTable] = useState<string | null>(null);
  const [page, setPage] = useState(0);
  const [rows, setRows] = useState<Result | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!table) return;
    web
      .call(spacedbApi.query, { params: { id }, body: { sql: `SELECT * FROM ${quoteName(table)} LIMIT ${PAGE} OFFSET ${page * PAGE}`, params: [], write: false } })
      .then((r) => {
        setRows(r as Result);
        setError(null);
      })
      .catch((e) => setError(message(e)));
  }, [id, table, page]);
  if (!overview) return null;
  const selected = overview.tables.find((t) => t.name === table);
  return (
    <Card title="Tables" actions={<span className="text-xs text-muted">{(overview.databaseSize / 1024).toFixed(0)} KB</span>}>
      {overview.tables.length === 0 ? (
        <EmptyState>No tables yet. Create one in the console below.</EmptyState>
      ) : (
        <div className="flex flex-wrap gap-2">
          {overview.tables.map((t) => (
            <button
              key={t.name}
              type="button"
              onClick={() => {
                setTable(t.name);
                setPage(0);
              }}
              aria-pressed={t.name === table}
              className={`rounded-md border px-3 py-1 text-sm ${t.name === table ? 'border-brand text-link' : 'border-slate-300'}`}
            >
              {t.name} {t.rows !== null ? <span className="text-muted">({t.rows})</span> : <span className="text-muted">(view)</span>}
            </button>
          ))}
        </div>
      )}
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      {selected && rows ? (
        <div className="mt-4">
          <p className="mb-2 text-xs text-muted">{selected.columns.map((c) => `${c.name} ${c.type}${c.primaryKey ? ' (key)' : ''}`).join(' · ')}</p>
          <Grid result={rows} label={`Rows of ${selected.name}`} />
          <div className="mt-2 flex gap-2">
            <Button variant="secondary" disabled={page === 0} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <Button variant="secondary" disabled={rows.rows.length < PAGE} onClick={() => setPage(page + 1)}>
              Next
            </Button>
          </div>
        </div>
      ) : null}
    </Card>
  );
}

function Console({ id, canWrite, onChange }: { id: string; canWrite: boolean; onChange: () => void }) {
  const [sql, setSql] = useState('SELECT name, type FROM sqlite_schema');
  const [write, setWrite] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function run() {
    setBusy(true);
    setError(null);
    try {
      setResult((await web.call(spacedbApi.query, { params: { id }, body: { sql, params: [], write } })) as Result);
      if (write) onChange();
    } catch (e) {
      setResult(null);
      setError(message(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card title="SQL console">
      <label className="block text-sm font-medium" htmlFor="sql-console">
        SQL
      </label>
      <textarea
        id="sql-console"
        value={sql}
        onChange={(e) => setSql(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) void run();
        }}
        rows={5}
        spellCheck={false}
        className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
      />
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <Button onClick={run} disabled={busy}>
          {busy ? 'Running…' : 'Run'}
        </Button>
        {canWrite ? (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={write} onChange={(e) => setWrite(e.target.checked)} /> Allow writes
          </label>
        ) : null}
        <span className="text-xs text-muted">Ctrl+Enter runs. Several statements of one write run as one transaction.</span>
      </div>
      <div className="mt-4" aria-live="polite">
        {error ? <ErrorNote>{error}</ErrorNote> : null}
        {result ? <Grid result={result} label="Query result" /> : null}
      </div>
    </Card>
  );
}

type GuestWrite = { name: string; sql: string };

function GuestWrites({ id }: { id: string }) {
  const [statements, setStatements] = useState<GuestWrite[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    web
      .call(spacedbApi.guestWrites, { params: { id } })
      .then((r) => setStatements(r.statements))
      .catch((e) => setError(message(e)));
  }, [id]);
  const change = (index: number, field: keyof GuestWrite, value: string) => setStatements((all) => all.map((s, i) => (i === index ? { ...s, [field]: value } : s)));
  async function save() {
    setError(null);
    setNote(null);
    try {
      await web.call(spacedbApi.putGuestWrites, { params: { id }, body: { statements } });
      setNote('Saved.');
    } catch (e) {
      setError(message(e));
    }
  }
  return (
    <Card title="Guest writes">
      <p className="mb-3 text-sm text-muted">
        Named statements guests may run while the space allows guest writes (Settings). Each must be one INSERT, UPDATE, DELETE or REPLACE; a guest&apos;s page runs one by its name.
      </p>
      {statements.length === 0 ? <EmptyState>No guest writes: guests cannot change this database.</EmptyState> : null}
      <ol className="space-y-4">
        {statements.map((statement, index) => (
          <li key={index} aria-label={`Guest write ${index + 1}`} className="rounded-md border border-slate-200 p-3 dark:border-slate-700">
            <label className="block text-sm font-medium" htmlFor={`guest-write-name-${index}`}>
              Name
            </label>
            <input
              id={`guest-write-name-${index}`}
              value={statement.name}
              onChange={(e) => change(index, 'name', e.target.value)}
              placeholder="add_signup"
              spellCheck={false}
              className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
            />
            <label className="mt-2 block text-sm font-medium" htmlFor={`guest-write-sql-${index}`}>
              Statement
            </label>
            <textarea
              id={`guest-write-sql-${index}`}
              value={statement.sql}
              onChange={(e) => change(index, 'sql', e.target.value)}
              rows={3}
              spellCheck={false}
              placeholder="INSERT INTO signups (name) VALUES (?)"
              className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
            />
            <Button variant="secondary" size="sm" className="mt-2" onClick={() => setStatements((all) => all.filter((_, i) => i !== index))}>
              Remove
            </Button>
          </li>
        ))}
      </ol>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <Button variant="secondary" onClick={() => setStatements((all) => [...all, { name: '', sql: '' }])}>
          Add a guest write
        </Button>
        <Button onClick={save}>Save guest writes</Button>
        {note ? <span className="text-sm text-green-700">{note}</span> : null}
      </div>
      {error ? <ErrorNote>{error}</ErrorNote> : null}
    </Card>
  );
}

function WriteLog({ id, version }: { id: string; version: number }) {
  const [writes, setWrites] = useState<Awaited<ReturnType<typeof loadWrites>>['writes']>([]);
  function loadWrites() {
    return web.call(spacedbApi.writes, { params: { id }, query: { limit: 50 as never } });
  }
  useEffect(() => {
    loadWrites()
      .then((r) => setWrites(r.writes))
      .catch(() => setWrites([]));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, version]);
  return (
    <Card title="Write log">
      {writes.length === 0 ? (
        <EmptyState>No writes yet.</EmptyState>
      ) : (
        <Table headers={['When', 'Who', 'Rows', 'Statement']} label="Write log">
          {writes.map((w) => (
            <tr key={w.id}>
              <Cell>{new Date(w.at).toLocaleString()}</Cell>
              <Cell>{w.user ? `@${w.user.handle}` : `Guest${w.guestName ? ` ${w.guestName}` : ''}`}</Cell>
              <Cell>{w.rowsWritten}</Cell>
              <Cell>
                <code className="text-xs">{(w.name ? `[${w.name}] ` : '') + w.statement.slice(0, 200)}</code>
              </Cell>
            </tr>
          ))}
        </Table>
      )}
    </Card>
  );
}

function localInput(ms: number) {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 19);
}

/** The last restore's or reset's undo, kept in this browser so that a reload does not lose it. */
const undoKey = (id: string) => `atrium.spacedb-undo.${id}`;
type Undo = { status: string; bookmark: string | number };

function Danger({ id, onChange }: { id: string; onChange: () => void }) {
  const confirm = useConfirm();
  const [at, setAt] = useState(() => localInput(Date.now() - 3600_000));
  const [undo, setUndoState] = useState<Undo | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    try {
      setUndoState(JSON.parse(localStorage.getItem(undoKey(id)) ?? 'null'));
    } catch {
      setUndoState(null);
    }
  }, [id]);
  const setUndo = (value: Undo) => {
    setUndoState(value);
    localStorage.setItem(undoKey(id), JSON.stringify(value));
  };
  async function restore(target: string | number, ask: boolean) {
    setError(null);
    if (ask && !(await confirm({ title: `Restore the database to ${new Date(target).toLocaleString()}?`, description: 'What is there now stays in the history: Undo brings it back.', confirmLabel: 'Restore' }))) return;
    try {
      const answer = await web.call(spacedbApi.restore, { params: { id }, body: { at: target } });
      setUndo({ status: `Restored to ${new Date(answer.restoredTo).toLocaleString()}.`, bookmark: answer.undoBookmark });
      onChange();
    } catch (e) {
      setError(message(e));
    }
  }
  async function reset() {
    if (!(await confirm({ title: 'Reset the database?', description: 'Every table, view, index and trigger is dropped. You can undo it by restoring.', confirmLabel: 'Reset database', danger: true }))) return;
    setError(null);
    try {
      const answer = await web.call(spacedbApi.reset, { params: { id } });
      setUndo({ status: 'Every table was dropped.', bookmark: answer.before });
      onChange();
    } catch (e) {
      setError(message(e));
    }
  }
  return (
    <Card title="Restore and reset">
      <p className="mb-3 text-sm text-muted">
        Restore the database as it was at any second of the last 30 days. Nothing is lost: the state before the restore stays in the history, and Undo brings it back.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <label className="block text-sm font-medium">
          Restore to
          <input type="datetime-local" step={1} value={at} onChange={(e) => setAt(e.target.value)} className="mt-1 block rounded-md border border-slate-300 px-3 py-2 text-sm" />
        </label>
        <Button variant="secondary" onClick={() => restore(new Date(at).getTime(), true)}>
          Restore
        </Button>
        <Button variant="danger" onClick={reset}>
          Reset database
        </Button>
      </div>
      <div className="mt-3" aria-live="polite">
        {undo ? (
          <p className="text-sm">
            {undo.status}{' '}
            <Button variant="secondary" className="ml-2" onClick={() => restore(undo.bookmark, false)}>
              Undo
            </Button>
          </p>
        ) : null}
        {error ? <ErrorNote>{error}</ErrorNote> : null}
      </div>
    </Card>
  );
}

export function DatabasePanel({ id, permissions }: { id: string; permissions: Permissions }) {
  const [overview, setOverview] = useState<Overview | null>(null);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const refresh = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    loadOverview(id)
      .then(setOverview)
      .catch((e) => setError(message(e)));
  }, [id, version]);
  return (
    <div className="space-y-6">
      {error ? <ErrorNote>{error}</ErrorNote> : null}
      <Tables key={version} id={id} overview={overview} />
      <Console id={id} canWrite={permissions.push} onChange={refresh} />
      {permissions.push ? (
        <div className="flex gap-2">
          <ButtonLink variant="secondary" href={`/v1/spaces/${id}/db/export`} download={`${id}.sql`}>
            Export as SQL
          </ButtonLink>
        </div>
      ) : null}
      {permissions.push ? <GuestWrites id={id} /> : null}
      {permissions.push ? <WriteLog id={id} version={version} /> : null}
      {permissions.admin ? <Danger id={id} onChange={refresh} /> : null}
    </div>
  );
}

/**
 * The import journal in PostgreSQL (migration set `imports`), the counterpart of
 * `../sqlite/import-journal.ts`: runs and per-input checkpoints, written on the import's own
 * connection so a checkpoint commits in the transaction of its batch.
 *
 * @example
 *   const run = await beginImport(client, { paths }, ['works.jsonl']);
 *   await checkpointImport(client, run, 0, 5000, false); // inside the batch's transaction
 */
import type pg from 'pg';
import type { ImportRun, ImportRunState } from '../record-writer.ts';

type Queryable = Pick<pg.ClientBase, 'query'>;

/** Starts a run over the inputs (in import order); its id. */
export async function beginImport(client: pg.PoolClient, request: unknown, inputs: readonly string[]): Promise<number> {
  await client.query('BEGIN');
  try {
    const { rows } = await client.query<{ id: number }>(
      "INSERT INTO import_runs (started_at, state, request) VALUES ($1, 'running', $2) RETURNING id",
      [new Date().toISOString(), JSON.stringify(request)],
    );
    const id = (rows[0] as { id: number }).id;
    if (inputs.length > 0)
      await client.query(
        'INSERT INTO import_inputs (run_id, position, name) SELECT $1, p - 1, n FROM unnest($2::text[]) WITH ORDINALITY AS i(n, p)',
        [id, inputs],
      );
    await client.query('COMMIT');
    return id;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Records how far an input is committed; call inside the transaction that wrote the records. */
export async function checkpointImport(
  client: Queryable,
  run: number,
  position: number,
  line: number,
  done: boolean,
): Promise<void> {
  await client.query('UPDATE import_inputs SET line = $1, done = $2 WHERE run_id = $3 AND position = $4', [
    line,
    done,
    run,
    position,
  ]);
}

export async function endImport(
  client: Queryable,
  run: number,
  state: Exclude<ImportRunState, 'running'>,
): Promise<void> {
  await client.query('UPDATE import_runs SET state = $1, finished_at = $2 WHERE id = $3', [
    state,
    new Date().toISOString(),
    run,
  ]);
}

/**
 * Every run that did not end (killed, or still at work elsewhere), oldest first; none when
 * the database has no journal yet (never migrated). A later run that ended hides nothing.
 */
export async function unfinishedPgImports(client: Queryable): Promise<ImportRun[]> {
  const exists = await client.query<{ ok: boolean }>("SELECT to_regclass('import_runs') IS NOT NULL AS ok");
  if (exists.rows[0]?.ok !== true) return [];
  const { rows } = await client.query<{ id: string; started_at: string; state: ImportRunState; request: string }>(
    "SELECT id, started_at, state, request FROM import_runs WHERE state = 'running' ORDER BY id",
  );
  if (rows.length === 0) return [];
  const inputs = await client.query<{ run_id: string; position: number; name: string; line: string; done: boolean }>(
    'SELECT run_id, position, name, line, done FROM import_inputs WHERE run_id = ANY($1::bigint[]) ORDER BY run_id, position',
    [rows.map((r) => r.id)],
  );
  return rows.map((run) => ({
    id: Number(run.id),
    startedAt: run.started_at,
    state: run.state,
    request: JSON.parse(run.request) as unknown,
    inputs: inputs.rows
      .filter((i) => i.run_id === run.id)
      .map((i) => ({ position: i.position, name: i.name, line: Number(i.line), done: i.done })),
  }));
}

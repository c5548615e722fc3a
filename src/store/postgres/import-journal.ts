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
 * The last run when it did not finish; undefined when it ended, when nothing was imported,
 * or when the database has no journal yet (never migrated).
 */
export async function unfinishedPgImport(client: Queryable): Promise<ImportRun | undefined> {
  const exists = await client.query<{ ok: boolean }>("SELECT to_regclass('import_runs') IS NOT NULL AS ok");
  if (exists.rows[0]?.ok !== true) return undefined;
  const { rows } = await client.query<{ id: number; started_at: string; state: ImportRunState; request: string }>(
    'SELECT id, started_at, state, request FROM import_runs ORDER BY id DESC LIMIT 1',
  );
  const run = rows[0];
  if (run === undefined || run.state !== 'running') return undefined;
  const inputs = await client.query<{ position: number; name: string; line: number; done: boolean }>(
    'SELECT position, name, line, done FROM import_inputs WHERE run_id = $1 ORDER BY position',
    [run.id],
  );
  return {
    id: run.id,
    startedAt: run.started_at,
    state: run.state,
    request: JSON.parse(run.request) as unknown,
    inputs: inputs.rows.map((i) => ({ position: i.position, name: i.name, line: i.line, done: i.done })),
  };
}

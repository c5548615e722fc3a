/**
 * The query worker: opens the database read-only once, then executes plans (already parsed,
 * validated and lowered on the calling thread) and returns the shaped result as JSON text.
 * Serializing here keeps that work off the thread serving HTTP, and one string crosses the
 * thread boundary far more cheaply than the object graph of a 1000-record page would.
 */
import { workerData } from 'node:worker_threads';
import type { SearchPlan } from '../../../compile/plan.ts';
import { openReadOnly } from '../../../store/sqlite/open.ts';
import { setNativeCallGuard } from '../../../store/sqlite/packed-text.ts';
import type { ConnectionTuning } from '../../../store/sqlite/pragmas.ts';
import { SqliteQueryContext } from './query-context.ts';
import { poolTask } from '../../pool-task.ts';
import { taskNativeGuard } from '../../stop-handshake.ts';
import { replyOf, type WorkerReply } from '../../worker-reply.ts';

export interface SqliteWorkerData {
  readonly dbPath: string;
  /** This worker's share of the engine's memory budget. */
  readonly tuning?: ConnectionTuning;
  /** This worker's share of the in-memory link facet columns, in MiB (0: facets in SQL; default the context's). */
  readonly facetColumnsMb?: number;
}

export type SqliteTask = { readonly kind: 'execute'; readonly plan: SearchPlan } | { readonly kind: 'ping' };

// This thread may be terminated mid-query: never inside zlib (engine/stop-handshake.ts).
setNativeCallGuard(taskNativeGuard);

let context: SqliteQueryContext | undefined;

function contextOf(): SqliteQueryContext {
  const data = workerData as SqliteWorkerData;
  context ??= new SqliteQueryContext(openReadOnly(data.dbPath, data.tuning), {
    ...(data.facetColumnsMb === undefined
      ? {}
      : { columnar: data.facetColumnsMb > 0 && { budgetBytes: data.facetColumnsMb * 2 ** 20 } }),
  });
  return context;
}

/** Replies with JSON text: the query's result, or `{"ok":true}` to a ping. */
function handle(task: SqliteTask): WorkerReply<string> {
  return replyOf(() => {
    const ctx = contextOf();
    if (task.kind === 'ping') return JSON.stringify({ ok: ctx.db.prepare('SELECT 1 AS one').get() !== undefined });
    return JSON.stringify(ctx.execute(task.plan));
  });
}

export default poolTask(handle);

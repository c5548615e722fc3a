/**
 * The query worker: opens the database read-only once, then executes plans (already parsed,
 * validated and lowered on the calling thread) and returns the shaped result.
 */
import { workerData } from 'node:worker_threads';
import type { SearchPlan } from '../compile/plan.ts';
import { openReadOnly } from '../store/sqlite/open.ts';
import { SqliteQueryContext } from './run-query.ts';
import type { QueryResult } from './types.ts';
import { replyOf, type WorkerReply } from './worker-reply.ts';

export interface SqliteWorkerData {
  readonly dbPath: string;
}

export type SqliteTask = { readonly kind: 'execute'; readonly plan: SearchPlan } | { readonly kind: 'ping' };

let context: SqliteQueryContext | undefined;

function contextOf(): SqliteQueryContext {
  context ??= new SqliteQueryContext(openReadOnly((workerData as SqliteWorkerData).dbPath));
  return context;
}

export default function handle(task: SqliteTask): WorkerReply<QueryResult> {
  return replyOf(() => {
    const ctx = contextOf();
    if (task.kind === 'ping') return { ok: ctx.db.prepare('SELECT 1 AS one').get() !== undefined };
    return ctx.execute(task.plan);
  });
}

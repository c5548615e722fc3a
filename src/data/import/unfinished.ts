/**
 * Imports that did not finish: every one stays in the journal as `running` until it is
 * resumed (`importFiles({ resume })`) or given up here (`discardUnfinished()`), and a new
 * import is refused beside one unless asked for (`keepUnfinished`). A later import that ends
 * must not hide an earlier one: the records that one left half-written (without their links,
 * its derived data not rebuilt) are still in the database.
 *
 * @example
 *   await discardUnfinished({ open: recordWriterFor('/tmp/q.db') }); // the one unfinished run, now `discarded`
 */
import { QuarryError } from '../../errors/index.ts';
import {
  describeUnfinished,
  type FinishStepListener,
  type ImportRun,
  type RecordTarget,
} from '../../store/record-writer.ts';

/**
 * The unfinished run to resume or discard: the one numbered `which`, or the only one when
 * `which` is undefined. A coded error when there is none, when `which` is not among them,
 * or when there are several and `which` does not say.
 */
export async function pickUnfinished(
  target: RecordTarget,
  which: number | undefined,
  action: 'resume' | 'discard',
): Promise<ImportRun> {
  const runs = await target.unfinished();
  if (runs.length === 0)
    throw QuarryError.of(action === 'resume' ? 'DATA_NOTHING_TO_RESUME' : 'DATA_NOTHING_TO_DISCARD', {
      params: { db: target.name },
    });
  if (which !== undefined) {
    const run = runs.find((r) => r.id === which);
    if (run === undefined)
      throw QuarryError.of('DATA_UNFINISHED_IMPORT_UNKNOWN', {
        params: { id: which, db: target.name, detail: describeUnfinished(runs) },
      });
    return run;
  }
  const [only, ...others] = runs;
  if (only === undefined || others.length > 0)
    throw QuarryError.of('DATA_UNFINISHED_IMPORT_AMBIGUOUS', {
      params: { count: runs.length, db: target.name, detail: describeUnfinished(runs) },
    });
  return only;
}

/** Refuses a new import into a database where an earlier one did not finish. */
export async function refuseBesideUnfinished(target: RecordTarget): Promise<void> {
  const runs = await target.unfinished();
  if (runs.length > 0)
    throw QuarryError.of('DATA_UNFINISHED_IMPORT_PENDING', {
      params: { db: target.name, detail: describeUnfinished(runs) },
    });
}

export interface DiscardOptions {
  /** The database, from the composition root (`recordWriterFor()` in src/backends.ts). */
  readonly open: RecordTarget;
  /** The run to give up; may be left out when only one did not finish. */
  readonly run?: number;
  /** Told each step of the finish as it ends, with its wall time. */
  readonly onFinishStep?: FinishStepListener;
}

/**
 * Gives up an unfinished import: the records it committed stay, the database's derived data
 * and indexes are brought up to date over them (as after an import stopped by an error;
 * a bulk load's dropped indexes come back), and the run ends as `discarded`, so the service
 * accepts the database again. Answers the run as it was.
 */
export async function discardUnfinished(options: DiscardOptions): Promise<ImportRun> {
  const target = options.open;
  const run = await pickUnfinished(target, options.run, 'discard');
  const request = run.request as { readonly finish?: boolean; readonly batchSize?: number };
  const store = await target.open({ bulk: false, batchSize: request.batchSize ?? 5000 });
  try {
    if (request.finish !== false) await store.finish(options.onFinishStep);
    await store.end(run.id, 'discarded');
  } finally {
    await store.close();
  }
  return run;
}

/**
 * Where imported records go, whatever the database: the importer (`src/data/import/`) writes
 * through these interfaces and the composition root (`recordWriterFor()` in src/backends.ts)
 * picks the implementation, SQLite (store/sqlite/record-writer.ts) or PostgreSQL
 * (store/postgres/record-writer.ts).
 *
 * Every batch of records and its import-journal checkpoint commit in one transaction, so
 * after a crash the checkpoint names exactly what is in the database and `--resume` goes on
 * from there.
 */
import type { NativeKind, NativeRecord } from '../model/native-records.ts';
import type { PreparedRecord, RowPreparation } from './row-preparation.ts';

/**
 * How a run ended: `running` (not ended: its process died or is still at work), `done`,
 * `stopped` by an error, or `discarded`: given up unfinished (`quarry import
 * --discard-unfinished`), its committed records kept.
 */
export type ImportRunState = 'running' | 'done' | 'stopped' | 'discarded';

/** One input's checkpoint: records of lines up to `line` are committed; `done` when the input is complete. */
export interface InputCheckpoint {
  readonly position: number;
  readonly name: string;
  /** How far the input is committed: its lines, or for a dump read as documents (a record source), its records. */
  readonly line: number;
  readonly done: boolean;
}

export interface ImportRun {
  readonly id: number;
  readonly startedAt: string;
  readonly state: ImportRunState;
  /** What was asked, as the importer stored it (paths and options). */
  readonly request: unknown;
  readonly inputs: readonly InputCheckpoint[];
}

/**
 * One batch: records to insert or replace, per kind, and ids to remove (merged-away OpenAlex
 * ids). `Row` is a record as the writer's preparation left it (store/row-preparation.ts).
 */
export interface RecordBatch<Row = NativeRecord> {
  readonly upserts: ReadonlyMap<NativeKind, readonly Row[]>;
  readonly removals: readonly { readonly kind: NativeKind; readonly id: string }[];
}

/** How far input `position` of a run is committed. */
export interface BatchCheckpoint {
  readonly position: number;
  readonly line: number;
  readonly done: boolean;
}

/**
 * An open writer. A SQLite writer answers at once; a networked one answers with Promises,
 * which the importer awaits (one batch at a time, so reading never runs far ahead of writing).
 */
export interface RecordWriter<Row = NativeRecord> {
  /** Starts a journal run over the inputs (in import order); its id. */
  begin(request: unknown, inputs: readonly string[]): number | Promise<number>;
  /**
   * Writes the batch (upserts, then removals) and the run's checkpoint in one transaction:
   * all or none. Answers the number of records removed, per kind.
   */
  commit(
    run: number,
    batch: RecordBatch<Row>,
    checkpoint: BatchCheckpoint,
  ): Partial<Record<NativeKind, number>> | Promise<Partial<Record<NativeKind, number>>>;
  end(run: number, state: Exclude<ImportRunState, 'running'>): void | Promise<void>;
  /** Derived data, indexes and statistics once everything is written; `onStep` hears each step's time. */
  finish(onStep?: FinishStepListener): void | Promise<void>;
  close(): void | Promise<void>;
}

/** Told each step of `finish()` as it ends, with its wall time. */
export type FinishStepListener = (step: string, ms: number) => void;

/** A record database to import into, before it is opened. */
export interface RecordTarget<P extends RowPreparation = RowPreparation> {
  /** How the importer prepares records for this database's writer, in its reading thread. */
  readonly preparation: P;
  /** The database as messages name it: a file path, or a URL with its password hidden. */
  readonly name: string;
  /**
   * Every import run that did not end (killed, or still at work in another process), oldest
   * first; none for a new database. A later run that ended does not hide an earlier one.
   */
  unfinished(): Promise<readonly ImportRun[]>;
  /** True when the database does not exist or holds no records yet: it then loads in bulk. */
  isNew(): Promise<boolean>;
  /**
   * Opens the writer. `bulk` drops the secondary indexes and rebuilds them in `finish()`;
   * `batchSize` is the number of records the importer hands over per batch.
   */
  open(options: { readonly batchSize: number; readonly bulk: boolean }): Promise<RecordWriter<PreparedRecord<P>>>;
}

/**
 * One line saying how far each unfinished run got, for errors and /readyz.
 *
 * @example describeUnfinished([run]) // 'import 2 started 2025-05-01T10:00:00.000Z did not finish (0 of 1 inputs complete, a.jsonl committed to line or record 300)'
 */
export function describeUnfinished(runs: readonly ImportRun[]): string {
  return runs.map(describeRun).join('; and ');
}

function describeRun(run: ImportRun): string {
  const done = run.inputs.filter((i) => i.done).length;
  const current = run.inputs.find((i) => !i.done);
  return `import ${run.id} started ${run.startedAt} did not finish (${done} of ${run.inputs.length} inputs complete${
    current === undefined ? '' : `, ${current.name} committed to line or record ${current.line}`
  })`;
}

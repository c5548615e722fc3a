/**
 * What both kinds of reader (line readers and record sources, read-inputs.ts and
 * read-record-source.ts) hand the writer through: records prepared for the database, gathered
 * into batches that go out with the checkpoint of the input they reach, problems, and the stop
 * that ends the reading.
 */
import type { QuarryError } from '../../errors/index.ts';
import type { NativeKind, NativeRecord } from '../../model/native-records.ts';
import type { Mapped } from './formats/common.ts';
import type { ImportInput } from './inputs.ts';
import type { ImportLimits } from './limits.ts';
import type { BatchEvent, ImportProblem, OnError, ReadSink } from './read-inputs.ts';

/** What one source record becomes: its records ready for the writer, or why it cannot be used. */
export type MappedSource<Row> =
  | {
      readonly rows: readonly (readonly [NativeKind, Row])[];
      readonly removals: readonly { readonly kind: NativeKind; readonly id: string }[];
    }
  /** The format reader refused it (MalformedRecord). */
  | { readonly malformed: string }
  /** It mapped, but a record of it cannot be placed (no id). */
  | { readonly unprepared: string };

/** Prepares mapped records for the writer. */
export function prepareMapped<Row>(
  mapped: readonly Mapped[],
  prepare: (kind: NativeKind, record: NativeRecord) => Row,
): MappedSource<Row> {
  const rows: [NativeKind, Row][] = [];
  const removals: { kind: NativeKind; id: string }[] = [];
  for (const m of mapped) {
    if ('remove' in m) {
      removals.push({ kind: m.kind, id: m.remove });
      continue;
    }
    try {
      rows.push([m.kind, prepare(m.kind, m.record)]);
    } catch (err) {
      return { unprepared: (err as Error).message };
    }
  }
  return { rows, removals };
}

/** True for the error a gzip stream raises when its data ends early. */
export function isTruncation(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'Z_BUF_ERROR' || code === 'Z_DATA_ERROR' || /unexpected end of file/i.test(String(err));
}

/** Thrown (and caught by `readInputs`) once a `stop` event has been sent: the reading ends there. */
export class Stopped extends Error {}

/** The records read and not yet handed on, across inputs, and the events that hand them on. */
export class ReadBatches<Row> {
  private pending = new Map<NativeKind, Row[]>();
  private removals: { kind: NativeKind; id: string }[] = [];
  private pendingCount = 0;
  /** Records added so far, all inputs: those committed, or about to be, when the reading stops. */
  total = 0;

  constructor(
    private readonly sink: ReadSink<Row>,
    private readonly batchSize: number,
  ) {}

  /** Adds a source record's prepared records (false, adding nothing, when they could not be prepared). */
  add(result: MappedSource<Row>): boolean {
    if (!('rows' in result)) return false;
    for (const removal of result.removals) {
      this.removals.push(removal);
      this.pendingCount++;
    }
    for (const [kind, row] of result.rows) {
      let batch = this.pending.get(kind);
      if (batch === undefined) {
        batch = [];
        this.pending.set(kind, batch);
      }
      batch.push(row);
      this.pendingCount++;
      this.total++;
    }
    return true;
  }

  /** True when a batch's worth of records and removals is pending. */
  get full(): boolean {
    return this.pendingCount >= this.batchSize;
  }

  /** Hands on every pending record and removal with input `position`'s checkpoint. */
  async flush(position: number, line: number, done: boolean): Promise<void> {
    const batch: BatchEvent<Row> = {
      type: 'batch',
      upserts: this.pending,
      removals: this.removals,
      position,
      line,
      done,
    };
    this.pending = new Map();
    this.removals = [];
    this.pendingCount = 0;
    await this.sink(batch);
  }

  /** Ends the reading with `problem` (after the batches before it): throws `Stopped`. */
  async stop(problem: QuarryError): Promise<never> {
    await this.sink({ type: 'stop', problems: problem.problems });
    throw new Stopped();
  }

  async note(problem: ImportProblem): Promise<void> {
    await this.sink({ type: 'problem', problem });
  }
}

/** One input's reading: what both kinds of reader are given. */
export interface InputReading<Row> {
  readonly input: ImportInput;
  /** Its place in the plan: whose checkpoint each batch carries. */
  readonly position: number;
  /** How far a resumed run had committed it: its checkpoint's `line` (0 in a new run). */
  readonly resumeAt: number;
  readonly onError: OnError;
  readonly limits: ImportLimits;
  readonly batches: ReadBatches<Row>;
  readonly prepare: (kind: NativeKind, record: NativeRecord) => Row;
  /** Receives the bytes of the input read from disk so far (progress). */
  readonly onBytes: (bytes: number) => void;
  /** Where the reading is, for a failure it did not expect. */
  readonly where: { file: string; line: number };
}

/** What reading one input gave, for its report: source records read and skipped. */
export interface InputCounts {
  readonly records: number;
  readonly skipped: number;
}

/**
 * A helper of the import's reading thread (read-worker.ts starts them through a Piscina
 * pool): maps and prepares a share of the source records of a pure format reader, so that
 * per-record work (JSON parsing, rows, packing text) runs on more than one core. Answers one
 * outcome per source record, in order.
 */
import type { ImportInput } from './inputs.ts';
import type { LineFormat } from './format-names.ts';
import type { MappedSource } from './read-batches.ts';
import { mapAndPrepare, readerFor } from './read-inputs.ts';
import { ROW_PREPARATIONS, type RowPreparation } from '../../store/row-preparation.ts';
import type { NativeKind } from '../../model/native-records.ts';
import type { NativeRecord } from '../../model/native-records.ts';

export interface PrepareTask {
  readonly format: LineFormat;
  readonly input: ImportInput;
  readonly preparation: RowPreparation;
  readonly sources: readonly string[];
}

export default function prepareShare(task: PrepareTask): MappedSource<unknown>[] {
  const reader = readerFor(task.format, task.input, new Map());
  const prepare = ROW_PREPARATIONS[task.preparation] as (kind: NativeKind, record: NativeRecord) => unknown;
  return task.sources.map((source) => mapAndPrepare(reader, source, prepare));
}

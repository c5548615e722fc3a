/**
 * The importer's writer over a SQLite record database: each batch's upserts, removals and
 * import-journal checkpoint in one transaction (store/record-writer.ts). Its records come
 * as rows prepared by `prepareSqliteRows` in the importer's reading thread.
 *
 * @example
 *   const writer = openSqliteRecordWriter('/tmp/q.db', { bulk: true, batchSize: 5000 });
 *   const run = writer.begin({ paths }, ['a.jsonl']);
 */
import type { NativeKind } from '../../model/native-records.ts';
import type { RecordWriter } from '../record-writer.ts';
import type { SqliteRows } from './prepare-rows.ts';
import { importJournal } from './import-journal.ts';
import { openRecordStore } from './records-store.ts';

export function openSqliteRecordWriter(
  dbPath: string,
  options: { readonly bulk: boolean; readonly batchSize: number },
): RecordWriter<SqliteRows> {
  // No memory map: a writer gains little from one (its reads are the pages it is about to
  // change), and every page of the file it touched would count in the import's resident
  // memory, up to the whole file (a 1M import peaked near 3 GiB with the default map).
  const store = openRecordStore(dbPath, { ...options, mmapMb: 0 });
  const journal = importJournal(store.db);
  return {
    begin: (request, inputs) => journal.begin(request, inputs),
    commit(run, batch, checkpoint) {
      const removed: Partial<Record<NativeKind, number>> = {};
      store.transaction(() => {
        for (const [kind, rows] of batch.upserts) if (rows.length > 0) store.upsertRows(kind, rows);
        for (const { kind, id } of batch.removals) removed[kind] = (removed[kind] ?? 0) + store.remove(kind, [id]);
        journal.checkpoint(run, checkpoint.position, checkpoint.line, checkpoint.done);
      });
      return removed;
    },
    end: (run, state) => journal.end(run, state),
    finish: (onStep) => void store.finish(onStep === undefined ? {} : { onStep }),
    close: () => store.close(),
  };
}

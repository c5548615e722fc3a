/**
 * Reads one input of a source folder's format through its record source (record-source.ts):
 * the items come mapped, each with its place; this prepares their records for the writer,
 * batches them with the input's checkpoint, and reports or stops at a record that cannot be
 * used (at `file:line`, `archive!entry:line` or a table's file and line) and at an input, or a
 * part of it, refused whole, as the line readers do.
 *
 * The checkpoint of such an input counts its items: `n` means the first `n` items are
 * committed (or were reported), so a resumed run reads the input again from its start and
 * passes over that many before it writes.
 */
import { QuarryError } from '../../errors/index.ts';
import { InputRefused, LimitExceeded } from './limits.ts';
import { isTruncation, prepareMapped, Stopped, type InputCounts, type InputReading } from './read-batches.ts';
import { SOURCE_READERS, type SourceFormatName } from './source-formats.ts';

/** Reads one input of a record source into the batches; returns its records read and skipped. */
export async function readSourceInput<Row>(reading: InputReading<Row>, format: SourceFormatName): Promise<InputCounts> {
  const { input, position, resumeAt, onError, limits, batches, prepare, onBytes, where } = reading;
  const reader = SOURCE_READERS[format];
  let records = 0;
  let skipped = 0;
  /** Items read so far. */
  let read = 0;
  /** Items handled (added to a batch, or reported) so far: the checkpoint a batch carries. */
  let handled = resumeAt;
  /** A whole input, or part of one, refused: stops the import (every earlier record committed) or is noted. */
  const refuse = async (problem: QuarryError, file: string, line: number): Promise<void> => {
    if (onError === 'abort') {
      await batches.flush(position, handled, false);
      await batches.stop(problem);
    }
    await batches.note({ file, line, message: problem.message, code: problem.code });
  };
  const fail = async (file: string, line: number, message: string): Promise<void> => {
    if (onError === 'abort') {
      await batches.flush(position, handled, false);
      await batches.stop(
        QuarryError.of('DATA_IMPORT_ABORTED', {
          params: { file, line, reason: message, committed: batches.total },
        }),
      );
    }
    skipped++;
    await batches.note({ file, line, message });
  };
  try {
    for await (const item of reader.read(input, limits, onBytes)) {
      read++;
      where.file = item.where ?? input.name;
      where.line = item.line;
      if (read <= resumeAt) {
        if ('mapped' in item) records++;
        continue;
      }
      if ('refused' in item) await refuse(item.refused, where.file, item.line);
      else if ('malformed' in item) await fail(where.file, item.line, item.malformed);
      else {
        const result = prepareMapped(item.mapped, prepare);
        // A record the writer cannot place (no id): as malformed as one that does not parse.
        if ('unprepared' in result) await fail(where.file, item.line, result.unprepared);
        else {
          batches.add(result);
          records++;
        }
      }
      handled = read;
      if (batches.full) await batches.flush(position, handled, false);
    }
  } catch (caught) {
    if (caught instanceof Stopped) throw caught;
    // The reader names the file and line past a limit; what it did not name is placed where it was.
    const err = caught instanceof LimitExceeded ? caught.at(where.file, where.line + 1) : caught;
    let refusal: QuarryError;
    let file = where.file;
    let line = Math.max(1, where.line);
    if (err instanceof InputRefused) {
      refusal = err;
      file = err.file ?? file;
      line = err.line;
    } else if (!(err instanceof QuarryError) && isTruncation(err)) {
      refusal = QuarryError.of('DATA_FILE_TRUNCATED', {
        params: { file: where.file, line, reason: (err as Error).message, committed: batches.total },
      });
    } else throw err;
    // Everything read before the break is kept: committed now, before the report or the stop.
    await batches.flush(position, handled, false);
    await refuse(refusal, file, line);
  }
  // Nothing to read at all (detection refuses an empty file up front, but not under --format).
  if (read === 0 && input.size === 0)
    await refuse(QuarryError.of('DATA_FILE_EMPTY', { params: { file: input.name } }), input.name, 1);
  await batches.flush(position, handled, true);
  return { records, skipped };
}

/**
 * Reads ClinicalTrials.gov files in each shape the registry publishes, one study at a time,
 * and maps each to a trial (`import-ctgov.ts`):
 * - the bulk download `ctg-studies.json.zip` (`/api/v2/studies/download?format=json.zip`):
 *   one JSON file per study, `NCT02252835.json`, in folders by the NCT number's last two
 *   digits (`35/NCT02252835.json`; about 600,000 entries, 10 GB unpacked). It is read in
 *   one pass over the archive: opening it once per entry, as the import reads the few
 *   entries of other zips, would scan the central directory 600,000 times;
 * - the API's pages, `{"studies": [...], "nextPageToken": "..."}`, one per file or one per
 *   line (the API answers on one line);
 * - the website's download `ctg-studies.json`, an array of studies (pretty-printed or not);
 * - JSON Lines of studies (or of pages).
 * A study that cannot be used is reported where it is and the others go on; a file past the
 * import's limits is refused, as every import input is.
 */
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { MalformedRecord } from '../../data/import/formats/common.ts';
import { fileInput, type ImportInput } from '../../data/import/inputs.ts';
import type { RecordSourceReader } from '../../data/import/record-source.ts';
import { DEFAULT_IMPORT_LIMITS, LimitExceeded, limitParams, type ImportLimits } from '../../data/import/limits.ts';
import { jsonArrayElements, readLines, type NumberedLine } from '../../data/import/lines.ts';
import { unpackedTooFar } from '../../data/import/unpack-guard.ts';
import { QuarryError } from '../../errors/index.ts';
import { ctgovToTrial, parseJson, studiesOf } from './import-ctgov.ts';
import type { ClinicalTrialRecord } from './native.ts';

/** Where a study was read: the file (`archive.zip!entry` inside a zip), its line, its place in a page or list. */
export interface StudyPlace {
  readonly name: string;
  readonly line: number;
  /** The study's index in a page or list read as one document; absent for a document holding one study. */
  readonly index?: number;
}

/** One study read: its trial, or why it cannot be used. */
export type StudyRead =
  | { readonly place: StudyPlace; readonly record: ClinicalTrialRecord }
  | { readonly place: StudyPlace; readonly malformed: string };

/** One JSON document of a file (a line, an array element, a zip entry, the whole file) with where it starts. */
interface StudyDocument {
  readonly name: string;
  readonly line: number;
  readonly text: string;
  /** A document that is itself an element of a list (a study of `ctg-studies.json`): never a page. */
  readonly element?: true;
}

/** The trials of every study of a document, each study refused or mapped on its own. */
function* readDocument(doc: StudyDocument): Generator<StudyRead> {
  let value: unknown;
  let studies: unknown[];
  try {
    value = parseJson(doc.text);
    // A list element is one study, even when it is something else (then refused as no study).
    studies = doc.element === true ? [value] : studiesOf(value);
  } catch (err) {
    if (!(err instanceof MalformedRecord)) throw err;
    yield { place: { name: doc.name, line: doc.line }, malformed: err.message };
    return;
  }
  // Studies of a page or list are told apart by their index; a study alone needs none.
  const alone = studies.length === 1 && studies[0] === value;
  for (const [index, study] of studies.entries()) {
    const place: StudyPlace = alone ? { name: doc.name, line: doc.line } : { name: doc.name, line: doc.line, index };
    try {
      yield { place, record: ctgovToTrial(study) };
    } catch (err) {
      if (!(err instanceof MalformedRecord)) throw err;
      yield { place, malformed: err.message };
    }
  }
}

const isZip = (input: ImportInput): boolean => input.entry === undefined && /\.zip$/i.test(input.file);
const isJsonLines = (name: string): boolean => /\.jsonl(\.gz)?$/i.test(name);

/** A ClinicalTrials.gov study file of the bulk download: a JSON file, in a folder or not. */
const STUDY_ENTRY = /(?:^|\/)[^/]+\.json$/i;

/** A line holding one whole JSON value (a study or a page the API wrote on one line). */
function wholeValue(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The JSON documents of a file that is not a zip: the elements of an array (the website's
 * download), the lines of JSON Lines (`.jsonl`, or a `.json` file whose first line is a
 * whole value: a page as the API writes it), or else the whole file as one document (a
 * pretty-printed page or study), held up to the line limit.
 */
async function* fileDocuments(
  input: ImportInput,
  limits: ImportLimits,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<StudyDocument> {
  const lines = readLines(input, onBytes, limits);
  try {
    // The first line tells the shape; it is read by hand, since leaving a `for await` would close the lines.
    let next = await lines.next();
    while (next.done !== true && next.value.text.trim() === '') next = await lines.next();
    if (next.done === true) return;
    const start = next.value;
    const rest = async function* (): AsyncGenerator<NumberedLine> {
      yield start;
      yield* lines;
    };
    yield* documentsFrom(input, limits, start, rest());
  } finally {
    await lines.return(undefined);
  }
}

/** The documents of `lines` (starting with `start`, the first non-blank line), by the shape it shows. */
async function* documentsFrom(
  input: ImportInput,
  limits: ImportLimits,
  start: NumberedLine,
  lines: AsyncGenerator<NumberedLine>,
): AsyncGenerator<StudyDocument> {
  const head = start.text.trim();
  if (head.startsWith('[') && !wholeValue(head)) {
    for await (const { text, line } of jsonArrayElements(lines, limits.maxLineBytes))
      yield { name: input.name, line, text, element: true };
    return;
  }
  if (isJsonLines(input.entry ?? input.file) || wholeValue(head)) {
    for await (const { text, line } of lines) if (text.trim() !== '') yield { name: input.name, line, text };
    return;
  }
  let text = '';
  for await (const l of lines) {
    text += `${l.text}\n`;
    if (text.length > limits.maxLineBytes)
      throw new LimitExceeded('DATA_LINE_TOO_LONG', limitParams('maxLineBytes', limits.maxLineBytes), start.line).at(
        input.name,
        l.line,
      );
  }
  yield { name: input.name, line: start.line, text };
}

const unreadable = (file: string, err: unknown): QuarryError =>
  QuarryError.of(
    'DATA_ZIP_UNREADABLE',
    { params: { file, reason: err instanceof Error ? err.message : String(err) } },
    { cause: err },
  );

/** The bytes of one zip entry as text, refused past `maxBytes` (one study is one record). */
async function entryText(stream: Readable, maxBytes: number, tooLong: () => Error): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > maxBytes) throw tooLong();
      chunks.push(chunk);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The JSON entries of a zip archive, in archive order, in one pass: each entry is one
 * document (a study; a page where a tool wrote pages). An entry is refused past the line
 * limit (it is one record), the archive past the decompression limits, judged on the
 * entries read so far.
 */
async function* zipDocuments(
  input: ImportInput,
  limits: ImportLimits,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<StudyDocument> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(input.file, { lazyEntries: true, autoClose: false });
  } catch (err) {
    throw unreadable(input.file, err);
  }
  let packed = 0;
  let unpacked = 0;
  let read = 0;
  const skipped: string[] = [];
  try {
    const entries = zip.eachEntry();
    for (;;) {
      let next: IteratorResult<yauzl.Entry>;
      try {
        next = await entries.next();
      } catch (err) {
        throw unreadable(input.file, err);
      }
      if (next.done === true) break;
      const entry = next.value;
      const name = `${input.file}!${entry.fileName}`;
      if (entry.fileName.endsWith('/')) continue;
      if (!STUDY_ENTRY.test(entry.fileName)) {
        if (skipped.length < 10) skipped.push(entry.fileName);
        continue;
      }
      const tooLong = (): LimitExceeded =>
        new LimitExceeded('DATA_LINE_TOO_LONG', limitParams('maxLineBytes', limits.maxLineBytes), 1);
      if (entry.uncompressedSize > limits.maxLineBytes) throw tooLong().at(name, 1);
      let stream: Readable;
      try {
        stream = await zip.openReadStreamPromise(entry);
      } catch (err) {
        throw unreadable(input.file, err);
      }
      let text: string;
      try {
        text = await entryText(stream, limits.maxLineBytes, tooLong);
      } catch (err) {
        if (err instanceof LimitExceeded) throw err.at(name, 1);
        throw unreadable(input.file, err);
      }
      packed += entry.compressedSize;
      unpacked += Buffer.byteLength(text);
      onBytes?.(packed);
      const past = unpackedTooFar(unpacked, packed, limits);
      if (past !== undefined) throw past.at(name, 1);
      read++;
      yield { name, line: 1, text };
    }
  } finally {
    zip.close();
  }
  if (read === 0)
    throw QuarryError.of('DATA_ZIP_NOTHING_READABLE', {
      params: { file: input.file, entries: skipped.join(', ') || 'none' },
    });
}

/**
 * Every study of a ClinicalTrials.gov file (any published shape, plain, gzip or zip) as a
 * trial or a refusal, with where it is. Limits and unreadable archives fail with the
 * import's coded errors (`InputRefused`, DATA_ZIP_UNREADABLE, DATA_ZIP_NOTHING_READABLE).
 *
 * @example
 *   for await (const s of readCtgovStudies('ctg-studies.json.zip'))
 *     if ('record' in s) write(s.record); else report(s.place, s.malformed);
 */
export async function* readCtgovStudies(
  target: string | ImportInput,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<StudyRead> {
  const input = typeof target === 'string' ? fileInput(target) : target;
  const documents = isZip(input) ? zipDocuments(input, limits, onBytes) : fileDocuments(input, limits, onBytes);
  for await (const doc of documents) yield* readDocument(doc);
}

/**
 * The import's reader of the `ctgov` format (`import-formats.ts`): an input is a file, a zip
 * entry, or the bulk zip whole. A study of a page that cannot be used is reported at the
 * page's line with its place in the page.
 */
export const ctgovRecordSource: RecordSourceReader = {
  async *read(input, limits, onBytes) {
    for await (const s of readCtgovStudies(input, limits, onBytes)) {
      const { name, line, index } = s.place;
      if ('record' in s) yield { where: name, line, mapped: [{ kind: 'clinical_trials', record: s.record }] };
      else
        yield {
          where: name,
          line,
          malformed: index === undefined ? s.malformed : `study ${index + 1} of the page: ${s.malformed}`,
        };
    }
  },
};

/**
 * How USPTO publishes its patent XML: weekly files that are many XML documents one after
 * another, each with its own `<?xml ...?>` declaration and DOCTYPE (so no XML parser reads
 * the file whole), zipped with a list and a report (`ipgb20221025_wk43.zip`:
 * `ipgb20221025.xml`, `ipgb20221025lst.txt`, `ipgb20221025rpt.html`). This reads such a
 * zip's `.xml` entries, or a plain `.xml` file, line by line and hands on one document at a
 * time: memory holds one document, never the week (a grant full-text week is about 1 GB).
 */
import { fileInput, zipEntries, type ImportInput } from '../../data/import/inputs.ts';
import { readLines, recordTooLong, type NumberedLine } from '../../data/import/lines.ts';
import { DEFAULT_IMPORT_LIMITS, LimitExceeded, type ImportLimits } from '../../data/import/limits.ts';
import { MalformedRecord } from '../../data/import/formats/common.ts';
import type { RecordSourceReader } from '../../data/import/record-source.ts';
import type { PatentRecord } from './native.ts';
import { mapUsptoDocument } from './uspto-xml.ts';

/** A document's text and the line its declaration is on (1-based, in its input). */
export interface UsptoDocument {
  readonly text: string;
  readonly line: number;
}

/**
 * Splits lines into documents at each line opening with an XML declaration (USPTO starts
 * every document on a new line). Text before the first declaration is a document too (a
 * single document saved without one). A document longer than `maxChars` is refused
 * (`LimitExceeded` at the line it starts on) before it is held whole.
 */
export async function* usptoDocuments(
  lines: AsyncIterable<NumberedLine>,
  maxChars: number = Number.POSITIVE_INFINITY,
): AsyncGenerator<UsptoDocument> {
  let parts: string[] = [];
  let held = 0;
  let start = 0;
  const flush = (): UsptoDocument | undefined => {
    const text = parts.join('\n');
    parts = [];
    held = 0;
    return text.trim() === '' ? undefined : { text, line: start };
  };
  for await (const { text, line } of lines) {
    if (/^\uFEFF?\s*<\?xml[\s?]/.test(text)) {
      const doc = flush();
      if (doc !== undefined) yield doc;
    }
    if (parts.length === 0) start = line;
    held += text.length + 1;
    if (held > maxChars) throw recordTooLong(maxChars, start);
    parts.push(text);
  }
  const doc = flush();
  if (doc !== undefined) yield doc;
}

/** The inputs of a path: the `.xml` entries of a zip (its list and report left out), or the file itself. */
export async function usptoInputs(path: string): Promise<ImportInput[]> {
  if (!/\.zip$/i.test(path)) return [fileInput(path)];
  return (await zipEntries(path))
    .filter((e) => /\.xml$/i.test(e.name))
    .map((e) => ({ name: `${path}!${e.name}`, file: path, entry: e.name, size: e.size, unpacked: e.unpacked }));
}

/** One document of an input: its patent, or why it was skipped. */
export type UsptoItem =
  | { readonly input: string; readonly line: number; readonly record: PatentRecord }
  | { readonly input: string; readonly line: number; readonly malformed: string };

/**
 * The patents of a USPTO XML file or weekly zip, one item per document in file order (a
 * document USPTO publishes twice in a week is two items with one id: the later one wins
 * where they are stored). Past `limits` it throws the import's coded `InputRefused`.
 */
export async function* readUsptoXml(
  path: string,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
): AsyncGenerator<UsptoItem> {
  for (const input of await usptoInputs(path)) yield* readUsptoInput(input, limits);
}

/** The documents of one input (an `.xml` file or zip entry) as patents; `onBytes` receives the bytes read from disk so far. */
export async function* readUsptoInput(
  input: ImportInput,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<UsptoItem> {
  const at = { line: 0 };
  const lines = (async function* () {
    for await (const l of readLines(input, onBytes, limits)) {
      at.line = l.line;
      yield l;
    }
  })();
  try {
    for await (const doc of usptoDocuments(lines, limits.maxLineBytes)) {
      try {
        yield { input: input.name, line: doc.line, record: mapUsptoDocument(doc.text) };
      } catch (err) {
        if (!(err instanceof MalformedRecord)) throw err;
        yield { input: input.name, line: doc.line, malformed: err.message };
      }
    }
  } catch (err) {
    if (err instanceof LimitExceeded) throw err.at(input.name, at.line);
    throw err;
  }
}

/** The import's reader of the `uspto` format (`import-formats.ts`): one input, an `.xml` file or zip entry. */
export const usptoRecordSource: RecordSourceReader = {
  async *read(input, limits, onBytes) {
    for await (const item of readUsptoInput(input, limits, onBytes))
      yield 'record' in item
        ? { line: item.line, mapped: [{ kind: 'patents', record: item.record }] }
        : { line: item.line, malformed: item.malformed };
  },
};

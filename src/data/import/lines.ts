/**
 * Reads an import input (a file, plain or gzip, or a zip entry) line by line with 1-based
 * line numbers, counting the bytes read from disk so callers can show progress. No line (nor
 * record spanning lines) is held past the import's limit: a file past a limit is refused at
 * the line it reached (`InputRefused`).
 */
import type { Readable } from 'node:stream';
import { fileInput, openInput, type ImportInput } from './inputs.ts';
import { DEFAULT_IMPORT_LIMITS, LimitExceeded, limitParams, type ImportLimits } from './limits.ts';

export interface NumberedLine {
  readonly text: string;
  readonly line: number;
}

const LF = 10;
const CR = 13;

/**
 * The lines of a byte stream, split as `readline` splits them (at `\n`, `\r\n` or a lone
 * `\r`) but on the bytes, each line decoded from UTF-8 once: readline decodes whole chunks
 * and splits the text with a regular expression, which cost an import about a tenth of its
 * reading time. A last line without a line break is a line too. A line longer than
 * `maxLineBytes` throws `LimitExceeded` as soon as its bytes pass the limit, never held whole.
 */
export async function* splitLines(
  stream: Readable,
  maxLineBytes: number = Number.POSITIVE_INFINITY,
): AsyncGenerator<string> {
  // Parts of the current line from earlier chunks (a line that spans chunks), and their bytes.
  let partial: Buffer[] = [];
  let partialBytes = 0;
  // The last chunk ended with CR: an LF opening the next chunk belongs to that break.
  let skipLf = false;
  const tooLong = (): LimitExceeded =>
    new LimitExceeded('DATA_LINE_TOO_LONG', limitParams('maxLineBytes', maxLineBytes));
  const take = (chunk: Buffer, start: number, end: number): string => {
    if (partialBytes + end - start > maxLineBytes) throw tooLong();
    if (partial.length === 0) return chunk.toString('utf8', start, end);
    const text = Buffer.concat([...partial, chunk.subarray(start, end)]).toString('utf8');
    partial = [];
    partialBytes = 0;
    return text;
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = skipLf && chunk[0] === LF ? 1 : 0;
    skipLf = false;
    let cr = chunk.indexOf(CR, start);
    while (start < chunk.length) {
      const lf = chunk.indexOf(LF, start);
      if (cr !== -1 && cr < start) cr = chunk.indexOf(CR, start);
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        yield take(chunk, start, cr);
        if (cr + 1 === chunk.length) {
          skipLf = true;
          start = chunk.length;
        } else start = chunk[cr + 1] === LF ? cr + 2 : cr + 1;
      } else if (lf !== -1) {
        yield take(chunk, start, lf);
        start = lf + 1;
      } else {
        partialBytes += chunk.length - start;
        if (partialBytes > maxLineBytes) throw tooLong();
        partial.push(chunk.subarray(start));
        break;
      }
    }
  }
  if (partial.length > 0) yield Buffer.concat(partial).toString('utf8');
}

/**
 * Lines of `input` (a path or an input); `onBytes` receives the bytes read from disk so far.
 * Past one of `limits` it throws `InputRefused` (a coded error) at the line it reached.
 */
export async function* readLines(
  input: string | ImportInput,
  onBytes?: (bytes: number) => void,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
): AsyncGenerator<NumberedLine> {
  const source = typeof input === 'string' ? fileInput(input) : input;
  let line = 0;
  let stream: Readable | undefined;
  try {
    stream = await openInput(source, onBytes, limits);
    for await (const text of splitLines(stream, limits.maxLineBytes)) {
      line++;
      yield { text, line };
    }
  } catch (err) {
    if (err instanceof LimitExceeded) throw err.at(source.name, line + 1);
    throw err;
  } finally {
    stream?.destroy();
  }
}

/**
 * Splits the object elements of a top-level JSON array held in lines, yielding each one's text
 * with the line it starts on (so a bad element is reported as file:line even in a
 * pretty-printed array). An element spanning lines that grows past `maxChars` throws
 * `LimitExceeded` at the line it starts on.
 */
export async function* jsonArrayElements(
  lines: AsyncIterable<NumberedLine>,
  maxChars: number = Number.POSITIVE_INFINITY,
): AsyncGenerator<NumberedLine> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let current = '';
  let startLine = 0;
  for await (const { text, line } of lines) {
    let from = -1;
    for (let k = 0; k < text.length; k++) {
      const c = text[k];
      if (inString) {
        if (escaped) escaped = false;
        else if (c === '\\') escaped = true;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') inString = true;
      else if (c === '{' || c === '[') {
        depth++;
        if (depth === 2 && current === '' && from < 0) {
          from = k;
          startLine = line;
        }
      } else if (c === '}' || c === ']') {
        depth--;
        if (depth === 1) {
          current += text.slice(from < 0 ? 0 : from, k + 1);
          if (current.length > maxChars) throw recordTooLong(maxChars, startLine);
          yield { text: current, line: startLine };
          current = '';
          from = -1;
        }
      }
    }
    if (depth >= 2) {
      current += (from < 0 ? text : text.slice(from)) + '\n';
      if (current.length > maxChars) throw recordTooLong(maxChars, startLine);
    }
  }
}

/** A record spanning lines, from `line` on, has grown past `maxChars`. */
export function recordTooLong(maxChars: number, line: number): LimitExceeded {
  return new LimitExceeded('DATA_LINE_TOO_LONG', limitParams('maxLineBytes', maxChars), line);
}

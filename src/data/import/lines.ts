/**
 * Reads an import input (a file, plain or gzip, or a zip entry) line by line with 1-based
 * line numbers, counting the bytes read from disk so callers can show progress.
 */
import { createInterface } from 'node:readline';
import { fileInput, openInput, type ImportInput } from './inputs.ts';

export interface NumberedLine {
  readonly text: string;
  readonly line: number;
}

/** Lines of `input` (a path or an input); `onBytes` receives the bytes read from disk so far. */
export async function* readLines(
  input: string | ImportInput,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<NumberedLine> {
  const stream = await openInput(typeof input === 'string' ? fileInput(input) : input, onBytes);
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const text of lines) {
      line++;
      yield { text, line };
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}

/**
 * Splits the object elements of a top-level JSON array held in lines, yielding each one's text
 * with the line it starts on (so a bad element is reported as file:line even in a
 * pretty-printed array).
 */
export async function* jsonArrayElements(lines: AsyncIterable<NumberedLine>): AsyncGenerator<NumberedLine> {
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
          yield { text: current, line: startLine };
          current = '';
          from = -1;
        }
      }
    }
    if (depth >= 2) current += (from < 0 ? text : text.slice(from)) + '\n';
  }
}

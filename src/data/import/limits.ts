/**
 * What an import reads at most: the longest line (or record spanning lines) it holds in
 * memory, and how far a compressed input (gzip, a zip entry) may unpack, in all and against
 * the bytes read from disk. A file past a limit is refused at file:line with a code, as a
 * file cut short is: without them a 2 MB gzip of zeros with no line break was held in memory
 * whole (3.5 GB at 2 GiB unpacked).
 */
import { problem, QuarryError, type ErrorParams } from '../../errors/index.ts';

export interface ImportLimits {
  /** The longest line, or record spanning lines (a pretty-printed JSON element, a quoted CSV field), in bytes. */
  readonly maxLineBytes: number;
  /** The most one compressed file or zip entry may unpack to, in bytes. */
  readonly maxDecompressedBytes: number;
  /** The most bytes unpacked per byte read from disk, judged once `RATIO_FLOOR_BYTES` are unpacked. */
  readonly maxCompressionRatio: number;
}

const MiB = 2 ** 20;
const GiB = 2 ** 30;

/**
 * Far above real data: the longest OpenAlex work lines are a few MiB; real gzip and zip of
 * JSON and CSV unpack to 2-15 times their size (the samples in test/fixtures/data 2-5); the
 * largest published files unpack to some GiB. Deflate's own limit is about 1032:1, which a
 * bomb of zeros reaches.
 */
export const DEFAULT_IMPORT_LIMITS: ImportLimits = {
  maxLineBytes: 64 * MiB,
  maxDecompressedBytes: 64 * GiB,
  maxCompressionRatio: 100,
};

/** Unpacked bytes before the ratio is judged: a small file may unpack far, and costs nothing. */
export const RATIO_FLOOR_BYTES = 16 * MiB;

/** The `quarry import` option that sets each limit, and the unit it is given in. */
export const LIMIT_OPTIONS = {
  maxLineBytes: { option: '--max-line-mb', unit: MiB },
  maxDecompressedBytes: { option: '--max-decompressed-gb', unit: GiB },
  maxCompressionRatio: { option: '--max-compression-ratio', unit: 1 },
} as const satisfies Record<keyof ImportLimits, { option: string; unit: number }>;

/** The limits asked for, each checked (a positive number), the others the defaults. */
export function importLimits(asked: Partial<ImportLimits> = {}): ImportLimits {
  const out = { ...DEFAULT_IMPORT_LIMITS };
  for (const key of Object.keys(LIMIT_OPTIONS) as (keyof ImportLimits)[]) {
    const value = asked[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      const { option, unit } = LIMIT_OPTIONS[key];
      throw QuarryError.of('DATA_BAD_LIMIT_OPTION', {
        params: { option, value: typeof value === 'number' ? value / unit : String(value) },
      });
    }
    out[key] = value;
  }
  return out;
}

/**
 * A limit given to `quarry import` as text, in the option's unit (`--max-line-mb 256`), in
 * bytes (or as a ratio); DATA_BAD_LIMIT_OPTION unless it is a positive number.
 */
export function parseLimitOption(key: keyof ImportLimits, text: string): number {
  const { option, unit } = LIMIT_OPTIONS[key];
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0)
    throw QuarryError.of('DATA_BAD_LIMIT_OPTION', { params: { option, value: text } });
  return value * unit;
}

/** A byte count for a person: `64 MiB`, `2.5 GiB`, `1.5 KiB`, `300 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes >= GiB) return `${+(bytes / GiB).toFixed(1)} GiB`;
  if (bytes >= MiB) return `${+(bytes / MiB).toFixed(1)} MiB`;
  if (bytes >= 2 ** 10) return `${+(bytes / 2 ** 10).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

export type LimitCode = 'DATA_LINE_TOO_LONG' | 'DATA_DECOMPRESSED_TOO_LARGE' | 'DATA_COMPRESSION_RATIO';

/** A file refused at `line` for passing a limit: the import stops there, or skips the rest of the file. */
export class InputRefused extends QuarryError {
  /** The file (`archive!entry`) refused, as its message names it. */
  readonly file: string | undefined;

  constructor(
    code: LimitCode,
    readonly line: number,
    params: ErrorParams,
  ) {
    super(problem(code, { params }));
    this.file = params['file'] === undefined ? undefined : String(params['file']);
  }
}

/**
 * Raised where the bytes pass a limit (the line splitter, the decompression guard, a record
 * spanning lines, with the line it starts on); the reader, which knows the file and the line
 * reached, turns it into an `InputRefused`.
 */
export class LimitExceeded extends Error {
  constructor(
    readonly code: LimitCode,
    readonly params: ErrorParams,
    readonly line?: number,
  ) {
    super(code);
  }

  /** The coded error for `file`, at the line of the record or else at `reached`. */
  at(file: string, reached: number): InputRefused {
    const line = this.line ?? reached;
    return new InputRefused(this.code, line, { ...this.params, file, line });
  }
}

/** The parameters every limit's message shows: the limit (`value`) and the option that raises it. */
export function limitParams(key: keyof ImportLimits, value: number): { limit: string; option: string } {
  const { option } = LIMIT_OPTIONS[key];
  return { limit: key === 'maxCompressionRatio' ? `${value}:1` : formatBytes(value), option };
}

/**
 * What `quarry query "QUERY"` does with a client: one query, or with `--all` every page,
 * written as it goes; with `--out` the export keeps a checkpoint so `--resume` continues an
 * interrupted one exactly. Without `--db` the client talks to a Quarry service (the stored
 * profile, `--url`/`--key`, or $QUARRY_URL/$QUARRY_KEY/$QUARRY_PROFILE); with `--db` it runs
 * queries on a local database (query.ts).
 */
import { writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { Option, type Command } from 'commander';
import { connect, type QuarryClient } from '../../client/client.ts';
import { QuarryClientError } from '../../client/errors.ts';
import { exportToFile, type ExportFormat } from '../../client/export.ts';
import { ROW_KINDS, type RowKind } from '../../client/flatten.ts';
import { columnsOf, csvLine, csvRows, jsonLines, OUTPUT_FORMATS, type OutputFormat } from '../../client/output.ts';
import { resultShape, withRows, type ResultShape } from '../../client/result-view.ts';
import { table } from '../../client/terminal-table.ts';
import { loadProfile } from '../../client/profiles.ts';
import { METADATA_KEYS, type QueryResult } from '../../client/records.ts';
import type { ClientEvent } from '../../client/transport.ts';

/** The flags that choose the service and the credentials (shared with `quarry shell`). */
export interface ConnectionFlags {
  readonly profile?: string;
  readonly url?: string;
  readonly key?: string;
  readonly family?: string;
  readonly dslVersion?: 1 | 2 | '1' | '2';
}

export interface RemoteQueryOptions extends ConnectionFlags {
  readonly format?: string;
  readonly all?: boolean;
  readonly out?: string;
  readonly resume?: boolean;
  readonly pageSize?: string;
  readonly maxRecords?: string;
  readonly progress?: boolean;
  readonly rows?: RowKind;
}

/** The options that choose the service; with `--db` they are refused, not ignored. */
export const SERVICE_OPTIONS = ['profile', 'url', 'key', 'family'] as const;

/** The options `quarry query` has for choosing the service and for its output. */
export function remoteQueryOptions(): Option[] {
  return [
    new Option(
      '--profile <name>',
      'the stored profile to use (default: $QUARRY_PROFILE, else the default profile of `quarry login`)',
    ),
    new Option('--url <url>', 'the service URL, instead of a profile (default $QUARRY_URL; with --key or $QUARRY_KEY)'),
    new Option('--key <key>', 'the API key with --url (prefer $QUARRY_KEY: arguments are visible to other users)'),
    new Option('--family <family>', 'the protocol family with --url').choices(['auth', 'token']),
    new Option(
      '--format <format>',
      'output format (default json; jsonl with --all); csv writes one file per result with --out',
    ).choices([...OUTPUT_FORMATS]),
    new Option('--all', 'page through every record (appends limit/skip; stops at total_count or the depth limit)'),
    new Option('--out <file>', 'write to a file (with --all: as it goes, with a checkpoint for --resume)'),
    new Option('--resume', 'continue an interrupted --all export into --out'),
    new Option('--page-size <n>', 'records per request with --all, 1-1000').default('1000'),
    new Option('--max-records <n>', 'stop --all after this many records'),
    new Option('--no-progress', 'no progress bar for --all'),
    new Option(
      '--rows <kind>',
      'one row per author, author affiliation, funder or investigator of each record, with its id (as data frames do)',
    ).choices([...ROW_KINDS]),
  ];
}

/** Adds the remote options to a command (used by `query.ts`). */
export function addRemoteQueryOptions(command: Command): Command {
  for (const option of remoteQueryOptions()) command.addOption(option);
  return command;
}

function invalid(option: string, reason: string): QuarryClientError {
  return QuarryClientError.client('CLIENT_OPTION_INVALID', { option, reason });
}

/** An environment variable's value; set but empty counts as unset. */
function env(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** The service a command talks to and how it was chosen, for people (`quarry shell`'s banner). */
export interface ChosenService {
  readonly url: string;
  readonly family: 'auth' | 'token';
  readonly dslVersion: 1 | 2;
  /** `--url`, `$QUARRY_URL` or `profile NAME`. */
  readonly chosenBy: string;
}

/**
 * A client from, first to last: `--url` (with `--key` or $QUARRY_KEY), `--profile`,
 * $QUARRY_URL (with `--key` or $QUARRY_KEY), $QUARRY_PROFILE, the default stored profile.
 * Flags win over the environment, and a URL over a profile at the same level.
 */
export function clientFromFlags(flags: ConnectionFlags, onEvent?: (event: ClientEvent) => void): QuarryClient {
  return chooseService(flags, onEvent).client;
}

/** The client `clientFromFlags` makes, with the service it chose. */
export function chooseService(
  flags: ConnectionFlags,
  onEvent?: (event: ClientEvent) => void,
): { readonly client: QuarryClient; readonly service: ChosenService } {
  const dslVersion: 1 | 2 = flags.dslVersion === 1 || flags.dslVersion === '1' ? 1 : 2;
  const options = { dslVersion, ...(onEvent ? { onEvent } : {}) } as const;
  const url = flags.url ?? (flags.profile === undefined ? env('QUARRY_URL') : undefined);
  if (url !== undefined) {
    const chosenBy = flags.url === undefined ? '$QUARRY_URL' : '--url';
    const key = flags.key ?? env('QUARRY_KEY');
    if (key === undefined)
      throw QuarryClientError.client('CLIENT_KEY_MISSING', {
        what: `API key (--key or $QUARRY_KEY) for ${chosenBy}`,
      });
    const family = flags.family === 'token' ? 'token' : 'auth';
    return { client: connect({ url, key }, { ...options, family }), service: { url, family, dslVersion, chosenBy } };
  }
  const profile = loadProfile(flags.profile ?? env('QUARRY_PROFILE'));
  const family = profile.family;
  const service = { url: profile.url, family, dslVersion, chosenBy: `profile ${profile.name}` };
  if (profile.key !== undefined)
    return { client: connect({ url: profile.url, key: profile.key }, { ...options, family }), service };
  return {
    client: connect(
      { url: profile.url, username: profile.username ?? '', password: profile.password ?? '' },
      { ...options, family },
    ),
    service,
  };
}

function wholeNumber(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw invalid(option, `${value} is not a whole number`);
  return Number(value);
}

/** The record lists of a result (every non-metadata array). */
function listsOf(result: QueryResult): Array<[string, readonly unknown[]]> {
  return Object.entries(result).filter(
    (e): e is [string, unknown[]] => !METADATA_KEYS.has(e[0]) && Array.isArray(e[1]),
  );
}

/** Records as one CSV table with a header of every column. */
function csvTable(records: readonly unknown[]): string {
  const columns = columnsOf(records);
  return columns.length === 0 ? '' : csvLine(columns) + csvRows(records, columns);
}

/** How a result is shown: its query's shape (leading columns) and the terminal's width. */
export interface ResultView {
  readonly shape?: ResultShape;
  readonly width?: number | undefined;
}

/**
 * One result in a format. Results without lists (describe) are shown as JSON. A CSV text
 * holds one table, so a result of several lists is refused as CSV (`writeResult` writes
 * such a result as one file per list).
 */
export function formatResult(result: QueryResult, format: OutputFormat, view: ResultView = {}): string {
  const lists = listsOf(result);
  if (format === 'json' || lists.length === 0) return `${JSON.stringify(result, null, 2)}\n`;
  if (format === 'jsonl') return lists.map(([, records]) => jsonLines(records)).join('');
  if (format === 'csv') {
    if (lists.length > 1)
      throw invalid(
        '--format csv',
        `the query returns ${lists.length} results (${lists.map(([key]) => key).join(', ')}) and CSV holds one table: ` +
          'add --out FILE.csv to write one file per result, or use --format json or jsonl',
      );
    return csvTable(lists[0]?.[1] ?? []);
  }
  const total = result._stats?.total_count;
  return lists
    .map(
      ([key, records], i) =>
        `${lists.length > 1 ? `${key}\n` : ''}${table(records, { leading: view.shape?.leading.get(key), width: view.width })}${i === 0 && typeof total === 'number' ? `(${records.length} shown, ${total} matching)\n` : ''}`,
    )
    .join('\n');
}

/**
 * The file for one result of several: `years.csv` and `funders` give `years.funders.csv`.
 *
 * @example fileForResult('out/result.csv', 'year') // 'out/result.year.csv'
 */
export function fileForResult(file: string, key: string): string {
  const ext = extname(file);
  return `${file.slice(0, file.length - ext.length)}.${key}${ext === '' ? '.csv' : ext}`;
}

/**
 * Prints a result, or writes it to `out`. As CSV, a result of several lists goes to one file
 * per list beside `out` (each named on stderr); on standard output it is refused.
 */
export function writeResult(
  result: QueryResult,
  format: OutputFormat,
  out: string | undefined,
  view: ResultView = {},
): void {
  const lists = listsOf(result);
  if (format === 'csv' && lists.length > 1 && out !== undefined) {
    for (const [key, records] of lists) {
      const file = fileForResult(out, key);
      writeFileSync(file, csvTable(records));
      process.stderr.write(`Wrote ${records.length} rows of ${key} to ${file}.\n`);
    }
    return;
  }
  const output = formatResult(result, format, view);
  if (out !== undefined) writeFileSync(out, output);
  else process.stdout.write(output);
}

/** A progress bar on stderr: records done / total, rate, ETA. */
async function progressBar(
  enabled: boolean,
): Promise<{ update(done: number, total: number | undefined): void; note(text: string): void; stop(): void }> {
  if (!enabled || !process.stderr.isTTY)
    return { update: () => undefined, note: () => undefined, stop: () => undefined };
  const { default: progress } = await import('cli-progress');
  const bar = new progress.SingleBar(
    {
      format: '  {bar} {value}/{total} records | {rate}/s | ETA {eta_formatted} {note}',
      hideCursor: true,
      stream: process.stderr,
      etaBuffer: 20,
    },
    progress.Presets.shades_classic,
  );
  const started = Date.now();
  let running = false;
  return {
    update(done, total) {
      const rate = Math.round(done / Math.max(0.001, (Date.now() - started) / 1000));
      if (!running) {
        bar.start(total ?? done, done, { rate, note: '' });
        running = true;
      } else {
        bar.setTotal(total ?? done);
        bar.update(done, { rate, note: '' });
      }
    },
    note(text) {
      if (running) bar.update({ note: text });
    },
    stop() {
      if (running) bar.stop();
    },
  };
}

/** Runs the command against the service chosen by the flags or the environment. */
export function runRemoteQuery(text: string, options: RemoteQueryOptions): Promise<void> {
  return runQueryWith(text, options, (onEvent) => clientFromFlags(options, onEvent));
}

/**
 * Runs the command with the client `makeClient` gives: prints (or writes to `--out`) the
 * result in `--format`; with `--all`, every record. Throws QuarryError (the caller prints it
 * with a caret and sets the exit code by category).
 */
export async function runQueryWith(
  text: string,
  options: RemoteQueryOptions,
  makeClient: (onEvent: (event: ClientEvent) => void) => QuarryClient,
): Promise<void> {
  const format = (options.format ?? (options.all ? 'jsonl' : 'json')) as OutputFormat;
  if (options.resume && (!options.all || options.out === undefined))
    throw invalid('--resume', 'it continues an export: use it with --all and --out FILE');
  const pageSize = wholeNumber('--page-size', options.pageSize) ?? 1000;
  const maxRecords = wholeNumber('--max-records', options.maxRecords);
  const bar = await progressBar(options.all === true && options.progress !== false);
  const client = makeClient((event) => {
    if (event.kind === 'rate_limited') bar.note(`(rate limited: waiting ${(event.waitMs / 1000).toFixed(1)} s)`);
  });

  if (!options.all) {
    const shape = resultShape(text);
    const result = await client.query(text);
    // A table on a terminal fits its width; in a file or a pipe it keeps its full width.
    const width = options.out === undefined && process.stdout.isTTY ? process.stdout.columns : undefined;
    return writeResult(options.rows ? withRows(result, options.rows, shape) : result, format, options.out, {
      shape,
      width,
    });
  }
  if (options.rows !== undefined)
    throw invalid('--rows', 'it lays out one page; with --all, export as jsonl and flatten afterwards');
  if (format === 'table')
    throw invalid('--format table', 'tables are for one page; export --all as jsonl, csv or json');

  const controller = new AbortController();
  const onSignal = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  try {
    if (options.out !== undefined) {
      const report = await exportToFile(client, text, {
        file: options.out,
        format: format,
        pageSize,
        resume: options.resume === true,
        signal: controller.signal,
        ...(maxRecords !== undefined ? { maxRecords } : {}),
        onProgress: ({ done, total }) => bar.update(done, total),
      }).finally(() => bar.stop());
      for (const warning of report.warnings) process.stderr.write(`warning: ${warning}\n`);
      if (report.droppedColumns.length > 0)
        process.stderr.write(
          `warning: columns first seen after the CSV header were left out: ${report.droppedColumns.join(', ')}\n`,
        );
      process.stderr.write(
        `Wrote ${report.records} records to ${report.file}${report.total !== undefined ? ` (${report.total} matching)` : ''}.\n`,
      );
      return;
    }
    await streamToStdout(client, text, format, { pageSize, maxRecords, signal: controller.signal, bar });
  } catch (error) {
    if (controller.signal.aborted && options.out !== undefined)
      process.stderr.write(`Interrupted; continue with the same command and --resume.\n`);
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
  }
}

async function streamToStdout(
  client: QuarryClient,
  text: string,
  format: ExportFormat,
  options: {
    pageSize: number;
    maxRecords: number | undefined;
    signal: AbortSignal;
    bar: { update(done: number, total: number | undefined): void; stop(): void };
  },
): Promise<void> {
  const write = (chunk: string) =>
    new Promise<void>((resolve, reject) => process.stdout.write(chunk, (error) => (error ? reject(error) : resolve())));
  const stream = client.iterate(text, {
    pageSize: options.pageSize,
    signal: options.signal,
    ...(options.maxRecords !== undefined ? { maxRecords: options.maxRecords } : {}),
  });
  let columns: string[] | undefined;
  let done = 0;
  try {
    if (format === 'json') await write('[');
    for await (const page of stream.pages()) {
      if (format === 'csv') {
        if (columns === undefined && page.records.length > 0) {
          columns = columnsOf(page.records);
          await write(csvLine(columns));
        }
        if (columns !== undefined) await write(csvRows(page.records, columns));
      } else if (format === 'jsonl') await write(jsonLines(page.records));
      else await write(page.records.map((r, i) => `${done + i === 0 ? '\n' : ',\n'}${JSON.stringify(r)}`).join(''));
      done += page.records.length;
      options.bar.update(done, page.total);
    }
    if (format === 'json') await write(done === 0 ? ']\n' : '\n]\n');
  } finally {
    options.bar.stop();
  }
}

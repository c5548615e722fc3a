/**
 * The remote mode of `quarry query "QUERY"` (without `--db`): sends the query to a Quarry
 * service with the client library, using the stored profile (`quarry login`) or
 * `--url`/`--key`. One query, or with `--all` every page, written as it goes; with `--out`
 * the export keeps a checkpoint so `--resume` continues an interrupted one exactly.
 */
import { writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { connect, type QuarryClient } from '../../client/client.ts';
import { QuarryClientError } from '../../client/errors.ts';
import { exportToFile, type ExportFormat } from '../../client/export.ts';
import {
  columnsOf,
  csvLine,
  csvRows,
  jsonLines,
  table,
  OUTPUT_FORMATS,
  type OutputFormat,
} from '../../client/output.ts';
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
}

/** The options `quarry query` has for the remote mode. */
export function remoteQueryOptions(): Option[] {
  return [
    new Option('--profile <name>', 'the stored profile to use (default: the default profile of `quarry login`)'),
    new Option('--url <url>', 'the service URL, instead of a profile (with --key or $QUARRY_KEY)'),
    new Option('--key <key>', 'the API key with --url (prefer $QUARRY_KEY: arguments are visible to other users)'),
    new Option('--family <family>', 'the protocol family with --url').choices(['auth', 'token']),
    new Option('--format <format>', 'output format (default json; jsonl with --all)').choices([...OUTPUT_FORMATS]),
    new Option('--all', 'page through every record (appends limit/skip; stops at total_count or the depth limit)'),
    new Option('--out <file>', 'write to a file (with --all: as it goes, with a checkpoint for --resume)'),
    new Option('--resume', 'continue an interrupted --all export into --out'),
    new Option('--page-size <n>', 'records per request with --all, 1-1000').default('1000'),
    new Option('--max-records <n>', 'stop --all after this many records'),
    new Option('--no-progress', 'no progress bar for --all'),
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

/** A client from `--url`/`--key` or a stored profile. */
export function clientFromFlags(flags: ConnectionFlags, onEvent?: (event: ClientEvent) => void): QuarryClient {
  const dslVersion = flags.dslVersion === 1 || flags.dslVersion === '1' ? 1 : 2;
  const options = { dslVersion, ...(onEvent ? { onEvent } : {}) } as const;
  if (flags.url !== undefined) {
    const key = flags.key ?? process.env.QUARRY_KEY;
    if (key === undefined || key === '')
      throw QuarryClientError.client('CLIENT_KEY_MISSING', { what: 'API key (--key or $QUARRY_KEY) for --url' });
    return connect({ url: flags.url, key }, { ...options, family: flags.family === 'token' ? 'token' : 'auth' });
  }
  const profile = loadProfile(flags.profile);
  const family = profile.family;
  if (profile.key !== undefined) return connect({ url: profile.url, key: profile.key }, { ...options, family });
  return connect(
    { url: profile.url, username: profile.username ?? '', password: profile.password ?? '' },
    { ...options, family },
  );
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

/** One result in a format. Results without lists (describe) are shown as JSON. */
export function formatResult(result: QueryResult, format: OutputFormat): string {
  const lists = listsOf(result);
  if (format === 'json' || lists.length === 0) return `${JSON.stringify(result, null, 2)}\n`;
  if (format === 'jsonl') return lists.map(([, records]) => jsonLines(records)).join('');
  if (format === 'csv') {
    const records = lists[0]?.[1] ?? [];
    const columns = columnsOf(records);
    return columns.length === 0 ? '' : csvLine(columns) + csvRows(records, columns);
  }
  const total = result._stats?.total_count;
  return lists
    .map(
      ([key, records], i) =>
        `${lists.length > 1 ? `${key}\n` : ''}${table(records)}${i === 0 && typeof total === 'number' ? `(${records.length} shown, ${total} matching)\n` : ''}`,
    )
    .join('\n');
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

/**
 * Runs the remote mode: prints (or writes to `--out`) the result in `--format`; with
 * `--all`, every record. Throws QuarryError (the caller prints it with a caret and sets the
 * exit code by category).
 */
export async function runRemoteQuery(text: string, options: RemoteQueryOptions): Promise<void> {
  const format = (options.format ?? (options.all ? 'jsonl' : 'json')) as OutputFormat;
  if (options.resume && (!options.all || options.out === undefined))
    throw invalid('--resume', 'it continues an export: use it with --all and --out FILE');
  const pageSize = wholeNumber('--page-size', options.pageSize) ?? 1000;
  const maxRecords = wholeNumber('--max-records', options.maxRecords);
  const bar = await progressBar(options.all === true && options.progress !== false);
  const client = clientFromFlags(options, (event) => {
    if (event.kind === 'rate_limited') bar.note(`(rate limited: waiting ${(event.waitMs / 1000).toFixed(1)} s)`);
  });

  if (!options.all) {
    const output = formatResult(await client.query(text), format);
    if (options.out !== undefined) writeFileSync(options.out, output);
    else process.stdout.write(output);
    return;
  }
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

/**
 * `quarry shell`: an interactive console on a Quarry service. Queries may span lines and end
 * with `;` or a blank line; results show as tables; Tab completes keywords, sources and
 * fields (from `describe schema`); history is kept between sessions next to the profiles.
 * Console commands: `.help`, `.describe SOURCE`, `.export FILE`, `.exit`.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import type { QuarryClient } from '../../client/client.ts';
import { exportToFile, type ExportFormat } from '../../client/export.ts';
import { withoutOwnWindow } from '../../client/own-window.ts';
import { resultShape } from '../../client/result-view.ts';
import { table } from '../../client/terminal-table.ts';
import { profilePath } from '../../client/profiles.ts';
import type { DescribedSchema, DescribedSource } from '../../client/records.ts';
import { complete, completionWords, QueryBuffer } from '../../client/shell-input.ts';
import { formatWithCaret, isQuarryError } from '../../errors/index.ts';
import { exitWithError, queryTextOfError } from '../exit.ts';
import { chooseService, formatResult, type ChosenService, type ConnectionFlags } from './query-remote.ts';

const HELP = `Type a query and end it with ';' or a blank line, e.g.
  search publications where year = 2020
  return publications[id + title] limit 5;
Tab completes keywords, sources and fields. Console commands:
  .help             this text
  .describe SOURCE  the fields of a source (publications, grants, researchers, organizations)
  .export FILE      every record of the last query (up to its limit) into FILE (.jsonl, .csv or .json)
  .exit             leave (also Ctrl-D)
`;

const HISTORY_SIZE = 500;

function historyFile(): string {
  return join(dirname(profilePath()), 'history');
}

/** Stored history, most recent first (what node:readline expects). */
function loadHistory(): string[] {
  const file = historyFile();
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.replace(/\\n/g, '\n'))
    .reverse()
    .slice(0, HISTORY_SIZE);
}

function saveHistoryEntry(entry: string): void {
  const file = historyFile();
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  appendFileSync(file, `${entry.replace(/\n/g, '\\n')}\n`, { mode: 0o600 });
}

function describeTable(source: DescribedSource): string {
  const rows = Object.entries(source.fields).map(([name, f]) => ({
    field: name,
    type: f.type,
    filter: f.is_filter ? 'yes' : '',
    facet: f.is_facet ? 'yes' : '',
    multi: f.is_multivalue ? 'yes' : '',
    description: f.description ?? '',
  }));
  const extra = [
    source.fieldsets?.length ? `fieldsets: ${source.fieldsets.join(', ')}` : '',
    source.search_fields?.length ? `search indexes: ${source.search_fields.join(', ')}` : '',
  ].filter(Boolean);
  return table(rows, { maxWidth: 60 }) + extra.map((l) => `${l}\n`).join('');
}

function exportFormat(file: string): ExportFormat {
  if (file.endsWith('.csv')) return 'csv';
  if (file.endsWith('.json')) return 'json';
  return 'jsonl';
}

/** Runs the console until `.exit` or the end of input. */
export async function runShell(
  client: QuarryClient,
  io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; terminal: boolean },
  service?: ChosenService,
): Promise<void> {
  const print = (text: string) => io.output.write(text.endsWith('\n') ? text : `${text}\n`);
  const showError = (error: unknown, sent?: string) => {
    const text = queryTextOfError(error, sent);
    if (isQuarryError(error))
      print(
        error.problems
          .map((p) => (text === undefined ? `${p.message} [${p.code}]` : formatWithCaret(text, p)))
          .join('\n'),
      );
    else print(`error: ${error instanceof Error ? error.message : String(error)}`);
  };
  let words = completionWords();
  let schema: DescribedSchema | undefined;
  try {
    schema = await client.describe('schema');
    words = completionWords(schema);
  } catch (error) {
    // Without the schema the console still works; completion then offers keywords only.
    showError(error);
  }
  const rl = createInterface({
    input: io.input,
    output: io.output,
    terminal: io.terminal,
    history: io.terminal ? loadHistory() : [],
    historySize: HISTORY_SIZE,
    completer: (line: string) => complete(line, words),
  });
  const buffer = new QueryBuffer();
  let lastQuery: string | undefined;
  const prompt = () => {
    rl.setPrompt(buffer.pending ? '   ...> ' : 'quarry> ');
    rl.prompt();
  };
  if (service !== undefined)
    print(
      `Quarry shell on ${service.url} (${service.family} family, ${service.chosenBy}, language version ${service.dslVersion}).`,
    );
  else print('Quarry shell.');
  print('End a query with ; or a blank line. .help for help, .exit to leave.');
  rl.on('SIGINT', () => {
    if (buffer.pending) {
      buffer.clear();
      print('');
      prompt();
    } else rl.close();
  });
  prompt();
  for await (const line of rl) {
    const entry = buffer.push(line);
    if (entry === undefined) {
      prompt();
      continue;
    }
    if (entry.kind === 'command') {
      if (entry.name === 'exit' || entry.name === 'quit') break;
      if (entry.name === 'help') print(HELP);
      else if (entry.name === 'describe') {
        const name = entry.argument;
        const source = schema?.sources[name];
        if (source !== undefined) print(describeTable(source));
        else {
          try {
            print(describeTable(await client.describe('source', name)));
          } catch (error) {
            showError(error);
          }
        }
      } else if (entry.name === 'export') {
        if (entry.argument === '')
          print('Usage: .export FILE (.jsonl, .csv or .json): every record of the last query (up to its limit).');
        else if (lastQuery === undefined) print('Run a query first, then .export FILE.');
        else {
          // The query as shown: its own limit caps the export; an offset has no place in one.
          const window = withoutOwnWindow(lastQuery);
          try {
            if (window.skip !== undefined && window.skip > 0)
              print('.export writes records from the first one: run the query without skip, then .export FILE.');
            else {
              const report = await exportToFile(client, window.text, {
                file: entry.argument,
                format: exportFormat(entry.argument),
                ...(window.limit === undefined ? {} : { maxRecords: window.limit }),
              });
              print(`Wrote ${report.records} records to ${report.file}.`);
            }
          } catch (error) {
            showError(error, lastQuery);
          }
        }
      } else print(`Unknown command .${entry.name}; .help lists them.`);
      prompt();
      continue;
    }
    if (io.terminal) saveHistoryEntry(entry.text);
    try {
      const result = await client.query(entry.text);
      lastQuery = entry.text;
      const width = io.terminal ? (io.output as { columns?: number }).columns : undefined;
      print(formatResult(result, 'table', { shape: resultShape(entry.text), width }));
      for (const warning of result._warnings ?? []) print(`warning: ${warning}`);
    } catch (error) {
      showError(error, entry.text);
    }
    prompt();
  }
  rl.close();
}

export function register(program: Command): void {
  program
    .command('shell')
    .description('an interactive console on a Quarry service (multi-line queries, tables, completion, history)')
    .option('--profile <name>', 'the stored profile to use')
    .option('--url <url>', 'the service URL, instead of a profile (with --key or $QUARRY_KEY)')
    .option('--key <key>', 'the API key with --url')
    .option('--family <family>', 'auth or token, with --url')
    .option('--dsl-version <version>', 'language version (1 or 2)', '2')
    .action(async (flags: ConnectionFlags) => {
      try {
        const { client, service } = chooseService(flags);
        await client.login();
        await runShell(
          client,
          {
            input: process.stdin,
            output: process.stdout,
            terminal: process.stdin.isTTY === true && process.stdout.isTTY === true,
          },
          service,
        );
      } catch (error) {
        exitWithError(error);
      }
    });
}

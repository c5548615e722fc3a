/**
 * `quarry match-affiliations FILE [--out FILE] [--db FILE|URL] [--config FILE]`: matches
 * affiliation strings (one a line, or a CSV with an `affiliation` column) against the
 * organizations of the configured database and writes CSV: input, organization id, name,
 * country, score; one row a match, an empty id when nothing matched.
 */
import type { Command } from 'commander';
import { createWriteStream, readFileSync } from 'node:fs';
import { loadConfig } from '../../config.ts';
import { exitWithError } from '../exit.ts';
import { DB_OPTION_HELP, type AdminFlags } from './admin-store.ts';

const PAGE = 1000;
const FIELDS = 'id+name+acronym+city_name+state_name+country_code+country_name+types+status+redirect';

const csvField = (value: string): string => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The affiliation strings of a file: its `affiliation` column when its first line is a CSV header naming one, else its lines. */
async function readInputs(text: string): Promise<string[]> {
  const { CsvLineReader } = await import('../../data/csv.ts');
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  const header = new CsvLineReader().push(lines[0] ?? '') ?? [];
  const column = header.findIndex((h) => h.trim().toLowerCase() === 'affiliation');
  if (column < 0) return lines.map((l) => l.replace(/\r$/, '')).filter((l) => l.trim().length > 0);
  const reader = new CsvLineReader();
  const out: string[] = [];
  for (const line of lines.slice(1)) {
    const row = reader.push(line);
    if (row !== undefined && row.some((f) => f.length > 0)) out.push(row[column] ?? '');
  }
  const last = reader.flush();
  if (last !== undefined) out.push(last[column] ?? '');
  return out;
}

export function register(program: Command): void {
  program
    .command('match-affiliations')
    .description(
      'match affiliation strings (one a line, or CSV with an affiliation column) to the organizations held; CSV out',
    )
    .argument('<file>', 'the affiliation strings')
    .option('--out <file>', 'write the CSV here instead of standard output')
    .option('--db <file|url>', DB_OPTION_HELP)
    .option('--config <file>', 'a JSON configuration file')
    .action(async (file: string, flags: AdminFlags & { out?: string }) => {
      try {
        const config = loadConfig({
          file: flags.config,
          env: process.env,
          overrides: flags.db === undefined ? {} : { database: flags.db },
        });
        const inputs = await readInputs(readFileSync(file, 'utf8'));
        // Loaded on use: the back ends and the matcher would slow the start of every other command.
        const { openLocalQueries } = await import('../../backends.ts');
        const { buildAffiliationIndex } = await import('../../analytics/affiliations/index.ts');
        const { matchAffiliation } = await import('../../analytics/affiliations/match.ts');
        const { fromOrganizationRecord } = await import('../../analytics/affiliations/records.ts');
        const local = await openLocalQueries(config.database, 2);
        const organizations = [];
        try {
          // Keyset pages by id: the organizations may be more than the paging window holds.
          let after = '';
          for (;;) {
            const answer = (await local.post(
              `search organizations where id > ${JSON.stringify(after)} return organizations[${FIELDS}] sort by id asc limit ${PAGE}`,
            )) as { organizations?: Record<string, unknown>[] };
            const page = answer.organizations ?? [];
            for (const row of page) {
              const org = fromOrganizationRecord(row);
              if (org !== undefined) organizations.push(org);
            }
            if (page.length < PAGE) break;
            after = String(page[page.length - 1]?.['id']);
          }
        } finally {
          await local.close();
        }
        const index = buildAffiliationIndex(organizations);
        const out = flags.out === undefined ? process.stdout : createWriteStream(flags.out);
        out.write('input,organization_id,name,country,score\n');
        for (const input of inputs) {
          const matches = matchAffiliation(index, input);
          if (matches.length === 0) out.write(`${csvField(input)},,,,\n`);
          for (const m of matches) {
            const o = m.organization;
            out.write(
              `${[input, o.id, o.name, o.countryName ?? o.countryCode ?? ''].map(csvField).join(',')},${m.score.toFixed(3)}\n`,
            );
          }
        }
        if (out !== process.stdout)
          await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
      } catch (error) {
        exitWithError(error);
      }
    });
}

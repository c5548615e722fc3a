/**
 * `quarry groups define|list|remove`: the named sets of organizations queried as the
 * `funder_groups` and `research_org_groups` sources. A group's members come from a file (JSON
 * or CSV of organization ids) or from one organization and all its descendants in the
 * parent/child hierarchy the organizations hold (ROR's relationships). Groups are records of
 * their source, so queries see a change at once; imports leave them in place.
 */
import type { Command } from 'commander';
import type { LocalQueries, recordWriterFor } from '../../backends.ts';
import type * as Groups from '../../data/groups/index.ts';
import { loadConfig } from '../../config.ts';
import { QuarryError } from '../../errors/index.ts';
import { exitWithError } from '../exit.ts';
import { DB_OPTION_HELP } from './admin-store.ts';

interface DbFlags {
  readonly db?: string;
  readonly config?: string;
}

type DefineFlags = DbFlags & { name: string; id?: string; members?: string; organization?: string };

/** The database `--db` (or the configuration) names, as every administration command reads it. */
function databaseOf(flags: DbFlags): string {
  return loadConfig({
    file: flags.config,
    env: process.env,
    overrides: flags.db === undefined ? {} : { database: flags.db },
  }).database;
}

/** Runs `work` with the group modules and in-process queries on the database; closes them. */
async function withGroups<T>(
  flags: DbFlags,
  work: (
    tools: typeof Groups & {
      readonly queries: LocalQueries;
      readonly database: string;
      readonly recordWriterFor: typeof recordWriterFor;
    },
  ) => Promise<T>,
): Promise<T> {
  const database = databaseOf(flags);
  // Loaded on use: the database drivers would slow the start of every other command.
  const [backends, groups] = await Promise.all([import('../../backends.ts'), import('../../data/groups/index.ts')]);
  // Opening the queries first refuses a SQLite file that does not exist before anything is written.
  const queries = await backends.openLocalQueries(database, 2);
  try {
    return await work({ ...groups, queries, database, recordWriterFor: backends.recordWriterFor });
  } finally {
    await queries.close();
  }
}

export function register(program: Command): void {
  const groups = program
    .command('groups')
    .description('define, list and remove the organization groups queried as funder_groups and research_org_groups');
  const withDb = (c: Command) =>
    c.option('--db <file|url>', DB_OPTION_HELP).option('--config <file>', 'a JSON configuration file');

  withDb(
    groups
      .command('define')
      .description('add a group, or replace the group of the same id')
      .argument('<source>', 'funder_groups or research_org_groups')
      .requiredOption('--name <name>', 'the name of the group (searched with `search <source> for "..."`)')
      .option('--id <id>', 'its id (default: made from the name, e.g. "Military schools" → military-schools)')
      .option('--members <file>', 'a JSON array of organization ids, or CSV with an id per line in its first column')
      .option('--organization <id>', 'an organization: the group is it and all its descendants'),
  ).action(async (sourceName: string, flags: DefineFlags) => {
    try {
      const saved = await withGroups(flags, async (g) => {
        const source = g.groupSource(sourceName);
        if ((flags.members === undefined) === (flags.organization === undefined))
          throw QuarryError.of('GROUP_MEMBERS_OPTION', { params: { options: '--members FILE, --organization ID' } });
        const members =
          flags.members !== undefined
            ? await g.readMembersFile(flags.members)
            : await g.organizationWithDescendants(g.queries, flags.organization ?? '');
        const group = g.checkedGroup({ id: flags.id, name: flags.name, organizationIds: members });
        await g.saveGroup(g.recordWriterFor(g.database), source, group);
        return { source, group };
      });
      const n = saved.group.organization_ids.length;
      process.stdout.write(
        `Saved ${saved.source} ${saved.group.id} "${saved.group.name}": ${n} organization${n === 1 ? '' : 's'}\n`,
      );
    } catch (error) {
      exitWithError(error);
    }
  });

  withDb(
    groups
      .command('list')
      .description('list the groups, by source and name (one per line, or JSON with --json)')
      .argument('[source]', 'funder_groups or research_org_groups (default: both)')
      .option('--json', 'print a JSON array of {source, id, name, organization_ids}'),
  ).action(async (sourceName: string | undefined, flags: DbFlags & { json?: boolean }) => {
    try {
      const listed = await withGroups(flags, async (g) => {
        const sources = sourceName === undefined ? g.GROUP_SOURCES : [g.groupSource(sourceName)];
        const out = [];
        for (const source of sources)
          for (const group of await g.listGroups(g.queries, source)) out.push({ source, ...group });
        return out;
      });
      if (flags.json === true) process.stdout.write(`${JSON.stringify(listed, null, 2)}\n`);
      else {
        for (const g of listed)
          process.stdout.write(`${g.source}\t${g.id}\t${g.name}\t${g.organization_ids.length} organizations\n`);
        if (listed.length === 0) process.stdout.write('no groups\n');
      }
    } catch (error) {
      exitWithError(error);
    }
  });

  withDb(
    groups
      .command('remove')
      .description('remove a group')
      .argument('<source>', 'funder_groups or research_org_groups')
      .argument('<id>', 'the id of the group'),
  ).action(async (sourceName: string, id: string, flags: DbFlags) => {
    try {
      const source = await withGroups(flags, async (g) => {
        const source = g.groupSource(sourceName);
        await g.removeGroup(g.recordWriterFor(g.database), source, id);
        return source;
      });
      process.stdout.write(`Removed ${source} ${id}\n`);
    } catch (error) {
      exitWithError(error);
    }
  });
}

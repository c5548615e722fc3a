/**
 * `quarry groups define|list|remove`: the named sets of organizations queried as the
 * `funder_groups` and `research_org_groups` sources. A group's members come from a file (JSON
 * or CSV of organization ids) or from one organization and all its descendants in the
 * parent/child hierarchy the organizations hold (ROR's relationships). The admin page does
 * the same through the same `GroupAdministration`. Groups are records of their source, so
 * queries see a change at once, and imports leave them in place.
 */
import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { QuarryError } from '../../errors/index.ts';
import type { GroupAdministration } from '../../store/organization-groups.ts';
import { exitWithError } from '../exit.ts';
import { DB_OPTION_HELP } from './admin-store.ts';

interface DbFlags {
  readonly db?: string;
  readonly config?: string;
}

type DefineFlags = DbFlags & { name: string; id?: string; members?: string; organization?: string };

/** Runs `work` with the groups of the database `--db` (or the configuration) names; closes it. */
async function withGroups<T>(flags: DbFlags, work: (groups: GroupAdministration) => Promise<T>): Promise<T> {
  const database = loadConfig({
    file: flags.config,
    env: process.env,
    overrides: flags.db === undefined ? {} : { database: flags.db },
  }).database;
  // Loaded on use: the database drivers would slow the start of every other command.
  const [backends, { groupAdministration }] = await Promise.all([
    import('../../backends.ts'),
    import('../../data/groups/index.ts'),
  ]);
  // Opening the queries first refuses a SQLite file that does not exist before anything is written.
  const queries = await backends.openLocalQueries(database, 2);
  try {
    return await work(groupAdministration({ target: () => backends.recordWriterFor(database), queries }));
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
  ).action(async (source: string, flags: DefineFlags) => {
    try {
      const membersText = await membersOf(source, flags);
      const saved = await withGroups(flags, (g) =>
        g.define({
          source,
          name: flags.name,
          id: flags.id,
          membersText,
          membersFrom: flags.members,
          organization: flags.organization,
        }),
      );
      const n = saved.organization_ids.length;
      process.stdout.write(
        `Saved ${saved.source} ${saved.id} "${saved.name}": ${n} organization${n === 1 ? '' : 's'}\n`,
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
  ).action(async (source: string | undefined, flags: DbFlags & { json?: boolean }) => {
    try {
      const listed = await withGroups(flags, (g) => g.list(source));
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
  ).action(async (source: string, id: string, flags: DbFlags) => {
    try {
      await withGroups(flags, (g) => g.remove(source, id));
      process.stdout.write(`Removed ${source} ${id}\n`);
    } catch (error) {
      exitWithError(error);
    }
  });
}

/**
 * The members file's text, read before the database opens; a wrong source or a wrong choice
 * of member options is told before a missing file.
 */
async function membersOf(source: string, flags: DefineFlags): Promise<string | undefined> {
  const { groupSource, readMembersText } = await import('../../data/groups/index.ts');
  groupSource(source);
  if ((flags.members === undefined) === (flags.organization === undefined))
    throw QuarryError.of('GROUP_MEMBERS_OPTION', { params: { options: '--members FILE, --organization ID' } });
  return flags.members === undefined ? undefined : readMembersText(flags.members);
}

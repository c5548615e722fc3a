/**
 * The SQLite record store's migrations as files: `migrations/records/NNNN-<slug>.sql` here and
 * `src/sources/<name>/migrations/sqlite/NNNN-<slug>.sql` in a source's folder (one sequence of
 * numbers across them: `../migration-files.ts`), each the statements its migration ran on a
 * new database, recorded once (scripts/freeze-sqlite-migrations.ts,
 * scripts/new-records-migration.ts) and never edited, so a later change of the storage layout
 * (a new source, a new table) cannot change what an old migration makes.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Database } from 'better-sqlite3';
import { packageFile } from '../../package-root.ts';
import { frozenHeader, migrationFilesOf, migrationNameOf, sourceMigrationDirs } from '../migration-files.ts';
import type { FrozenMigration } from './migrate.ts';

/** Found from the package root: compiled, this module lives in a bundle chunk under dist/. */
export const RECORD_MIGRATIONS_DIR = pathToFileURL(packageFile('src/store/sqlite/migrations/records/'));

/** The folders of the records migrations: the store's own, then every source folder's that has one. */
export function recordMigrationDirs(): URL[] {
  return [RECORD_MIGRATIONS_DIR, ...sourceMigrationDirs('sqlite')];
}

/** A records migration and the file holding its frozen statements. */
export interface FileMigration extends FrozenMigration {
  readonly file: string;
  /** The file itself, in whichever folder holds it. */
  readonly path: URL;
}

/**
 * The migrations of folders of frozen files, one sequence of numbers across them, with the
 * upgrade steps of those that have one (by version) and `functions` for every one. Only the
 * names are read now (the files' first lines); the statements when a migration runs.
 */
export function frozenMigrations(
  dirs: readonly URL[],
  {
    upgrades = {},
    functions,
  }: {
    readonly upgrades?: Readonly<Record<number, (db: Database) => void>>;
    readonly functions?: (db: Database) => void;
  } = {},
): FileMigration[] {
  const files = migrationFilesOf(dirs, ['sql']);
  const migrations = files.map(({ version, file, slug, path }): FileMigration => {
    const upgrade = upgrades[version];
    return {
      version,
      name: migrationNameOf(path, slug),
      file,
      path,
      sql: () => readFileSync(path, 'utf8'),
      ...(upgrade === undefined ? {} : { upgrade }),
      ...(functions === undefined ? {} : { functions }),
    };
  });
  for (const version of Object.keys(upgrades).map(Number))
    if (!files.some((f) => f.version === version))
      throw new Error(
        `an upgrade step for records migration ${version}, which has no file in ${dirs.map((d) => d.pathname).join(' or ')}`,
      );
  return migrations;
}

/** The first lines of a records migration's frozen file (scripts/freeze-sqlite-migrations.ts writes them). */
export function frozenMigrationHeader(
  m: { readonly version: number; readonly name: string },
  statements: number,
): string {
  return frozenHeader(m.name, [
    `Records migration ${m.version} (SQLite) as it ran on a new database: scripts/freeze-sqlite-migrations.ts.`,
    'Frozen: never edit it; a change of the layout is a new migration (docs/storage.md).',
    ...(statements === 0 ? ['No statement: on a new database the migrations before it left it nothing to do.'] : []),
  ]);
}

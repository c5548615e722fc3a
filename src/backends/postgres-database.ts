/**
 * Opening a PostgreSQL database for the composition root: the pools of the primary and the
 * replicas, each checked to answer, and the primary's schema brought up to date.
 */
import { migratePostgres, type MigrationStep } from '../store/postgres/migrate.ts';
import { openPostgres, type PostgresPools } from '../store/postgres/pool.ts';
import type { DatabaseTarget } from './database-backend.ts';
import { unreachable } from './start-errors.ts';

export type PostgresTarget = DatabaseTarget<'postgres'>;

/**
 * Opens the PostgreSQL pools, checks that the primary and every replica answer, and with
 * `migrate` applies every migration the primary has not seen (src/store/postgres/migrate.ts:
 * the sets accounts, web, imports and records).
 */
export async function openPostgresDatabase(
  target: PostgresTarget,
  options: { migrate: boolean },
): Promise<{ pools: PostgresPools; applied: readonly MigrationStep[] }> {
  const pools = openPostgres({ url: target.url, readUrls: target.readUrls });
  try {
    await checkAnswers(pools, [target.url, ...target.readUrls]);
    const applied = options.migrate ? await migratePostgres(pools.primary) : [];
    return { pools, applied };
  } catch (error) {
    await pools.close();
    throw error;
  }
}

/** Fails with the coded start-up error naming the first pool (primary, then replicas) that does not answer. */
async function checkAnswers(pools: PostgresPools, urls: readonly string[]): Promise<void> {
  for (const [i, pool] of pools.all.entries()) {
    try {
      await pool.query('SELECT 1');
    } catch (error) {
      throw unreachable(i === 0 ? 'PostgreSQL database' : 'PostgreSQL read replica', urls[i] as string, error);
    }
  }
}

/** Runs `look` on the database's pools, opened for it alone, and closes them after. */
export async function withPostgres<T>(
  target: PostgresTarget,
  options: { migrate: boolean },
  look: (pools: PostgresPools) => Promise<T>,
): Promise<T> {
  const { pools } = await openPostgresDatabase(target, options);
  try {
    return await look(pools);
  } finally {
    await pools.close();
  }
}

/**
 * `quarry serve` on PostgreSQL: every migration applied first (instances starting together
 * apply each once, under an advisory lock), then the engine (reads on the replicas when
 * `readUrls` names any) and the account stores on the primary. The result cache is left
 * out: its key is a data epoch that only the SQLite store keeps, and several instances
 * would each need to see an import elsewhere.
 *
 * The token-signing secret must be configured (`jwtSecret` or `jwtSecretFile`, the same on
 * every instance), never kept in the database: without one the service refuses to start,
 * before any migration, saying how to get one (and how to keep the one an earlier Quarry
 * kept in the database). With one, that old copy is removed from the database.
 */
import type { QuarryConfig } from '../config.ts';
import { createPostgresEngine } from '../engine/backends/postgres/engine.ts';
import { QuarryError } from '../errors/index.ts';
import { postgresAccountStore } from '../store/postgres/account-store.ts';
import { unfinishedPgImports } from '../store/postgres/import-journal.ts';
import { dropLegacyJwtSecret, legacyJwtSecret } from '../store/postgres/legacy-jwt-secret.ts';
import type { PostgresPools } from '../store/postgres/pool.ts';
import { postgresTokenStore } from '../store/postgres/token-store.ts';
import { postgresWebStore } from '../store/postgres/web-store.ts';
import { postgresExportStore } from '../store/postgres/export-store.ts';
import { describeUnfinished } from '../store/record-writer.ts';
import { closeInOrder, openOrClose } from './close-in-order.ts';
import type { DatabaseService } from './database-backend.ts';
import { openPostgresDatabase, type PostgresTarget } from './postgres-database.ts';
import { importUnfinished, redactUrl } from './start-errors.ts';

/** How often a PostgreSQL service looks for an unfinished import (an import elsewhere may start or stop). */
const IMPORT_WATCH_MS = 5_000;

export async function openPostgresService(
  target: PostgresTarget,
  options: { config: QuarryConfig; jwtSecret: string | undefined },
): Promise<DatabaseService> {
  const { jwtSecret } = options;
  const { pools, applied } = await openPostgresDatabase(target, { migrate: jwtSecret !== undefined });
  return openOrClose(async (closers) => {
    closers.push(() => pools.close());
    if (jwtSecret === undefined) throw await jwtSecretRequired(pools.primary);
    const unfinished = await unfinishedPgImports(pools.primary);
    if (unfinished.length > 0) throw importUnfinished(redactUrl(target.url), unfinished);
    // After the refusals above: a start refused for another reason leaves the old copy in place.
    const removed = await dropLegacyJwtSecret(pools.primary);
    const imports = watchUnfinished(pools.primary);
    closers.unshift(() => Promise.resolve(imports.stop()));
    const { readUrls } = target;
    const engine = createPostgresEngine({ url: target.url, readUrls, timeoutMs: options.config.query.timeoutMs });
    closers.unshift(() => engine.close());
    const accountStore = postgresAccountStore(pools.primary);
    const webStore = postgresWebStore(pools.primary);
    closers.push(
      () => webStore.close(),
      () => accountStore.close(),
    );
    return {
      engine,
      accountStore,
      tokenStore: postgresTokenStore(pools.primary),
      webStore,
      exportStore: postgresExportStore(pools.primary),
      upgraded: applied.filter((step) => step.set === 'records').map((step) => step.version),
      jwtSecret,
      removedDatabaseSecret: removed === undefined ? undefined : removed === jwtSecret ? 'same' : 'different',
      recordsNotReady: imports.notReady,
      close: () => closeInOrder(closers),
    };
  });
}

/** The refusal to serve PostgreSQL without a configured secret; it names the upgrade path when the database holds one. */
async function jwtSecretRequired(pool: PostgresPools['primary']): Promise<QuarryError> {
  const upgrade =
    (await legacyJwtSecret(pool)) === undefined
      ? ''
      : ' This database still holds the secret an earlier Quarry kept in it: `quarry jwt-secret --from-database --db <database URL>` prints it, to configure on every instance so that tokens issued before the upgrade stay valid (or make a new one: every JWT holder then logs in again); the first start with a configured secret removes it from the database.';
  return QuarryError.of('SERVICE_JWT_SECRET_REQUIRED', { params: { upgrade } });
}

/** Follows imports started (or completed) after start-up, for /readyz. */
function watchUnfinished(pool: PostgresPools['primary']): {
  readonly notReady: () => string | undefined;
  stop(): void;
} {
  let notReady: string | undefined;
  const watch = setInterval(() => {
    unfinishedPgImports(pool).then(
      (runs) => (notReady = runs.length === 0 ? undefined : describeUnfinished(runs)),
      () => undefined, // an unreachable database shows in /readyz through the engine
    );
  }, IMPORT_WATCH_MS);
  watch.unref();
  return { notReady: () => notReady, stop: () => clearInterval(watch) };
}

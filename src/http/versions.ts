import type { DslVersion } from '../engine/types.ts';
import { QuarryError } from '../errors/index.ts';

/** The auth-path query endpoints and what they point to (spec/protocol.md §6). */
export type AuthPathEndpoint = 'v1' | 'v2' | 'alias';

export interface VersionPolicy {
  /** Instant (ms) from which the aliases run v2. */
  readonly aliasToV2FromMs: number;
  /** Instant (ms) from which v1 answers 410; null: never. */
  readonly v1RemovedFromMs: number | null;
  readonly migrationNotes: string;
}

export function versionPolicy(config: {
  aliasToV2From: string;
  v1RemovedFrom: string | null;
  migrationNotes: string;
}): VersionPolicy {
  return {
    aliasToV2FromMs: Date.parse(config.aliasToV2From),
    v1RemovedFromMs: config.v1RemovedFrom === null ? null : Date.parse(config.v1RemovedFrom),
    migrationNotes: config.migrationNotes,
  };
}

/**
 * The DSL version an auth-path endpoint runs at `nowMs`, and the headers its responses carry.
 * v1 responses carry `Deprecation` (RFC 9745: since when v2 became current), `Sunset`
 * (RFC 8594: when v1 goes) and a `Link` to the migration notes; after removal v1 is 410.
 *
 * @example resolveVersion('alias', Date.parse('2021-06-01'), policy) // { dslVersion: 1, headers: { Deprecation: '@1638316800', ... } }
 * @throws QuarryError SERVICE_VERSION_REMOVED once v1 is removed
 */
export function resolveVersion(
  endpoint: AuthPathEndpoint,
  nowMs: number,
  policy: VersionPolicy,
): { dslVersion: DslVersion; headers: Record<string, string> } {
  const dslVersion: DslVersion = endpoint === 'v1' ? 1 : endpoint === 'v2' ? 2 : nowMs < policy.aliasToV2FromMs ? 1 : 2;
  if (dslVersion === 2) return { dslVersion, headers: {} };
  if (policy.v1RemovedFromMs !== null && nowMs >= policy.v1RemovedFromMs) {
    throw QuarryError.of('SERVICE_VERSION_REMOVED', {
      params: {
        version: 1,
        removedOn: new Date(policy.v1RemovedFromMs).toISOString().slice(0, 10),
        replacement: 'POST /api/dsl/v2',
      },
    });
  }
  const headers: Record<string, string> = {
    Deprecation: `@${Math.floor(policy.aliasToV2FromMs / 1000)}`,
    Link: `<${policy.migrationNotes}>; rel="deprecation"`,
  };
  if (policy.v1RemovedFromMs !== null) headers.Sunset = new Date(policy.v1RemovedFromMs).toUTCString();
  return { dslVersion, headers };
}

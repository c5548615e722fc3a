import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { QuarryClientError } from './errors.ts';

/** One stored login: where, which family, and the credentials (the file is readable by its owner only). */
export interface Profile {
  readonly url: string;
  readonly family: 'auth' | 'token';
  readonly key?: string;
  readonly username?: string;
  readonly password?: string;
}

export interface ProfileFile {
  /** The profile used when none is named. */
  readonly default?: string;
  readonly profiles: Readonly<Record<string, Profile>>;
}

/** `$QUARRY_CONFIG_DIR/profiles.json`, else `~/.config/quarry/profiles.json`. */
export function profilePath(env: NodeJS.ProcessEnv = process.env): string {
  const dir =
    env.QUARRY_CONFIG_DIR !== undefined && env.QUARRY_CONFIG_DIR !== ''
      ? env.QUARRY_CONFIG_DIR
      : join(homedir(), '.config', 'quarry');
  return join(dir, 'profiles.json');
}

/** Reads the profile file; an absent file is an empty one. */
export function readProfiles(path: string = profilePath()): ProfileFile {
  if (!existsSync(path)) return { profiles: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw QuarryClientError.client('CLIENT_PROFILE_FILE_INVALID', {
      path,
      reason: error instanceof Error ? error.message : String(error),
    });
  }
  const file = parsed as Partial<ProfileFile> | null;
  if (typeof file !== 'object' || file === null || typeof file.profiles !== 'object' || file.profiles === null) {
    throw QuarryClientError.client('CLIENT_PROFILE_FILE_INVALID', { path, reason: 'it has no "profiles" object' });
  }
  return { profiles: file.profiles, ...(typeof file.default === 'string' ? { default: file.default } : {}) };
}

/**
 * Stores (adds or replaces) a profile. The file is written to a temporary name with mode 600
 * and renamed over the old one, so it is never readable by others, not even for a moment,
 * and a crash never leaves half a file. The first profile stored becomes the default.
 */
export function saveProfile(
  name: string,
  profile: Profile,
  options: { path?: string; makeDefault?: boolean } = {},
): string {
  const path = options.path ?? profilePath();
  const current = readProfiles(path);
  const next: ProfileFile = {
    default: options.makeDefault || current.default === undefined ? name : current.default,
    profiles: { ...current.profiles, [name]: profile },
  };
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
  return path;
}

/** The named profile, or the default one; CLIENT_NO_PROFILE when there is none. */
export function loadProfile(name?: string, path: string = profilePath()): Profile & { readonly name: string } {
  const file = readProfiles(path);
  const chosen = name ?? file.default ?? 'default';
  const profile = file.profiles[chosen];
  if (profile === undefined) throw QuarryClientError.client('CLIENT_NO_PROFILE', { name: chosen, path });
  return { ...profile, name: chosen };
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The prefix of every API key, so a key that leaks into a log, a repository or a chat is
 * recognisable at a glance (and by secret scanners).
 */
export const API_KEY_PREFIX = 'qry_';

/** A random string of `bytes` random bytes, base64url without padding (32 bytes = 256 bits). */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * The SHA-256 of a high-entropy secret (API key, opaque token, session id), base64url.
 * Keys and tokens carry 256 random bits, so a fast hash is enough; passwords use scrypt.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url');
}

/**
 * A new API key: `qry_` followed by 256 random bits.
 *
 * @example newApiKey() // 'qry_5mN0x...'
 */
export function newApiKey(): string {
  return API_KEY_PREFIX + randomSecret(32);
}

/** The part of a key that may be shown again later (in key lists) to tell keys apart. */
export function displayPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 6);
}

/** Compares two strings in time independent of where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

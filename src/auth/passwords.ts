import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost parameters (N = 2^15): about 50 ms per hash, 32 MiB of memory. */
const PARAMS = { N: 32768, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/**
 * Hashes a password with scrypt and a random salt; the result records its parameters so
 * they can be raised later without breaking stored hashes.
 *
 * @example await hashPassword('s3cret') // 'scrypt$32768$8$1$<salt>$<hash>'
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when `password` matches a hash made by `hashPassword`. A malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0)) return false;
  const expected = Buffer.from(parts[5] ?? '', 'base64url');
  let actual: Buffer;
  try {
    actual = await derive(password, Buffer.from(parts[4] ?? '', 'base64url'), { N, r, p });
  } catch {
    return false; // parameters scrypt refuses: not a hash we made
  }
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

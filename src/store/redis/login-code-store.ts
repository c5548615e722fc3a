/**
 * One-time login codes in Redis, visible to every instance: a code issued through one is
 * accepted by another, and used once in all. `code:<hash>` holds the account (expiring with
 * the code); `code-of:<account>` names the account's current code so a new one replaces it.
 */
import type { LoginCodeStore } from '../web.ts';
import type { Redis } from './connect.ts';
import { orUnavailable } from './unavailable.ts';

/** Replaces the account's earlier code with the new one, atomically. */
const SAVE = `
local previous = redis.call('GET', KEYS[2])
if previous then redis.call('DEL', ARGV[4] .. previous) end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 1`;

export function redisLoginCodeStore(client: Redis, prefix: string): LoginCodeStore {
  const codeKey = (hash: string) => `${prefix}code:${hash}`;
  const accountKey = (accountId: number) => `${prefix}code-of:${accountId}`;
  return {
    saveLoginCode: (row) =>
      orUnavailable('login codes', async () => {
        const ttl = Math.max(1, row.expiresAt - row.createdAt);
        const value = JSON.stringify({ accountId: row.accountId, expiresAt: row.expiresAt });
        await client.eval(
          SAVE,
          2,
          codeKey(row.codeHash),
          accountKey(row.accountId),
          value,
          row.codeHash,
          ttl,
          codeKey(''),
        );
      }),
    consumeLoginCode: (codeHash, now) =>
      orUnavailable('login codes', async () => {
        // GETDEL: of two sign-ins racing with one code, only one gets it.
        const text = await client.getdel(codeKey(codeHash));
        if (text === null) return undefined;
        const { accountId, expiresAt } = JSON.parse(text) as { accountId: number; expiresAt: number };
        return expiresAt > now ? accountId : undefined;
      }),
  };
}

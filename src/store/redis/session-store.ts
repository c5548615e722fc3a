/**
 * Web sessions in Redis, so a browser signed in through one instance is signed in on every
 * other, and a sign-out ends the session everywhere at once. Each session is one key that
 * Redis expires with the session; `sessions-of:<account>` is a sorted set of the account's
 * session ids scored by their expiry, so suspending or closing the account ends them all.
 */
import type { SessionRow, SessionStore } from '../accounts.ts';
import type { Redis } from './connect.ts';
import { orUnavailable } from './unavailable.ts';

/**
 * Writes the session and notes it under its account, atomically. Ended sessions leave the
 * account's set as new ones arrive, and the set expires with its last session.
 */
const INSERT = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[5])
local last = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
if last[2] then redis.call('PEXPIREAT', KEYS[2], string.format('%d', tonumber(last[2]))) end
return 1`;

/** Deletes every session of the account and its set; returns how many sessions were live. */
const DELETE_ALL = `
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
local ended = 0
for _, id in ipairs(ids) do ended = ended + redis.call('DEL', ARGV[1] .. id) end
redis.call('DEL', KEYS[1])
return ended`;

export function redisSessionStore(client: Redis, prefix: string, clock: () => number = Date.now): SessionStore {
  const key = (id: string) => `${prefix}session:${id}`;
  const accountKey = (accountId: number) => `${prefix}sessions-of:${accountId}`;
  return {
    insertSession: (row) =>
      orUnavailable('sessions', async () => {
        const now = clock();
        await client.eval(
          INSERT,
          2,
          key(row.id),
          accountKey(row.accountId),
          JSON.stringify(row),
          Math.max(1, row.expiresAt - now),
          row.id,
          row.expiresAt,
          now,
        );
      }),
    sessionById: (id) =>
      orUnavailable('sessions', async () => {
        const text = await client.get(key(id));
        return text === null ? undefined : (JSON.parse(text) as SessionRow);
      }),
    // The id stays in its account's set until it expires there; ending it again is harmless.
    deleteSession: (id) =>
      orUnavailable('sessions', async () => {
        await client.del(key(id));
      }),
    deleteSessionsOf: (accountId) =>
      orUnavailable('sessions', async () => Number(await client.eval(DELETE_ALL, 1, accountKey(accountId), key('')))),
  };
}

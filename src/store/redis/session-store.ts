/**
 * Web sessions in Redis, so a browser signed in through one instance is signed in on every
 * other, and a sign-out ends the session everywhere at once. Each session is one key that
 * Redis expires with the session.
 */
import type { SessionRow, SessionStore } from '../accounts.ts';
import type { Redis } from './connect.ts';
import { orUnavailable } from './unavailable.ts';

export function redisSessionStore(client: Redis, prefix: string, clock: () => number = Date.now): SessionStore {
  const key = (id: string) => `${prefix}session:${id}`;
  return {
    insertSession: (row) =>
      orUnavailable('sessions', async () => {
        await client.set(key(row.id), JSON.stringify(row), 'PX', Math.max(1, row.expiresAt - clock()));
      }),
    sessionById: (id) =>
      orUnavailable('sessions', async () => {
        const text = await client.get(key(id));
        return text === null ? undefined : (JSON.parse(text) as SessionRow);
      }),
    deleteSession: (id) =>
      orUnavailable('sessions', async () => {
        await client.del(key(id));
      }),
  };
}

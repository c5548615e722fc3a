/**
 * One-time login codes for the web pages: an administrator issues one (`quarry accounts
 * login-code EMAIL` or the administration page) and reads it to the holder, who signs in
 * with it once within 30 minutes. Only a hash of the normalised code is stored.
 */
import { randomInt } from 'node:crypto';
import { hashSecret } from '../auth/secrets.ts';
import { QuarryError } from '../errors/index.ts';
import type { LoginCodeStore } from '../store/web.ts';
import type { Account } from '../identity/account-types.ts';

/** How long a login code stays usable. */
export const LOGIN_CODE_LIFETIME_MS = 30 * 60 * 1000;

/** Letters and digits that cannot be mistaken for each other when read out or typed. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 12;

/** Upper-cases and drops spaces and dashes, so `abcd-efgh-jkmn` equals `ABCDEFGHJKMN`. */
export function normaliseLoginCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

/**
 * A new login code: 12 characters from a 32-letter alphabet (60 bits), shown in groups of
 * four (`ABCD-EFGH-JKMN`).
 */
export function newLoginCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code.replace(/(.{4})(?=.)/g, '$1-');
}

/**
 * Issues a login code for the account; its earlier unused codes stop working. Only an active
 * account may sign in, so a pending, suspended or closed one gets no code
 * (WEB_LOGIN_CODE_ACCOUNT_INACTIVE): it would be refused, and spent, at sign-in.
 *
 * @example const { code } = await issueLoginCode(store, account, Date.now()); // 'K3QZ-8MWN-TBXA'
 */
export async function issueLoginCode(
  store: LoginCodeStore,
  account: Pick<Account, 'id' | 'email' | 'state'>,
  now: number,
): Promise<{ code: string; expiresAt: number }> {
  if (account.state !== 'active') {
    throw QuarryError.of('WEB_LOGIN_CODE_ACCOUNT_INACTIVE', {
      params: { account: account.email, state: account.state },
    });
  }
  const code = newLoginCode();
  const expiresAt = now + LOGIN_CODE_LIFETIME_MS;
  await store.saveLoginCode({
    codeHash: hashSecret(normaliseLoginCode(code)),
    accountId: account.id,
    createdAt: now,
    expiresAt,
  });
  return { code, expiresAt };
}

/** The account a presented code belongs to (using the code up), or undefined. */
export async function consumeLoginCode(store: LoginCodeStore, code: string, now: number): Promise<number | undefined> {
  const normalised = normaliseLoginCode(code);
  if (normalised === '') return undefined;
  return store.consumeLoginCode(hashSecret(normalised), now);
}

/**
 * Whether an account may act: only an active one may. One rule for every way in, so the API's
 * token exchange and checks, the web sign-in, the web session on each request and the
 * administration page all refuse a pending, suspended or closed account with the same coded
 * answer (403, saying whom to contact).
 */
import { QuarryError, type ErrorCode } from '../errors/index.ts';
import type { AccountState } from '../identity/account-types.ts';

const REFUSAL_BY_STATE: Readonly<Record<AccountState, ErrorCode | undefined>> = {
  active: undefined,
  pending: 'SERVICE_ACCOUNT_PENDING',
  suspended: 'SERVICE_ACCOUNT_SUSPENDED',
  closed: 'SERVICE_ACCOUNT_CLOSED',
};

/**
 * The refusal for an account in `state`, naming `contact` (the administrator); undefined for
 * an active account.
 *
 * @example standingRefusal('suspended', 'admin@example.org')?.code // 'SERVICE_ACCOUNT_SUSPENDED'
 */
export function standingRefusal(state: AccountState, contact: string): QuarryError | undefined {
  const code = REFUSAL_BY_STATE[state];
  return code === undefined ? undefined : QuarryError.of(code, { params: { contact } });
}

/** Throws the refusal of a non-active account (SERVICE_ACCOUNT_PENDING, _SUSPENDED or _CLOSED). */
export function requireActive(account: { readonly state: AccountState }, contact: string): void {
  const refusal = standingRefusal(account.state, contact);
  if (refusal) throw refusal;
}

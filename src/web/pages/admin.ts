/**
 * `/admin`: for administrator accounts. Lists the accounts (pending ones first), searched
 * by address or name, filtered by state, a page at a time; activates and suspends them
 * (never the administrator's own), edits subscriptions, and issues one-time login codes.
 */
import type { Account } from '../../identity/account-types.ts';
import { FAMILIES } from '../../identity/account-types.ts';
import type { QuarryError } from '../../errors/index.ts';
import { SOURCE_NAMES } from '../../model/types.ts';
import { html, type Html } from '../html.ts';
import { csrfField, errorBox, noticeBox, page, when, type PageContext } from '../layout.ts';

/** What the list shows: a search over address and name, a state, a page. */
export interface AccountFilter {
  readonly q: string;
  readonly state: Account['state'] | 'all';
  /** 1-based. */
  readonly page: number;
}

export const ACCOUNTS_PER_PAGE = 25;

export interface AdminData {
  readonly accounts: readonly Account[];
  readonly adminIds: ReadonlySet<number>;
  /** The signed-in administrator, whose own row offers no suspension. */
  readonly selfId: number;
  readonly filter: AccountFilter;
  readonly error?: QuarryError;
  readonly notice?: string;
  /** The organization groups have a page of their own (`/admin/groups`). */
  readonly offersGroups?: boolean;
  /** A login code just issued, shown once. */
  readonly loginCode?: { readonly email: string; readonly code: string; readonly expiresAt: string };
}

const STATE_ORDER = { pending: 0, active: 1, suspended: 2, closed: 3 } as const;
const STATES = Object.keys(STATE_ORDER) as Account['state'][];

/** Reads `?q=&state=&page=`; anything unknown falls back to everything, page 1. */
export function accountFilterOf(query: Readonly<Record<string, unknown>>): AccountFilter {
  const q = typeof query.q === 'string' ? query.q.trim().slice(0, 200) : '';
  const state = STATES.find((s) => s === query.state) ?? 'all';
  const pageNumber = Number(query.page);
  return { q, state, page: Number.isInteger(pageNumber) && pageNumber > 0 ? pageNumber : 1 };
}

/**
 * The accounts the filter selects, pending first then by address, and the page asked for
 * (the last page when it asks past the end).
 */
export function selectAccounts(
  accounts: readonly Account[],
  filter: AccountFilter,
): { rows: Account[]; matching: number; page: number; pages: number } {
  const needle = filter.q.toLowerCase();
  const matching = accounts
    .filter((a) => filter.state === 'all' || a.state === filter.state)
    .filter(
      (a) =>
        needle === '' ||
        a.email.toLowerCase().includes(needle) ||
        (a.name ?? '').toLowerCase().includes(needle) ||
        (a.username ?? '').toLowerCase().includes(needle),
    )
    .sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state] || a.email.localeCompare(b.email));
  const pages = Math.max(1, Math.ceil(matching.length / ACCOUNTS_PER_PAGE));
  const pageNumber = Math.min(filter.page, pages);
  const start = (pageNumber - 1) * ACCOUNTS_PER_PAGE;
  return { rows: matching.slice(start, start + ACCOUNTS_PER_PAGE), matching: matching.length, page: pageNumber, pages };
}

function pageHref(filter: AccountFilter, pageNumber: number): string {
  const params = new URLSearchParams();
  if (filter.q !== '') params.set('q', filter.q);
  if (filter.state !== 'all') params.set('state', filter.state);
  if (pageNumber > 1) params.set('page', String(pageNumber));
  const text = params.toString();
  return text === '' ? '/admin' : `/admin?${text}`;
}

function activateForm(ctx: PageContext, account: Account): Html {
  return html`<form method="post" action="/admin/accounts/${account.id}/activate" class="inline-form">${csrfField(ctx)}<button type="submit" aria-label="Activate ${account.email}">Activate</button></form>`;
}

function accountRow(ctx: PageContext, account: Account, isAdmin: boolean, isSelf: boolean): Html {
  const id = `acct-${account.id}`;
  const sources = account.subscription.sources === 'all' ? 'all' : account.subscription.sources.join(', ');
  return html`<tr id="${id}" data-email="${account.email}">
  <td data-label="Account"><strong>${account.email}</strong>${account.name ? html`<br><span class="muted">${account.name}</span>` : ''}${isAdmin ? html`<br><span class="muted">administrator${isSelf ? ' (you)' : ''}</span>` : ''}</td>
  <td data-label="State"><span class="state state-${account.state}">${account.state}</span><br><span class="muted">since ${when(account.stateChangedAt)}</span></td>
  <td data-label="Actions">
    ${(account.state === 'pending' || account.state === 'suspended') && activateForm(ctx, account)}
    ${account.state === 'active' && !isSelf && html`<a class="button danger" href="/admin/accounts/${account.id}/suspend" aria-label="Suspend ${account.email}">Suspend</a>`}
    ${
      account.state === 'active' &&
      html`<form method="post" action="/admin/accounts/${account.id}/login-code" class="inline-form">${csrfField(ctx)}<button type="submit" class="secondary" aria-label="Issue a login code for ${account.email}">Login code</button></form>`
    }
  </td>
  <td data-label="Subscription and limit">
    <form method="post" action="/admin/accounts/${account.id}/subscription">
      ${csrfField(ctx)}
      <fieldset><legend>Families</legend>
      ${FAMILIES.map(
        (f) =>
          html`<label><input type="checkbox" name="families" value="${f}"${account.subscription.families.includes(f) ? html` checked` : ''}> ${f === 'token' ? 'token-path' : 'auth-path'}</label>`,
      )}
      </fieldset>
      <label for="${id}-sources">Sources (<code>all</code> or a comma-separated list of ${SOURCE_NAMES.join(', ')})</label>
      <input type="text" id="${id}-sources" name="sources" value="${sources}">
      <label for="${id}-limit">Query requests per minute (empty: the family defaults)</label>
      <input type="number" id="${id}-limit" name="queriesPerMinute" min="1" step="1" value="${account.limits.queriesPerWindow === undefined ? '' : String(account.limits.queriesPerWindow)}">
      <button type="submit" class="secondary" aria-label="Save subscription for ${account.email}">Save subscription</button>
    </form>
  </td>
</tr>`;
}

export function adminPage(ctx: PageContext, data: AdminData): Html {
  const { filter } = data;
  const { rows, matching, page: pageNumber, pages } = selectAccounts(data.accounts, filter);
  const pending = data.accounts.filter((a) => a.state === 'pending').length;
  const filtered = filter.q !== '' || filter.state !== 'all';
  return page(ctx, {
    title: 'Administration',
    body: html`<h1>Administration</h1>
${data.error && errorBox(data.error)}
${noticeBox(data.notice)}
${
  data.loginCode &&
  html`<div class="notice ok" role="status" id="login-code">
  <p>Login code for <strong>${data.loginCode.email}</strong>, valid once until ${when(data.loginCode.expiresAt)}: shown only now.</p>
  <div class="new-key"><code id="login-code-value">${data.loginCode.code}</code>
  <button type="button" class="secondary" data-copy="login-code-value" aria-describedby="code-copy-status">Copy the code</button>
  <span id="code-copy-status" role="status" class="muted"></span></div>
</div>`
}
${data.offersGroups && html`<p><a href="/admin/groups">Organization groups</a>: the funder and research organization groups queries search.</p>`}
<p>${data.accounts.length} account${data.accounts.length === 1 ? '' : 's'}, ${pending} waiting for activation. Accounts move pending → active ⇄ suspended; only active accounts can sign in (suspending one signs it out everywhere), and only they get login codes. The command line (<code>quarry accounts ...</code>) can also create and close accounts.</p>
<form method="get" action="/admin" class="card account-filter" role="search" aria-label="Find accounts">
  <div><label for="account-search">Address or name contains</label>
  <input type="search" id="account-search" name="q" value="${filter.q}"></div>
  <div><label for="account-state-filter">State</label>
  <select id="account-state-filter" name="state">
    <option value="all">any state</option>
    ${STATES.map((s) => html`<option value="${s}"${filter.state === s ? html` selected` : ''}>${s}</option>`)}
  </select></div>
  <button type="submit" class="secondary">Find</button>
  ${filtered && html`<a href="/admin" class="button secondary">Show all</a>`}
</form>
<p id="accounts-shown" role="status">${
      matching === 0
        ? 'No account matches.'
        : `Accounts ${(pageNumber - 1) * ACCOUNTS_PER_PAGE + 1}–${(pageNumber - 1) * ACCOUNTS_PER_PAGE + rows.length} of ${matching}${filtered ? ' matching' : ''}.`
    }</p>
<div class="table-wrap"><table id="accounts" class="stack-on-phone">
  <caption class="visually-hidden">Accounts</caption>
  <thead><tr><th scope="col">Account</th><th scope="col">State</th><th scope="col">Actions</th><th scope="col">Subscription and limit</th></tr></thead>
  <tbody>${rows.map((a) => accountRow(ctx, a, data.adminIds.has(a.id), a.id === data.selfId))}</tbody>
</table></div>
${
  pages > 1 &&
  html`<nav class="pager" aria-label="Account pages">
  ${pageNumber > 1 ? html`<a class="button secondary" href="${pageHref(filter, pageNumber - 1)}" rel="prev">Previous page</a>` : ''}
  <span>Page ${pageNumber} of ${pages}</span>
  ${pageNumber < pages ? html`<a class="button secondary" href="${pageHref(filter, pageNumber + 1)}" rel="next">Next page</a>` : ''}
</nav>`
}`,
  });
}

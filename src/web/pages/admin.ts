/**
 * `/admin`: for administrator accounts. Lists every account (pending ones first), activates
 * and suspends them, edits subscriptions, and issues one-time login codes.
 */
import type { Account } from '../../accounts/types.ts';
import { FAMILIES } from '../../accounts/types.ts';
import type { QuarryError } from '../../errors/index.ts';
import { html, type Html } from '../html.ts';
import { csrfField, errorBox, noticeBox, page, when, type PageContext } from '../layout.ts';

export interface AdminData {
  readonly accounts: readonly Account[];
  readonly adminIds: ReadonlySet<number>;
  readonly error?: QuarryError;
  readonly notice?: string;
  /** A login code just issued, shown once. */
  readonly loginCode?: { readonly email: string; readonly code: string; readonly expiresAt: string };
}

const STATE_ORDER = { pending: 0, active: 1, suspended: 2, closed: 3 } as const;

function actionForm(ctx: PageContext, account: Account, action: 'activate' | 'suspend', label: string): Html {
  return html`<form method="post" action="/admin/accounts/${account.id}/${action}" class="inline-form">${csrfField(ctx)}<button type="submit" class="${action === 'suspend' ? 'danger' : ''}" aria-label="${label} ${account.email}">${label}</button></form>`;
}

function accountRow(ctx: PageContext, account: Account, isAdmin: boolean): Html {
  const id = `acct-${account.id}`;
  const sources = account.subscription.sources === 'all' ? 'all' : account.subscription.sources.join(', ');
  return html`<tr id="${id}" data-email="${account.email}">
  <td><strong>${account.email}</strong>${account.name ? html`<br><span class="muted">${account.name}</span>` : ''}${isAdmin ? html`<br><span class="muted">administrator</span>` : ''}</td>
  <td><span class="state state-${account.state}">${account.state}</span><br><span class="muted">since ${when(account.stateChangedAt)}</span></td>
  <td>
    ${(account.state === 'pending' || account.state === 'suspended') && actionForm(ctx, account, 'activate', 'Activate')}
    ${account.state === 'active' && actionForm(ctx, account, 'suspend', 'Suspend')}
    ${
      account.state !== 'closed' &&
      html`<form method="post" action="/admin/accounts/${account.id}/login-code" class="inline-form">${csrfField(ctx)}<button type="submit" class="secondary" aria-label="Issue a login code for ${account.email}">Login code</button></form>`
    }
  </td>
  <td>
    <form method="post" action="/admin/accounts/${account.id}/subscription">
      ${csrfField(ctx)}
      <fieldset><legend>Families</legend>
      ${FAMILIES.map(
        (f) =>
          html`<label><input type="checkbox" name="families" value="${f}"${account.subscription.families.includes(f) ? html` checked` : ''}> ${f === 'token' ? 'token-path' : 'auth-path'}</label>`,
      )}
      </fieldset>
      <label for="${id}-sources">Sources (<code>all</code> or a comma-separated list)</label>
      <input type="text" id="${id}-sources" name="sources" value="${sources}">
      <label for="${id}-limit">Query requests per minute (empty: the family defaults)</label>
      <input type="number" id="${id}-limit" name="queriesPerMinute" min="1" step="1" value="${account.limits.queriesPerWindow === undefined ? '' : String(account.limits.queriesPerWindow)}">
      <button type="submit" class="secondary" aria-label="Save the subscription of ${account.email}">Save subscription</button>
    </form>
  </td>
</tr>`;
}

export function adminPage(ctx: PageContext, data: AdminData): Html {
  const sorted = [...data.accounts].sort(
    (a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state] || a.email.localeCompare(b.email),
  );
  const pending = sorted.filter((a) => a.state === 'pending').length;
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
<p>${data.accounts.length} account${data.accounts.length === 1 ? '' : 's'}, ${pending} waiting for activation. Accounts move pending → active ⇄ suspended; the command line (<code>quarry accounts ...</code>) can also create and close accounts.</p>
<div class="table-wrap"><table id="accounts">
  <caption class="visually-hidden">Accounts</caption>
  <thead><tr><th scope="col">Account</th><th scope="col">State</th><th scope="col">Actions</th><th scope="col">Subscription and limit</th></tr></thead>
  <tbody>${sorted.map((a) => accountRow(ctx, a, data.adminIds.has(a.id)))}</tbody>
</table></div>`,
  });
}

/**
 * `/account`: the account section. Status and what it means, the subscription (families,
 * sources, limits), keys for the auth-path family, password change for accounts that log in
 * with username and password, and the holder's recent usage.
 */
import type { Account, AccountState, ApiKeyInfo, DailyUsage } from '../../identity/account-types.ts';
import type { QuarryConfig } from '../../config.ts';
import type { QuarryError } from '../../errors/index.ts';
import { html, type Html } from '../html.ts';
import { csrfField, errorBox, noticeBox, page, when, type PageContext } from '../layout.ts';
import { createKeyForm, keyTable, newKeyBox, type NewKey } from './keys.ts';

/**
 * What each state means for the holder, in one or two sentences. Only an active account is
 * signed in, but the page shows the account as read while it is drawn (routes/account.ts
 * reads it again), so a suspension or closure that lands during the request is shown as such;
 * the next request is refused (web/plugin.ts). No account goes back to pending: that case
 * only keeps the switch total (sign-in tells a pending account, SERVICE_ACCOUNT_PENDING).
 */
function stateExplanation(state: AccountState, contact: string): string {
  switch (state) {
    case 'pending':
      return `Your account awaits activation by the administrator. Contact ${contact} if it takes long.`;
    case 'active':
      return 'Your account is active: you can generate keys, get tokens and run queries within your subscription.';
    case 'suspended':
      return `Your account is suspended: tokens and queries are refused (403) until the administrator reactivates it. Contact ${contact}.`;
    case 'closed':
      return `Your account is closed and cannot be used again. Contact ${contact} if you need access.`;
  }
}

export interface AccountData {
  readonly config: QuarryConfig;
  readonly baseUrl: string;
  readonly keys: readonly ApiKeyInfo[];
  readonly usage: readonly DailyUsage[];
  readonly newKey?: NewKey;
  readonly error?: QuarryError;
  readonly notice?: string;
}

const FAMILY_NAMES = { token: 'token-path (/v2, /v3)', auth: 'auth-path (/api/auth, /api/dsl)' } as const;

function limitsList(account: Account, config: QuarryConfig): Html {
  const r = config.rateLimits;
  const perWindow = (max: number, windowSeconds: number) =>
    `${max} per ${windowSeconds === 60 ? 'minute' : `${windowSeconds} seconds`}`;
  const override = account.limits;
  const effective = (rule: { max: number; windowSeconds: number }) =>
    perWindow(override.queriesPerWindow ?? rule.max, override.windowSeconds ?? rule.windowSeconds);
  if (!r.enabled) return html`<p>Rate limits are switched off on this server.</p>`;
  return html`<ul id="limits">
  <li>Token-path <code>/v2</code> queries: ${effective(r.tokenV2)} (${r.tokenV2.scope === 'account' ? 'per account' : 'per client address'})</li>
  <li>Token-path <code>/v3</code> queries: ${effective(r.tokenV3)} (${r.tokenV3.scope === 'account' ? 'per account' : 'per client address'})</li>
  <li>Auth-path queries and this console: ${effective(r.authPath)} (${r.authPath.scope === 'account' ? 'per account' : 'per client address'})</li>
  <li>Logins: ${perWindow(r.authentication.max, r.authentication.windowSeconds)} per client address</li>
  <li>Records per page at most 1000; query time at most ${Math.round(config.query.timeoutMs / 1000)} seconds</li>
  ${override.queriesPerWindow !== undefined || override.windowSeconds !== undefined ? html`<li>Your account has its own query limit, set by the administrator.</li>` : ''}
</ul>`;
}

function usageTable(usage: readonly DailyUsage[]): Html {
  if (usage.length === 0) return html`<p id="usage-empty">No queries in the last 30 days.</p>`;
  const total = usage.reduce((sum, d) => sum + d.requests, 0);
  const rejected = usage.reduce((sum, d) => sum + d.rejections, 0);
  return html`<p>${total} query request${total === 1 ? '' : 's'} and ${rejected} rate-limit rejection${rejected === 1 ? '' : 's'} in the last 30 days.</p>
<div class="table-wrap"><table id="usage">
  <caption class="visually-hidden">Requests per day</caption>
  <thead><tr><th scope="col">Day (UTC)</th><th scope="col">Query requests</th><th scope="col">Rate-limit rejections</th></tr></thead>
  <tbody>${[...usage].reverse().map((d) => html`<tr><td>${d.day}</td><td>${d.requests}</td><td>${d.rejections}</td></tr>`)}</tbody>
</table></div>`;
}

function passwordForm(ctx: PageContext, account: Account): Html | undefined {
  if (!account.hasPassword) return undefined;
  return html`<section aria-labelledby="password-title">
  <h2 id="password-title">Change your password</h2>
  <p>${account.username ? html`Your account logs in with the username <code>${account.username}</code> and this password (auth-path <code>{"username", "password"}</code> logins and this site).` : 'The password signs you in to this site.'}</p>
  <form method="post" action="/account/password" class="card">
    ${csrfField(ctx)}
    <label for="current-password">Current password</label>
    <input type="password" id="current-password" name="current" autocomplete="current-password" required>
    <label for="new-password">New password (at least 8 characters)</label>
    <input type="password" id="new-password" name="password" autocomplete="new-password" minlength="8" required>
    <label for="confirm-password">New password again</label>
    <input type="password" id="confirm-password" name="confirm" autocomplete="new-password" minlength="8" required>
    <button type="submit">Change password</button>
  </form>
</section>`;
}

export function accountPage(ctx: PageContext, account: Account, data: AccountData): Html {
  const { subscription } = account;
  const contact = data.config.adminContact;
  const key = data.newKey?.key ?? 'YOUR_API_KEY';
  const tokenExample = `curl -s '${data.baseUrl}/v3/token?api_key=${key}'`;
  const jwtExample = `curl -s -X POST '${data.baseUrl}/api/auth' -H 'Content-Type: application/json' -d '{"key": "${key}"}'`;
  return page(ctx, {
    title: 'Account',
    body: html`<h1>Your account</h1>
${data.error && errorBox(data.error)}
${noticeBox(data.notice)}
<section aria-labelledby="status-title">
  <h2 id="status-title">Status</h2>
  <p>${account.name ? html`${account.name}, ` : ''}${account.email}: <span class="state state-${account.state}" id="account-state">${account.state}</span> since ${when(account.stateChangedAt)}</p>
  <p id="state-explanation">${stateExplanation(account.state, contact)}</p>
</section>
<section aria-labelledby="subscription-title">
  <h2 id="subscription-title">Subscription</h2>
  <dl id="subscription">
    <dt>API families</dt><dd>${subscription.families.length === 0 ? 'none' : subscription.families.map((f) => FAMILY_NAMES[f]).join('; ')}</dd>
    <dt>Sources</dt><dd>${subscription.sources === 'all' ? 'all sources of this server' : subscription.sources.length === 0 ? 'none' : subscription.sources.join(', ')}</dd>
  </dl>
  <h3>Limits</h3>
  ${limitsList(account, data.config)}
  <p class="muted">To change your subscription or limits, contact ${contact}.</p>
</section>
<section aria-labelledby="keys-title">
  <h2 id="keys-title">API keys</h2>
  <p>One key serves every API family your subscription includes.</p>
  ${subscription.families.includes('token') && html`<p>Token-path family: trade the key for a token, then send it as <code>Authorization: Bearer</code>: <code>${tokenExample}</code></p>`}
  ${subscription.families.includes('auth') && html`<p>Auth-path family: log in with the key and receive a JWT, then send it as <code>Authorization: JWT</code>: <code>${jwtExample}</code></p>`}
  ${newKeyBox(data.newKey)}
  ${keyTable(ctx, data.keys, '/account')}
  ${createKeyForm(ctx, '/account/keys')}
</section>
${passwordForm(ctx, account)}
<section aria-labelledby="usage-title">
  <h2 id="usage-title">Recent usage</h2>
  ${usageTable(data.usage)}
</section>`,
  });
}

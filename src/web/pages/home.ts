/**
 * `/`: the API home page. Everyone sees what Quarry is and how to run a first query with
 * curl against this very server; someone signed out sees the sign-in forms and how to
 * request access; a signed-in holder generates, lists and revokes API keys.
 */
import type { ApiKeyInfo } from '../../identity/account-types.ts';
import type { QuarryConfig } from '../../config.ts';
import type { QuarryError } from '../../errors/index.ts';
import { html, type Html } from '../html.ts';
import { csrfField, errorBox, noticeBox, page, type PageContext } from '../layout.ts';
import { createKeyForm, keyTable, newKeyBox, type NewKey } from './keys.ts';

export interface HomeData {
  /** This server's address as the browser reached it (`http://127.0.0.1:8080`). */
  readonly baseUrl: string;
  readonly config: QuarryConfig;
  readonly keys?: readonly ApiKeyInfo[];
  readonly newKey?: NewKey;
  readonly error?: QuarryError;
  readonly notice?: string;
  /** The e-mail address typed into a sign-in form that failed, to show it again. */
  readonly email?: string;
  readonly next?: string;
}

/** Shell-quotes a value for a single-quoted argument. */
function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function curlExamples(baseUrl: string, config: QuarryConfig, key: string | undefined): Html {
  const k = key ?? 'YOUR_API_KEY';
  const token = [
    `TOKEN=$(curl -s ${sq(`${baseUrl}/v3/token?api_key=${k}`)})`,
    `curl -s -X POST ${sq(`${baseUrl}/v3/api/query`)} \\`,
    `  -H "Authorization: Bearer $TOKEN" \\`,
    `  --data-binary 'search publications for "climate change" return publications[id + title + year] limit 5'`,
  ].join('\n');
  const auth = [
    `JWT=$(curl -s -X POST ${sq(`${baseUrl}/api/auth`)} -H 'Content-Type: application/json' \\`,
    `  -d ${sq(JSON.stringify({ key: k }))} | sed -E 's/.*"token":"([^"]+)".*/\\1/')`,
    `curl -s -X POST ${sq(`${baseUrl}/api/dsl/v2`)} \\`,
    `  -H "Authorization: JWT $JWT" \\`,
    `  --data-binary 'search publications where year >= 2015 return year aggregate citations_total limit 10'`,
  ].join('\n');
  return html`<div class="grid">
  ${
    config.families.token &&
    html`<section class="card" aria-labelledby="token-path-title">
    <h3 id="token-path-title">Token-path family (<code>/v3</code>, <code>/v2</code>)</h3>
    <p>Trade the key for a token (valid ${Math.round(config.tokens.tokenPathLifetimeSeconds / 60)} minutes), then send the query text as the request body with <code>Authorization: Bearer</code>.</p>
    <pre id="curl-token-path">${token}</pre>
  </section>`
  }
  ${
    config.families.auth &&
    html`<section class="card" aria-labelledby="auth-path-title">
    <h3 id="auth-path-title">Auth-path family (<code>/api/dsl</code>)</h3>
    <p>Log in with the key for a JWT (valid ${Math.round(config.tokens.authPathLifetimeSeconds / 60)} minutes), then send queries with <code>Authorization: JWT</code>. Most client libraries and notebooks use this family.</p>
    <pre id="curl-auth-path">${auth}</pre>
  </section>`
  }
</div>
<p>Answers are JSON: one list per returned result, plus <code>_stats.total_count</code>. Errors come back as
<code>{"errors": {"query": {"header", "details", "code"}}}</code> with the status codes listed in the <a href="/docs">API reference</a> and every code in <a href="/docs/errors">Error codes</a>; the query language is described in the <a href="/docs/language">language reference</a>.</p>`;
}

function signInForms(ctx: PageContext, data: HomeData): Html {
  const next = data.next ?? '/';
  return html`<section id="sign-in" aria-labelledby="sign-in-title">
  <h2 id="sign-in-title">Sign in</h2>
  <div class="grid">
    <form method="post" action="/sign-in" class="card" aria-labelledby="pw-title">
      <h3 id="pw-title">With your password</h3>
      ${csrfField(ctx)}<input type="hidden" name="next" value="${next}">
      <label for="sign-in-email">E-mail address (or username)</label>
      <input type="text" id="sign-in-email" name="email" autocomplete="username" required value="${data.email ?? ''}">
      <label for="sign-in-password">Password</label>
      <input type="password" id="sign-in-password" name="password" autocomplete="current-password" required>
      <button type="submit" id="sign-in-submit">Sign in</button>
    </form>
    <form method="post" action="/sign-in/code" class="card" aria-labelledby="code-title">
      <h3 id="code-title">With a login code</h3>
      <p class="muted">The administrator can give you a one-time code (valid 30 minutes).</p>
      ${csrfField(ctx)}<input type="hidden" name="next" value="${next}">
      <label for="code-email">E-mail address</label>
      <input type="email" id="code-email" name="email" autocomplete="email" required value="${data.email ?? ''}">
      <label for="code-value">Login code</label>
      <input type="text" id="code-value" name="code" autocomplete="one-time-code" required placeholder="ABCD-EFGH-JKMN" spellcheck="false">
      <button type="submit" id="code-submit">Sign in with the code</button>
    </form>
  </div>
</section>
<section aria-labelledby="access-title">
  <h2 id="access-title">How to get access</h2>
  <p>Quarry is subscription-only: an administrator activates each account and decides which API families and sources it may use.
  To request access, contact ${data.config.adminContact}, or leave your address here; the administrator will activate the account and send you a login code.</p>
  <form method="post" action="/request-access" class="card" aria-labelledby="request-title">
    <h3 id="request-title">Request an account</h3>
    ${csrfField(ctx)}
    <label for="request-email">E-mail address</label>
    <input type="email" id="request-email" name="email" autocomplete="email" required>
    <label for="request-name">Name and organisation (optional)</label>
    <input type="text" id="request-name" name="name" maxlength="200" autocomplete="name">
    <button type="submit">Request access</button>
  </form>
</section>`;
}

// Only an active account is signed in (web/plugin.ts refuses any other), so the holder's
// sections need not explain another state: sign-in does (SERVICE_ACCOUNT_PENDING, ...).
function holderSection(ctx: PageContext, data: HomeData): Html {
  return html`<section aria-labelledby="keys-title">
  <h2 id="keys-title">Your API keys</h2>
  ${newKeyBox(data.newKey)}
  <p>A key works for both families (where your subscription allows). Keep keys secret; revoke a key you no longer use, and its tokens stop working at once.</p>
  ${keyTable(ctx, data.keys ?? [], '/')}
  ${createKeyForm(ctx, '/keys')}
</section>`;
}

export function homePage(ctx: PageContext, data: HomeData): Html {
  const account = ctx.account;
  return page(ctx, {
    title: 'API home',
    body: html`<h1>Quarry research-data API</h1>
<p>Quarry answers queries over publications, grants, researchers and organizations, written in a small text query language
(<code>search publications for "breast cancer" where year >= 2018 return funders limit 5</code>), with JSON results.
${account ? html`Try queries in the <a href="/console">query console</a> before scripting them.` : ''}</p>
${data.error && errorBox(data.error)}
${noticeBox(data.notice)}
${account ? holderSection(ctx, data) : signInForms(ctx, data)}
<section aria-labelledby="first-query-title">
  <h2 id="first-query-title">Your first query with curl</h2>
  <p>This server is at <code id="base-url">${data.baseUrl}</code>.${data.newKey ? ' The examples below use the key you just generated.' : ''}</p>
  ${curlExamples(data.baseUrl, data.config, data.newKey?.key)}
</section>`,
  });
}

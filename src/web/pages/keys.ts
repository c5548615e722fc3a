/** The API key parts shared by the home page and the account page: new-key box, key table, create form. */
import type { ApiKeyInfo } from '../../identity/account-types.ts';
import { html, type Html } from '../html.ts';
import { csrfField, when, type PageContext } from '../layout.ts';

/** A key just generated: its secret (shown once), its name, and what happens to a key it replaces. */
export interface NewKey {
  readonly key: string;
  readonly name: string;
  readonly rotatedFrom?: string;
}

/** The expiry choices of the key form, in days (0: never). */
export const EXPIRY_DAYS: readonly number[] = [0, 30, 90, 365];

/** Whether a key works now: no end, or an end still ahead (expiry, rotation grace). */
export function keyInUse(k: ApiKeyInfo, now = Date.now()): boolean {
  return k.revokedAt === null || Date.parse(k.revokedAt) > now;
}

/** The key just generated, shown this once, with a copy button. */
export function newKeyBox(newKey: NewKey | undefined): Html | undefined {
  if (!newKey) return undefined;
  return html`<div class="notice ok" role="status" id="new-key">
  <p><strong>Your new API key “${newKey.name}”.</strong> Copy it now: it is shown only this once, and Quarry keeps only a hash of it.</p>
  ${newKey.rotatedFrom && html`<p id="rotated-from">${newKey.rotatedFrom}</p>`}
  <div class="new-key"><code id="new-key-value">${newKey.key}</code>
  <button type="button" class="secondary" data-copy="new-key-value" aria-describedby="copy-status">Copy the key</button>
  <span id="copy-status" role="status" class="muted"></span></div>
</div>`;
}

export function createKeyForm(ctx: PageContext, action: string): Html {
  return html`<form method="post" action="${action}" class="card" aria-labelledby="create-key-title">
  <h3 id="create-key-title">Generate an API key</h3>
  ${csrfField(ctx)}
  <label for="key-name">Name for the key (where you will use it)</label>
  <input type="text" id="key-name" name="name" maxlength="100" placeholder="laptop, pipeline, notebook">
  <label for="key-expiry">Expires</label>
  <select id="key-expiry" name="expiresInDays">
    ${EXPIRY_DAYS.map((d) => html`<option value="${d}">${d === 0 ? 'never (until revoked)' : d === 365 ? 'in a year' : `in ${d} days`}</option>`)}
  </select>
  <button type="submit" id="generate-key">Generate key</button>
</form>`;
}

/** The account's keys with names, creation and last-use times, and a revoke button each. */
export function keyTable(ctx: PageContext, keys: readonly ApiKeyInfo[], back: string): Html {
  if (keys.length === 0) return html`<p>You have no API keys yet.</p>`;
  return html`<div class="table-wrap"><table id="key-list">
  <caption class="visually-hidden">Your API keys</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Starts with</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
  <tbody>${keys.map(
    (k) => html`<tr data-key-id="${k.id}">
    <td>${k.name}</td><td><code>${k.prefix}…</code></td><td>${when(k.createdAt)}</td><td>${when(k.lastUsedAt)}</td>
    <td>${keyInUse(k) ? (k.revokedAt === null ? 'active' : `active until ${when(k.revokedAt)}`) : `revoked ${when(k.revokedAt)}`}</td>
    <td>${
      keyInUse(k)
        ? html`<form method="post" action="/keys/${k.id}/rotate" class="inline-form">${csrfField(ctx)}<input type="hidden" name="back" value="${back}"><button type="submit" class="secondary" aria-label="Rotate the key ${k.name}">Rotate</button></form>
<a class="button danger" href="/keys/${k.id}/revoke?back=${encodeURIComponent(back)}" aria-label="Revoke the key ${k.name}">Revoke</a>`
        : ''
    }</td>
  </tr>`,
  )}</tbody>
</table></div>`;
}

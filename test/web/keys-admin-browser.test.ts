// Keys and administration in Chromium: a reload after "Generate key" makes no second key,
// revoke and suspend ask first, a rotated key's predecessor works through its grace period,
// the administrator's own row has no suspend, sources are checked, accounts are searched and
// paged; every page (the sign-in pages in each of their states, home, account, console,
// admin, a confirmation, /docs) has no axe violation and fits a 390 px screen
// (test-results/web/*-1366.png and *-390.png).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { assertAccessible, launchBrowser, newContext, PHONE, shots, signIn, WIDE } from './helpers/browser.ts';
import { ADMIN, HOLDER, PENDING, startWebServer, type WebServer } from './helpers/server.ts';

let server: WebServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let external: string[];

before(async () => {
  server = await startWebServer();
  browser = await launchBrowser();
  ({ context, page, external } = await newContext(browser, server.url));
});

after(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
});

describe('keys and administration in the browser', () => {
  test('the signed-out home page is accessible', async () => {
    await context.clearCookies();
    await page.goto(`${server.url}/`);
    await assertAccessible(page, 'the signed-out home page');
    await shots(page, 'home-signed-out');
  });

  test('the sign-in pages are accessible in each state: sent from a page, refused, access requested, signed out, pending', async () => {
    await context.clearCookies();
    await page.goto(`${server.url}/console`);
    assert.equal(new URL(page.url()).pathname, '/', 'a page that needs an account sends the visitor to sign in');
    await assertAccessible(page, 'the sign-in page sent from the console');
    await shots(page, 'sign-in-from-console');

    await page.getByLabel('E-mail address (or username)').fill(HOLDER.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    assert.match((await page.locator('.error-box').textContent()) ?? '', /\S/);
    await assertAccessible(page, 'a refused password');
    await shots(page, 'sign-in-refused');

    await page.locator('#code-email').fill(HOLDER.email);
    await page.locator('#code-value').fill('ABCD-EFGH-JKMN');
    await page.getByRole('button', { name: 'Sign in with the code' }).click();
    assert.match((await page.locator('.error-box').textContent()) ?? '', /code/i);
    await assertAccessible(page, 'a refused login code');
    await shots(page, 'sign-in-code-refused');

    await page.locator('#request-email').fill('new.person@example.org');
    await page.getByLabel('Name and organisation (optional)').fill('New Person, Example University');
    await page.getByRole('button', { name: 'Request access' }).click();
    await page.locator('.notice').first().waitFor();
    assert.equal((await server.accounts.getAccount('new.person@example.org')).state, 'pending');
    await assertAccessible(page, 'the page after an access request');
    await shots(page, 'access-requested');

    // Only an active account may sign in: a pending one is told why, and whom to contact.
    await page.getByLabel('E-mail address (or username)').fill(PENDING.email);
    await page.getByLabel('Password', { exact: true }).fill(PENDING.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    assert.match(
      (await page.locator('.error-box').textContent()) ?? '',
      /awaits activation by the administrator[^]*contact data-office@example\.org/,
    );
    assert.ok(!(await context.cookies()).some((c) => c.name === 'quarry_session'), 'no session');
    await assertAccessible(page, 'a sign-in refused for a pending account');
    await shots(page, 'sign-in-pending');

    await signIn(page, server.url, HOLDER.email, HOLDER.password);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/notice=signed-out/);
    await assertAccessible(page, 'the page after signing out');
    await shots(page, 'signed-out');
  });

  test('a reload after generating a key shows the page again without the key and makes no second key', async () => {
    await signIn(page, server.url, HOLDER.email, HOLDER.password);
    await page.getByLabel('Name for the key (where you will use it)').fill('laptop');
    await page.getByRole('button', { name: 'Generate key' }).click();
    await page.locator('#new-key-value').waitFor();
    assert.equal(new URL(page.url()).pathname, '/', 'the browser is on the page the POST redirected to');
    const key = (await page.locator('#new-key-value').textContent())?.trim() ?? '';
    assert.match(key, /^qry_/);
    await assertAccessible(page, 'the home page with a new key');
    await shots(page, 'home-new-key');
    await page.reload();
    assert.equal(await page.locator('#new-key-value').count(), 0, 'the key is shown once');
    const keys = await server.accounts.listKeys(HOLDER.email);
    assert.deepEqual(
      keys.map((k) => k.name),
      ['laptop'],
      'one key, however often the page is reloaded',
    );

    // The same name again is refused, with the reason on the page.
    await page.getByLabel('Name for the key (where you will use it)').fill('laptop');
    await page.getByRole('button', { name: 'Generate key' }).click();
    assert.match((await page.locator('.error-box').textContent()) ?? '', /already have a key named "laptop"/);
    assert.equal((await server.accounts.listKeys(HOLDER.email)).length, 1);
  });

  test('revoking a key asks first; cancel keeps it', async () => {
    await page.goto(`${server.url}/account`);
    await assertAccessible(page, 'the account page');
    await shots(page, 'account');
    const row = page.locator('#key-list tr', { hasText: 'laptop' });
    await row.getByRole('link', { name: 'Revoke the key laptop' }).click();
    assert.match((await page.locator('h1').textContent()) ?? '', /Revoke the key “laptop”\?/);
    await assertAccessible(page, 'the revoke confirmation');
    await shots(page, 'confirm-revoke');
    await page.getByRole('link', { name: 'Cancel' }).click();
    assert.equal(new URL(page.url()).pathname, '/account');
    assert.equal((await server.accounts.listKeys(HOLDER.email))[0]?.revokedAt, null);
    await row.getByRole('link', { name: 'Revoke the key laptop' }).click();
    await page.getByRole('button', { name: 'Revoke the key' }).click();
    await page.locator('.notice', { hasText: 'The key is revoked' }).waitFor();
    assert.notEqual((await server.accounts.listKeys(HOLDER.email))[0]?.revokedAt, null);
  });

  test('a key is generated with an expiry and rotated', async () => {
    await page.goto(`${server.url}/account`);
    await page.getByLabel('Name for the key (where you will use it)').fill('notebook');
    await page.getByLabel('Expires').selectOption('90');
    await page.getByRole('button', { name: 'Generate key' }).click();
    await page.locator('#new-key-value').waitFor();
    const row = page.locator('#key-list tr', { hasText: 'notebook' });
    assert.match((await row.textContent()) ?? '', /active until \d{4}-\d\d-\d\d/);
    const oldKey = (await page.locator('#new-key-value').textContent())?.trim() ?? '';
    await row.getByRole('button', { name: 'Rotate the key notebook' }).click();
    await page.locator('#rotated-from').waitFor();
    const key = (await page.locator('#new-key-value').textContent())?.trim() ?? '';
    assert.notEqual(key, oldKey);
    assert.equal((await fetch(`${server.url}/v3/token?api_key=${key}`)).status, 200);
    assert.equal(
      (await fetch(`${server.url}/v3/token?api_key=${oldKey}`)).status,
      200,
      'the old key works during its grace period',
    );
    assert.equal(
      await page.locator('#key-list tr', { hasText: 'notebook' }).count(),
      2,
      'old and new, during the grace period',
    );
    await assertAccessible(page, 'the account page after a rotation');
    await shots(page, 'account-rotated');
  });

  test('the console page is accessible before a query runs', async () => {
    await page.goto(`${server.url}/console`);
    await page.locator('body[data-console-ready="true"]').waitFor();
    await assertAccessible(page, 'the console');
    await shots(page, 'console-start');
  });

  test('administration: no suspend on the own row, suspend asks first, sources checked, search, phone layout', async () => {
    await signIn(page, server.url, ADMIN.email, ADMIN.password);
    await page.goto(`${server.url}/admin`);
    await assertAccessible(page, 'the administration page');
    await shots(page, 'admin');
    const own = page.locator('#accounts tr', { hasText: ADMIN.email });
    assert.equal(await own.getByRole('link', { name: /^Suspend/ }).count(), 0);

    const holderRow = page.locator('#accounts tr', { hasText: HOLDER.email });
    await holderRow.getByLabel('Sources').fill('publications, patentz');
    await holderRow.getByRole('button', { name: `Save subscription for ${HOLDER.email}` }).click();
    assert.match((await page.locator('.error-box').textContent()) ?? '', /there is no source 'patentz'/);
    assert.equal((await server.accounts.getAccount(HOLDER.email)).subscription.sources, 'all');

    await page.goto(`${server.url}/admin`);
    await page
      .locator('#accounts tr', { hasText: HOLDER.email })
      .getByRole('link', { name: `Suspend ${HOLDER.email}` })
      .click();
    await assertAccessible(page, 'the suspend confirmation');
    await page.getByRole('button', { name: 'Suspend the account' }).click();
    await page.locator('.notice', { hasText: 'The account is suspended' }).waitFor();
    assert.equal((await server.accounts.getAccount(HOLDER.email)).state, 'suspended');

    await page.getByLabel('Address or name contains').fill('ana@');
    await page.getByRole('button', { name: 'Find' }).click();
    assert.deepEqual(
      await page.locator('#accounts tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-email'))),
      [HOLDER.email],
    );
    await page.getByLabel('State').selectOption('pending');
    await page.getByRole('button', { name: 'Find' }).click();
    assert.match((await page.locator('#accounts-shown').textContent()) ?? '', /No account matches/);
    await page.getByRole('link', { name: 'Show all' }).click();

    // On a phone each account is a block: its buttons are inside the screen.
    await page.setViewportSize(PHONE);
    const pending = page.locator('#accounts tr', { hasText: 'pat@example.org' });
    const activate = await pending.getByRole('button', { name: /^Activate/ }).boundingBox();
    assert.ok(activate && activate.x >= 0 && activate.x + activate.width <= PHONE.width, 'Activate is on screen');
    await page.setViewportSize(WIDE);
    await shots(page, 'admin-all');
  });

  test('administration: accounts are paged, 25 to a page, and every account is on exactly one page', async () => {
    for (let i = 1; i <= 30; i++)
      await server.accounts.createAccount({ email: `reader${String(i).padStart(2, '0')}@example.org` });
    const all = (await server.accounts.listAccounts()).map((a) => a.email).sort();
    await page.goto(`${server.url}/admin`);
    const emails = () =>
      page.locator('#accounts tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-email') ?? ''));
    const first = await emails();
    assert.equal(first.length, 25);
    assert.equal(await page.locator('#accounts-shown').textContent(), `Accounts 1–25 of ${all.length}.`);
    await page.getByRole('link', { name: 'Next page' }).click();
    const second = await emails();
    assert.equal(await page.locator('#accounts-shown').textContent(), `Accounts 26–${all.length} of ${all.length}.`);
    assert.deepEqual([...first, ...second].sort(), all);
    assert.match((await page.locator('nav.pager').textContent()) ?? '', /Page 2 of 2/);
    await assertAccessible(page, 'the second page of accounts');
    await shots(page, 'admin-page-2');
    await page.getByRole('link', { name: 'Previous page' }).click();
    assert.deepEqual(await emails(), first);
  });

  test('the API reference is accessible', async () => {
    await page.goto(`${server.url}/docs`);
    await page.locator('.swagger-ui .information-container, .swagger-ui .info').first().waitFor();
    await assertAccessible(page, '/docs');
    await shots(page, 'docs');
  });

  test('no page made a request to another host', () => {
    assert.deepEqual(external, []);
  });
});

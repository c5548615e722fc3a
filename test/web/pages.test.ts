// The web pages over real HTTP without a browser: sign-in, sessions and their cookies, CSRF
// on every form, keys, the console's JSON endpoint against the API's answers, pending
// accounts, the administration page, login codes, password change and rate limits.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EXAMPLE_QUERIES } from '../../src/web/pages/console.ts';
import { ACCOUNTS_PER_PAGE } from '../../src/web/pages/admin.ts';
import { ADMIN, FormClient, HOLDER, PENDING, startWebServer, type WebServer } from './helpers/server.ts';

let server: WebServer;
before(async () => {
  // Every sign-in of this file comes from 127.0.0.1: the default 30 a minute would make the
  // outcome depend on where the minute boundary falls. The limits have tests of their own.
  server = await startWebServer({
    config: {
      rateLimits: {
        authPath: { max: 1000, windowSeconds: 60, scope: 'ip' },
        authentication: { max: 1000, windowSeconds: 60, scope: 'ip' },
      },
    },
  });
});
after(async () => {
  await server.close();
});

function codeOf(html: string): string | undefined {
  return /class="error-box" role="alert" data-code="([A-Z_]+)"/.exec(html)?.[1];
}

describe('signed out', () => {
  test('the home page explains the service, shows curl for both families with this address, and how to get access', async () => {
    const res = await new FormClient(server.url).get('/');
    assert.equal(res.status, 200);
    assert.match(res.text, /<h2 id="sign-in-title">Sign in<\/h2>/);
    assert.ok(
      res.text.includes(`curl -s &#39;${server.url}/v3/token?api_key=YOUR_API_KEY&#39;`),
      'token-path curl with this server',
    );
    assert.ok(res.text.includes(`${server.url}/api/auth`), 'auth-path curl with this server');
    assert.match(res.text, /How to get access/);
    assert.match(res.text, /data-office@example\.org/);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    // Nothing is loaded from another host.
    assert.doesNotMatch(res.text, /(src|href)="(https?:)?\/\//);
  });

  test('pages that need a session send the visitor to sign in and back', async () => {
    const client = new FormClient(server.url);
    for (const path of ['/account', '/console', '/admin']) {
      const res = await client.get(path);
      assert.equal(res.status, 303, path);
      assert.equal(res.headers.get('location'), `/?next=${encodeURIComponent(path)}#sign-in`);
    }
  });

  test('the console endpoint answers 401 WEB_SIGN_IN_REQUIRED in the API error shape', async () => {
    const client = new FormClient(server.url);
    await client.get('/');
    const res = await client.postJson('/console/api/query', { query: 'search grants return grants', version: 2 });
    assert.equal(res.status, 401);
    const body = JSON.parse(res.text);
    assert.equal(body.errors.query.code, 'WEB_SIGN_IN_REQUIRED');
    assert.equal(body.errors.query.header, 'Authentication Error');
  });
});

describe('sign-in', () => {
  test('a wrong password is refused with the API words and no session', async () => {
    const client = new FormClient(server.url);
    const res = await client.signIn(HOLDER.email, 'not the password');
    assert.equal(res.status, 401);
    assert.equal(codeOf(res.text), 'SERVICE_CREDENTIALS_INVALID');
    assert.match(res.text, /The credentials are not valid\./);
    assert.equal(client.cookie('quarry_session'), undefined);
    assert.ok(res.text.includes(`value="${HOLDER.email}"`), 'the address typed is kept');
  });

  test('a form without its CSRF token is refused with WEB_FORM_EXPIRED', async () => {
    const client = new FormClient(server.url);
    await client.get('/');
    const res = await client.post('/sign-in', { _csrf: 'forged', email: HOLDER.email, password: HOLDER.password });
    assert.equal(res.status, 403);
    assert.equal(codeOf(res.text), 'WEB_FORM_EXPIRED');
    assert.equal(client.cookie('quarry_session'), undefined);
    // A form posted from another site carries neither the cookie secret nor the token.
    const bare = await fetch(`${server.url}/sign-in`, {
      method: 'POST',
      body: new URLSearchParams({ email: HOLDER.email, password: HOLDER.password }),
      redirect: 'manual',
    });
    assert.equal(bare.status, 403);
  });

  test('the session cookie is HTTP-only and SameSite, and Secure behind HTTPS', async () => {
    const client = new FormClient(server.url);
    await client.get('/');
    const body = new URLSearchParams({ _csrf: client.csrf, email: HOLDER.email, password: HOLDER.password });
    const cookies = `quarry_csrf=${client.cookie('quarry_csrf')}`;
    const plain = await fetch(`${server.url}/sign-in`, {
      method: 'POST',
      body,
      headers: { cookie: cookies },
      redirect: 'manual',
    });
    assert.equal(plain.status, 303);
    const session = plain.headers.getSetCookie().find((c) => c.startsWith('quarry_session='));
    assert.ok(session);
    assert.match(session, /HttpOnly/);
    assert.match(session, /SameSite=Lax/);
    assert.doesNotMatch(session, /Secure/, 'plain HTTP on loopback cannot keep a Secure cookie');
    const proxied = await startWebServer({ config: { trustProxy: true } });
    try {
      const c2 = new FormClient(proxied.url);
      await c2.get('/');
      const res = await fetch(`${proxied.url}/sign-in`, {
        method: 'POST',
        body: new URLSearchParams({ _csrf: c2.csrf, email: HOLDER.email, password: HOLDER.password }),
        headers: { cookie: `quarry_csrf=${c2.cookie('quarry_csrf')}`, 'x-forwarded-proto': 'https' },
        redirect: 'manual',
      });
      assert.equal(res.status, 303);
      assert.match(res.headers.getSetCookie().find((c) => c.startsWith('quarry_session=')) ?? '', /; Secure/);
    } finally {
      await proxied.close();
    }
  });

  test('sign-in returns to a local page only', async () => {
    const client = new FormClient(server.url);
    await client.get('/');
    const res = await client.post('/sign-in', {
      email: HOLDER.email,
      password: HOLDER.password,
      next: '//evil.example/',
    });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/');
  });

  test('sign-out ends the session on the server', async () => {
    const client = new FormClient(server.url);
    await client.signIn(HOLDER.email, HOLDER.password);
    const session = client.cookie('quarry_session');
    assert.ok(session);
    await client.get('/');
    const out = await client.post('/sign-out');
    assert.equal(out.status, 303);
    assert.equal(await server.accounts.resolveSession(session), undefined);
  });
});

describe('keys on the home page', () => {
  test('a key is shown once after a redirect, listed by name, usable, and revoked after a confirmation', async () => {
    const client = new FormClient(server.url);
    await client.signIn(HOLDER.email, HOLDER.password);
    await client.get('/');
    const before = (await server.accounts.listKeys(HOLDER.email)).length;
    const created = await client.post('/keys', { name: 'pipeline <b>' });
    assert.equal(created.status, 303, 'POST-redirect-GET');
    assert.equal(created.headers.get('location'), '/#new-key');
    assert.ok(!created.text.includes('qry_'), 'the redirect carries no key');
    const shown = await client.get('/');
    const key = /<code id="new-key-value">([^<]+)<\/code>/.exec(shown.text)?.[1];
    assert.ok(key?.startsWith('qry_'));
    if (key === undefined) return;
    assert.ok(shown.text.includes('pipeline &lt;b&gt;'), 'the name is escaped');
    assert.ok(shown.text.includes(`api_key=${key}`), 'the curl examples use the new key');
    const token = await fetch(`${server.url}/v3/token?api_key=${key}`);
    assert.equal(token.status, 200);
    // A reload shows the page without the key and makes no second key.
    const again = await client.get('/');
    assert.ok(!again.text.includes(key), 'never shown again');
    assert.equal((await server.accounts.listKeys(HOLDER.email)).length, before + 1);
    const id = [...again.text.matchAll(/<tr data-key-id="(\d+)">\s*<td>pipeline &lt;b&gt;<\/td>/g)].at(-1)?.[1];
    assert.ok(id);
    // Revoking asks first: a POST without the confirmation goes to the question.
    const unconfirmed = await client.post(`/keys/${id}/revoke`, { back: '/' });
    assert.equal(unconfirmed.status, 303);
    assert.equal(unconfirmed.headers.get('location'), `/keys/${id}/revoke?back=/`);
    assert.equal((await fetch(`${server.url}/v3/token?api_key=${key}`)).status, 200, 'not revoked yet');
    const question = await client.get(`/keys/${id}/revoke?back=/`);
    assert.match(question.text, /Revoke the key “pipeline &lt;b&gt;”\?[\s\S]*stop working/);
    const revoked = await client.post(`/keys/${id}/revoke`, { back: '/', confirm: 'yes' });
    assert.equal(revoked.status, 303);
    assert.equal((await fetch(`${server.url}/v3/token?api_key=${key}`)).status, 401);
  });

  test('the account page offers keys for every family the subscription includes, with a curl for each', async () => {
    const client = new FormClient(server.url);
    await client.signIn(HOLDER.email, HOLDER.password);
    const page = (await client.get('/account')).text;
    assert.match(page, /<h2 id="keys-title">API keys<\/h2>/);
    assert.ok(!page.includes('Keys for the auth-path family'));
    assert.match(
      page,
      /Token-path family: [^<]*<code>Authorization: Bearer<\/code>: <code>curl -s &#39;http:\/\/[^<]+\/v3\/token\?api_key=YOUR_API_KEY&#39;<\/code>/,
    );
    assert.match(page, /Auth-path family: [^]*?<code>curl -s -X POST &#39;http:\/\/[^<]+\/api\/auth&#39;/);
  });

  test('key names are unique among an account’s keys in use', async () => {
    const client = new FormClient(server.url);
    await client.signIn(HOLDER.email, HOLDER.password);
    await client.get('/account');
    assert.equal((await client.post('/account/keys', { name: 'notebook' })).status, 303);
    await client.get('/account');
    const twice = await client.post('/account/keys', { name: 'Notebook' });
    assert.equal(twice.status, 400);
    assert.equal(codeOf(twice.text), 'SERVICE_INVALID_ACCOUNT_INPUT');
    assert.match(twice.text, /already have a key named &quot;Notebook&quot;/);
    assert.equal(
      (await server.accounts.listKeys(HOLDER.email)).filter((k) => k.name.toLowerCase() === 'notebook').length,
      1,
    );
  });

  test('a key may expire, and rotating shows the new key once while the old one works for a grace period', async () => {
    const client = new FormClient(server.url);
    await client.signIn(HOLDER.email, HOLDER.password);
    await client.get('/account');
    assert.equal((await client.post('/account/keys', { name: 'monthly', expiresInDays: '30' })).status, 303);
    const listed = await client.get('/account');
    const expected = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    assert.match(listed.text, new RegExp(`<td>monthly</td>[\\s\\S]*?active until ${expected}`));
    const bad = await client.post('/account/keys', { name: 'odd', expiresInDays: '12' });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /choose one of 30, 90, 365 days, or never/);

    await client.get('/account');
    const old = (await server.accounts.listKeys(HOLDER.email)).find((k) => k.name === 'monthly');
    assert.ok(old);
    const rotated = await client.post(`/keys/${old.id}/rotate`, { back: '/account' });
    assert.equal(rotated.status, 303);
    assert.equal(rotated.headers.get('location'), '/account#new-key');
    const shown = await client.get('/account');
    const key = /<code id="new-key-value">([^<]+)<\/code>/.exec(shown.text)?.[1] ?? '';
    assert.match(shown.text, /It replaces the key qry_[\w-]+…, which keeps working until/);
    assert.equal((await fetch(`${server.url}/v3/token?api_key=${key}`)).status, 200);
    const keys = await server.accounts.listKeys(HOLDER.email);
    const graceEnd = Date.parse(keys.find((k) => k.id === old.id)?.revokedAt ?? '');
    assert.ok(Math.abs(graceEnd - (Date.now() + 24 * 3600_000)) < 60_000, 'the old key works for a day');
    const successor = keys.find((k) => k.name.startsWith('monthly (rotated '));
    assert.ok(successor, 'the new key has a name of its own');
    assert.equal(successor.revokedAt?.slice(0, 10), expected, 'and the old key’s expiry');
    assert.match(shown.text, /monthly \(rotated \d{4}-\d{2}-\d{2}\)/);
    assert.ok(!(await client.get('/account')).text.includes(key), 'shown once');
  });

  test('a flash belongs to the session that made it', async () => {
    const client = new FormClient(server.url);
    await client.signIn(HOLDER.email, HOLDER.password);
    await client.get('/');
    await client.post('/keys', { name: 'flash check' });
    const flash = client.cookie('quarry_flash');
    assert.ok(flash && !flash.includes('qry_'), 'the cookie does not hold the key in the clear');
    const other = new FormClient(server.url);
    await other.signIn(HOLDER.email, HOLDER.password);
    const stolen = await fetch(`${server.url}/`, {
      headers: { cookie: `quarry_session=${other.cookie('quarry_session')}; quarry_flash=${flash}` },
    });
    assert.ok(!(await stolen.text()).includes('new-key-value'), 'another session cannot open it');
  });

  test("nobody revokes another holder's key", async () => {
    const { info } = await server.accounts.createKey(ADMIN.email, 'admin key');
    const client = new FormClient(server.url);
    await client.signIn(HOLDER.email, HOLDER.password);
    await client.get('/');
    const res = await client.post(`/keys/${info.id}/revoke`, { confirm: 'yes' });
    assert.equal(res.status, 404);
    assert.equal(codeOf(res.text), 'SERVICE_KEY_NOT_FOUND');
    assert.equal((await server.accounts.listKeys(ADMIN.email)).find((k) => k.id === info.id)?.revokedAt, null);
  });
});

describe('the console endpoint', () => {
  async function holderClient(): Promise<FormClient> {
    const client = new FormClient(server.url);
    await client.signIn(HOLDER.email, HOLDER.password);
    await client.get('/console');
    return client;
  }

  test('answers what the API answers, results and errors alike', async () => {
    const client = await holderClient();
    const { key } = await server.accounts.createKey(HOLDER.email, 'compare');
    const auth = await (
      await fetch(`${server.url}/api/auth`, {
        method: 'POST',
        body: JSON.stringify({ key }),
        headers: { 'content-type': 'application/json' },
      })
    ).json();
    for (const query of [
      'search publications where year >= 2018 return year return publications[id + title] limit 3',
      'search publications retrun year',
      'search publications where titel = "x" return publications',
    ]) {
      const api = await fetch(`${server.url}/api/dsl/v2`, {
        method: 'POST',
        body: query,
        headers: { authorization: `JWT ${auth.token}` },
      });
      const web = await client.postJson('/console/api/query', { query, version: 2 });
      assert.equal(web.status, api.status, query);
      assert.deepEqual(JSON.parse(web.text), await api.json(), query);
    }
  });

  test('every example query of the console runs', async () => {
    const client = await holderClient();
    for (const example of EXAMPLE_QUERIES) {
      const res = await client.postJson('/console/api/query', { query: example.query, version: 2 });
      assert.equal(res.status, 200, `${example.title}: ${res.text.slice(0, 300)}`);
    }
  });

  test('a request without the CSRF header is refused', async () => {
    const client = await holderClient();
    const res = await client.postJson(
      '/console/api/query',
      { query: 'describe version' },
      { 'x-csrf-token': 'forged' },
    );
    assert.equal(res.status, 403);
    assert.equal(JSON.parse(res.text).errors.query.code, 'WEB_FORM_EXPIRED');
  });

  test('runs version 1 when asked', async () => {
    const client = await holderClient();
    const res = await client.postJson('/console/api/query', { query: 'describe version', version: 1 });
    // The default configuration removed v1 in 2022: the API answers 410 naming v2.
    assert.equal(res.status, 410);
    assert.equal(JSON.parse(res.text).errors.query.code, 'SERVICE_VERSION_REMOVED');
    const v2 = await client.postJson('/console/api/query', { query: 'describe version', version: 2 });
    assert.deepEqual(JSON.parse(v2.text), { release: '2.14', version: '2.14.0' });
  });

  test('a pending account is told at sign-in that it is not activated, and gets no session', async () => {
    const client = new FormClient(server.url);
    const signIn = await client.signIn(PENDING.email, PENDING.password);
    assert.equal(signIn.status, 403);
    assert.equal(codeOf(signIn.text), 'SERVICE_ACCOUNT_PENDING');
    // Said plainly: the account waits for the administrator, and whom to write to.
    assert.match(
      signIn.text,
      /<li>Your account awaits activation by the administrator: until it is activated it cannot sign in, get tokens or run queries\. If it takes long, contact data-office@example\.org\.<\/li>/,
    );
    assert.equal(client.cookie('quarry_session'), undefined);
    const res = await client.postJson('/console/api/query', { query: 'search grants return grants' });
    assert.equal(res.status, 401);
  });

  test('an account not subscribed to the auth-path family is refused, as its JWT would be', async () => {
    const email = 'token.only@example.org';
    const password = 'token only password';
    await server.accounts.createAccount({ email, password, activate: true, subscription: { families: ['token'] } });
    const client = new FormClient(server.url);
    assert.equal((await client.signIn(email, password)).status, 303);
    await client.get('/console');
    const res = await client.postJson('/console/api/query', { query: 'describe version', version: 2 });
    assert.equal(res.status, 403);
    assert.equal(JSON.parse(res.text).errors.query.code, 'SERVICE_FAMILY_NOT_SUBSCRIBED');
    // The API says the same to the same account.
    const { key } = await server.accounts.createKey(email, 'compare');
    const login = await fetch(`${server.url}/api/auth`, {
      method: 'POST',
      body: JSON.stringify({ key }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(login.status, 403);
    assert.equal((await login.json()).errors.query.code, 'SERVICE_FAMILY_NOT_SUBSCRIBED');
  });

  test('an account without researchers gets no researcher records, from the console or either API family, even once the answer to a subscriber is cached', async () => {
    const query = 'search publications return researchers[basics + extras] limit 5';
    // A holder of every source asks first: the service's result cache now holds the answer.
    const holder = await holderClient();
    const full = await holder.postJson('/console/api/query', { query, version: 2 });
    assert.equal(full.status, 200, full.text.slice(0, 300));
    assert.ok(JSON.parse(full.text).researchers.some((r: object) => 'total_publications' in r));

    const email = 'publications.only@example.org';
    const password = 'publications only password';
    await server.accounts.createAccount({
      email,
      password,
      activate: true,
      subscription: { sources: ['publications'] },
    });
    const client = new FormClient(server.url);
    assert.equal((await client.signIn(email, password)).status, 303);
    await client.get('/console');
    const { key } = await server.accounts.createKey(email, 'compare');
    const jwt = (
      await (
        await fetch(`${server.url}/api/auth`, {
          method: 'POST',
          body: JSON.stringify({ key }),
          headers: { 'content-type': 'application/json' },
        })
      ).json()
    ).token as string;
    const bearer = await (await fetch(`${server.url}/v3/token?api_key=${encodeURIComponent(key)}`)).text();
    const api = async (path: string, text: string, authorization: string) => {
      const res = await fetch(`${server.url}${path}`, { method: 'POST', body: text, headers: { authorization } });
      return { status: res.status, text: await res.text() };
    };
    // The console, the auth-path and the token-path: one handler, one answer.
    const ask = async (text: string) => [
      await client.postJson('/console/api/query', { query: text, version: 2 }),
      await api('/api/dsl/v2', text, `JWT ${jwt}`),
      await api('/v3/api/query', text, `Bearer ${bearer}`),
    ];
    const bodyOf = (res: { text: string }) =>
      JSON.parse(res.text) as { errors: { query: Record<string, unknown> }; sources: object };

    for (const res of await ask(query)) {
      assert.equal(res.status, 403);
      const body = bodyOf(res);
      assert.equal(body.errors.query.code, 'SCHEMA_LINKED_SOURCE_NOT_SUBSCRIBED');
      assert.equal(body.errors.query.column, query.indexOf('extras') + 1);
      assert.doesNotMatch(JSON.stringify(body), /total_publications":\s*\d/);
    }
    for (const res of await ask('describe source researchers')) {
      assert.equal(res.status, 403);
      assert.equal(bodyOf(res).errors.query.code, 'SCHEMA_SOURCE_NOT_SUBSCRIBED');
    }
    // What the publications cover is answered: the researchers as the byline names them.
    for (const res of await ask('search publications return researchers[basics] limit 5'))
      assert.equal(res.status, 200);
    for (const res of await ask('describe schema'))
      assert.deepEqual(Object.keys(bodyOf(res).sources), ['publications']);
  });

  test('a browser gets a page for an unknown address; API clients keep the JSON error body', async () => {
    const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    const page = await fetch(`${server.url}/no-such-page/%3Cb%3Ex`, { headers: html });
    assert.equal(page.status, 404);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    const text = await page.text();
    assert.match(text, /<h1>Page not found<\/h1>/);
    assert.match(text, /href="\/"/);
    assert.doesNotMatch(text, /<b>x/, 'the address is escaped');
    for (const [path, headers] of [
      ['/no-such-page', {}],
      ['/no-such-page', { accept: 'application/json' }],
      ['/api/no-such-endpoint', html],
      ['/v3/no-such-endpoint', html],
    ] as const) {
      const res = await fetch(`${server.url}${path}`, { headers });
      assert.equal(res.status, 404, path);
      assert.match(res.headers.get('content-type') ?? '', /json/, path);
      const body = (await res.json()) as { errors: { query: { code: string } } };
      assert.equal(body.errors.query.code, 'SERVICE_ROUTE_NOT_FOUND', path);
    }
  });

  test('assets are counted in /metrics under their route pattern, not their content hash', async () => {
    const home = await (await fetch(`${server.url}/`)).text();
    const assets = [...home.matchAll(/\/assets\/[a-z]+\.[0-9a-f]+\.(?:css|js)/g)].map((m) => m[0]);
    assert.ok(assets.length > 0, 'the home page links its assets');
    for (const path of assets) assert.equal((await fetch(`${server.url}${path}`)).status, 200);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    const routes = metrics
      .split('\n')
      .filter((l) => l.startsWith('quarry_http_requests_total{'))
      .map((l) => /route="([^"]*)"/.exec(l)?.[1] ?? '');
    assert.ok(
      routes.some((r) => /^\/assets\/[a-z]+\.\{hash\}\.(css|js)$/.test(r)),
      routes.join(', '),
    );
    assert.equal(routes.filter((r) => /\/assets\/[a-z]+\.[0-9a-f]{6,}/.test(r)).length, 0, 'no hashed asset path');
  });

  test('console queries are timed in the query-duration metric like the API', async () => {
    const count = async () => {
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      // Summed over every other label (source, result, cost lane): one query adds one to one of them.
      return metrics
        .split('\n')
        .filter(
          (l) =>
            l.startsWith('quarry_query_duration_seconds_count{') &&
            l.includes('outcome="ok"') &&
            l.includes('family="auth"'),
        )
        .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
    };
    const before = await count();
    const client = await holderClient();
    const res = await client.postJson('/console/api/query', { query: 'describe version', version: 2 });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('server-timing') ?? '', /total;dur=/);
    assert.equal(await count(), before + 1);
  });
});

describe('rate limits and usage', () => {
  test('console queries count against the auth-path limit and show in the usage', async () => {
    const limited = await startWebServer({
      config: { rateLimits: { authPath: { max: 2, windowSeconds: 60, scope: 'account' } } },
    });
    try {
      const client = new FormClient(limited.url);
      await client.signIn(HOLDER.email, HOLDER.password);
      await client.get('/console');
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await client.postJson('/console/api/query', { query: 'describe version' })).status);
      assert.deepEqual(statuses, [200, 200, 429]);
      const refused = await client.postJson('/console/api/query', { query: 'describe version' });
      assert.equal(JSON.parse(refused.text).errors.query.code, 'SERVICE_RATE_LIMITED');
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      const page = await client.get('/account');
      const today = new Date().toISOString().slice(0, 10);
      // As on the API, refused requests count as rejections, not as requests.
      assert.match(page.text, new RegExp(`<tr><td>${today}</td><td>2</td><td>2</td></tr>`));
    } finally {
      await limited.close();
    }
  });
});

describe('administration', () => {
  test('only administrators see the page', async () => {
    const client = new FormClient(server.url);
    await client.signIn(HOLDER.email, HOLDER.password);
    const res = await client.get('/admin');
    assert.equal(res.status, 403);
    assert.equal(codeOf(res.text), 'WEB_ADMIN_REQUIRED');
    await client.get('/');
    const pending = await server.accounts.getAccount(PENDING.email);
    const post = await client.post(`/admin/accounts/${pending.id}/activate`);
    assert.equal(post.status, 403);
    assert.equal((await server.accounts.getAccount(PENDING.email)).state, 'pending');
  });

  test('an administrator edits a subscription, activates a requested account and issues a login code that works once', async () => {
    const requested = 'new.person@example.org';
    const visitor = new FormClient(server.url);
    await visitor.get('/');
    const request = await visitor.post('/request-access', { email: requested, name: '<img src=x onerror=alert(1)>' });
    assert.equal(request.status, 303);
    const account = await server.accounts.getAccount(requested);
    assert.equal(account.state, 'pending');

    const admin = new FormClient(server.url);
    await admin.signIn(ADMIN.email, ADMIN.password);
    const list = await admin.get('/admin');
    assert.equal(list.status, 200);
    assert.ok(list.text.includes('&lt;img src=x onerror=alert(1)&gt;'), 'names are escaped');
    const saved = await admin.post(`/admin/accounts/${account.id}/subscription`, {
      families: ['auth'],
      sources: 'publications, grants',
      queriesPerMinute: '12',
    });
    assert.equal(saved.status, 303);
    const edited = await server.accounts.getAccount(requested);
    assert.deepEqual(edited.subscription, { families: ['auth'], sources: ['publications', 'grants'] });
    assert.deepEqual(edited.limits, { queriesPerWindow: 12, windowSeconds: 60 });
    await admin.get('/admin');
    const bad = await admin.post(`/admin/accounts/${account.id}/subscription`, {
      families: ['auth'],
      sources: 'Not A Source!',
    });
    assert.equal(bad.status, 400);
    assert.equal(codeOf(bad.text), 'SERVICE_INVALID_ACCOUNT_INPUT');

    // Only an active account may sign in, so only an active one gets a code.
    assert.equal((await admin.post(`/admin/accounts/${account.id}/login-code`)).status, 409);
    assert.equal((await admin.post(`/admin/accounts/${account.id}/activate`)).status, 303);
    await admin.get('/admin');
    const issued = await admin.post(`/admin/accounts/${account.id}/login-code`);
    assert.equal(issued.status, 303, 'POST-redirect-GET');
    const code = /<code id="login-code-value">([A-Z0-9-]+)<\/code>/.exec((await admin.get('/admin')).text)?.[1];
    assert.ok(code);
    const person = new FormClient(server.url);
    await person.get('/');
    const wrongEmail = await person.post('/sign-in/code', { email: HOLDER.email, code });
    assert.equal(wrongEmail.status, 401);
    assert.equal(codeOf(wrongEmail.text), 'WEB_LOGIN_CODE_INVALID');
    // The code was spent by the attempt above: codes work once, whoever tries them.
    await admin.post(`/admin/accounts/${account.id}/login-code`);
    const code2 = /<code id="login-code-value">([A-Z0-9-]+)<\/code>/.exec((await admin.get('/admin')).text)?.[1] ?? '';
    assert.ok(!(await admin.get('/admin')).text.includes(code2), 'a reload shows no code and issues none');
    const ok = await person.post('/sign-in/code', { email: requested, code: code2.toLowerCase() });
    assert.equal(ok.status, 303);
    assert.ok(person.cookie('quarry_session'));
    const reuse = new FormClient(server.url);
    await reuse.get('/');
    const second = await reuse.post('/sign-in/code', { email: requested, code: code2 });
    assert.equal(codeOf(second.text), 'WEB_LOGIN_CODE_INVALID');
  });
});

describe('administration safeguards', () => {
  async function adminClient(path = '/admin'): Promise<FormClient> {
    const admin = new FormClient(server.url);
    await admin.signIn(ADMIN.email, ADMIN.password);
    await admin.get(path);
    return admin;
  }

  test('sources are checked against the schema', async () => {
    const admin = await adminClient();
    const holder = await server.accounts.getAccount(HOLDER.email);
    const bad = await admin.post(`/admin/accounts/${holder.id}/subscription`, {
      families: ['auth'],
      sources: 'publications, patentz',
    });
    assert.equal(bad.status, 400);
    assert.equal(codeOf(bad.text), 'SERVICE_INVALID_ACCOUNT_INPUT');
    assert.match(
      bad.text,
      /there is no source &#39;patentz&#39;[\s\S]*The sources are publications, grants, researchers, organizations/,
    );
    assert.equal((await server.accounts.getAccount(HOLDER.email)).subscription.sources, holder.subscription.sources);
  });

  test('suspending asks first, and is never offered or done on the administrator’s own account', async () => {
    const admin = await adminClient();
    const self = await server.accounts.getAccount(ADMIN.email);
    const page = await admin.get('/admin');
    const ownRow = /<tr id="acct-(\d+)"[\s\S]*?<\/tr>/g;
    const rows = [...page.text.matchAll(ownRow)];
    const mine = rows.find((r) => r[1] === String(self.id))?.[0] ?? '';
    assert.ok(mine.includes('(you)') && !mine.includes('Suspend'), 'no suspend on the own row');
    await admin.get('/admin');
    const refused = await admin.post(`/admin/accounts/${self.id}/suspend`, { confirm: 'yes' });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /cannot suspend your own account/);
    assert.equal((await server.accounts.getAccount(ADMIN.email)).state, 'active');

    const other = await server.accounts.createAccount({ email: 'to.suspend@example.org', activate: true });
    await admin.get('/admin');
    const unconfirmed = await admin.post(`/admin/accounts/${other.id}/suspend`);
    assert.equal(unconfirmed.status, 303);
    assert.equal(unconfirmed.headers.get('location'), `/admin/accounts/${other.id}/suspend`);
    assert.equal((await server.accounts.getAccount(other.id)).state, 'active');
    const question = await admin.get(`/admin/accounts/${other.id}/suspend`);
    assert.match(question.text, /Suspend to.suspend@example.org\?/);
    const done = await admin.post(`/admin/accounts/${other.id}/suspend`, { confirm: 'yes' });
    assert.equal(done.status, 303);
    assert.equal((await server.accounts.getAccount(other.id)).state, 'suspended');
  });

  test('accounts are searched, filtered by state and paged', async () => {
    for (let i = 0; i < 30; i++)
      await server.accounts.createAccount({ email: `bulk${String(i).padStart(2, '0')}@example.net` });
    const admin = await adminClient();
    const rowsOf = (text: string) => [...text.matchAll(/<tr id="acct-\d+" data-email="([^"]+)"/g)].map((m) => m[1]);
    const first = await admin.get('/admin?q=example.net&state=pending');
    assert.equal(rowsOf(first.text).length, ACCOUNTS_PER_PAGE);
    assert.match(first.text, /Accounts 1–25 of 30 matching/);
    assert.ok(first.text.includes('href="/admin?q=example.net&amp;state=pending&amp;page=2"'));
    const second = await admin.get('/admin?q=example.net&state=pending&page=2');
    assert.deepEqual(rowsOf(second.text), [
      'bulk25@example.net',
      'bulk26@example.net',
      'bulk27@example.net',
      'bulk28@example.net',
      'bulk29@example.net',
    ]);
    const active = await admin.get('/admin?q=bulk&state=active');
    assert.match(active.text, /No account matches/);
    const one = await admin.get('/admin?q=BULK07');
    assert.deepEqual(rowsOf(one.text), ['bulk07@example.net']);
  });
});

describe('account section', () => {
  test('shows the subscription and limits, and changes the password', async () => {
    const email = 'legacy@example.org';
    await server.accounts.createAccount({
      email,
      username: 'legacy_user',
      password: 'old password 1',
      activate: true,
      subscription: { families: ['auth'], sources: ['publications'] },
    });
    const client = new FormClient(server.url);
    await client.signIn('legacy_user', 'old password 1');
    const page = await client.get('/account');
    assert.match(page.text, /<dt>API families<\/dt><dd>auth-path \(\/api\/auth, \/api\/dsl\)<\/dd>/);
    assert.match(page.text, /<dt>Sources<\/dt><dd>publications<\/dd>/);
    assert.match(page.text, /Auth-path queries and this console: 1000 per minute/);
    const wrong = await client.post('/account/password', {
      current: 'nope nope',
      password: 'new password 2',
      confirm: 'new password 2',
    });
    assert.equal(codeOf(wrong.text), 'SERVICE_CREDENTIALS_INVALID');
    await client.get('/account');
    const changed = await client.post('/account/password', {
      current: 'old password 1',
      password: 'new password 2',
      confirm: 'new password 2',
    });
    assert.equal(changed.status, 303);
    assert.ok(await server.accounts.verifyPassword('legacy_user', 'new password 2'));
    const jwt = await fetch(`${server.url}/api/auth`, {
      method: 'POST',
      body: JSON.stringify({ username: 'legacy_user', password: 'new password 2' }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(jwt.status, 200);
  });
});

describe('assets', () => {
  test('the console bundle and styles are served from this server, compressed and cacheable', async () => {
    const client = new FormClient(server.url);
    await client.signIn(HOLDER.email, HOLDER.password);
    const page = await client.get('/console');
    const script = /<script type="module" src="(\/assets\/console\.[0-9a-f]{16}\.js)">/.exec(page.text)?.[1];
    assert.ok(script);
    const res = await fetch(server.url + script, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /javascript/);
    assert.match(res.headers.get('cache-control') ?? '', /immutable/);
    const text = await res.text();
    assert.ok(text.length > 10_000, 'the bundle holds the editor and the charts');
    assert.doesNotMatch(text, /import\s*\(\s*["']https?:/, 'no remote imports');
  });
});

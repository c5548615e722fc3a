// `/admin/groups` over real HTTP: only administrators see it or change anything, every form
// needs its CSRF token, a group defined from pasted ids or from an organization is answered by
// the API's queries at once, a refused form keeps what was typed and names the coded error, and
// removal goes through a confirmation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN, FormClient, HOLDER, startWebServer, type WebServer } from './helpers/server.ts';

let server: WebServer;
before(async () => {
  server = await startWebServer();
});
after(async () => {
  await server.close();
});

function codeOf(html: string): string | undefined {
  return /class="error-box" role="alert" data-code="([A-Z_]+)"/.exec(html)?.[1];
}

async function query(text: string): Promise<Record<string, unknown>> {
  return (await server.engine.run(text, { dslVersion: 2 })).result;
}

async function admin(): Promise<FormClient> {
  const client = new FormClient(server.url);
  await client.signIn(ADMIN.email, ADMIN.password);
  return client;
}

describe('organization groups page', () => {
  test('only administrators see it or change anything', async () => {
    const holder = new FormClient(server.url);
    await holder.signIn(HOLDER.email, HOLDER.password);
    const page = await holder.get('/admin/groups');
    assert.equal(page.status, 403);
    assert.equal(codeOf(page.text), 'WEB_ADMIN_REQUIRED');
    await holder.get('/');
    const post = await holder.post('/admin/groups', {
      source: 'funder_groups',
      name: 'Sneaky',
      members: 'grid.1',
    });
    assert.equal(post.status, 403);
    assert.deepEqual(
      (await query('search funder_groups where name = "Sneaky" return funder_groups[id]'))['funder_groups'],
      [],
    );
    const signedOut = await new FormClient(server.url).get('/admin/groups');
    assert.equal(signedOut.status, 303);
  });

  test('the accounts page links to it, and it lists both sources', async () => {
    const client = await admin();
    assert.match((await client.get('/admin')).text, /<a href="\/admin\/groups">Organization groups<\/a>/);
    const page = await client.get('/admin/groups');
    assert.equal(page.status, 200);
    assert.match(page.text, /<h2 id="funder_groups">funder_groups<\/h2>/);
    assert.match(page.text, /<h2 id="research_org_groups">research_org_groups<\/h2>/);
  });

  test('a group of pasted ids is saved, listed, escaped, and answered by queries at once', async () => {
    const client = await admin();
    await client.get('/admin/groups');
    const saved = await client.post('/admin/groups', {
      source: 'funder_groups',
      name: 'Funders <script>alert(1)</script>',
      id: 'web-funders',
      members: 'organization_id\ngrid.1008.9\nhttps://ror.org/01ev6gy70\n',
      organization: '',
    });
    assert.equal(saved.status, 303, saved.text);
    assert.match(
      saved.headers.get('location') ?? '',
      /^\/admin\/groups\?notice=saved#group-funder_groups-web-funders$/,
    );
    const page = await client.get(saved.headers.get('location') ?? '');
    assert.match(page.text, /The group is saved/);
    assert.ok(page.text.includes('Funders &lt;script&gt;alert(1)&lt;/script&gt;'), 'the name is escaped');
    assert.ok(!page.text.includes('<script>alert(1)'));
    assert.deepEqual(
      (await query('search funder_groups where id = "web-funders" return funder_groups'))['funder_groups'],
      [
        {
          id: 'web-funders',
          name: 'Funders <script>alert(1)</script>',
          organization_ids: ['grid.1008.9', 'https://ror.org/01ev6gy70'],
        },
      ],
    );
  });

  test('a group from an organization holds it (a generated organization has no children)', async () => {
    const [org] = (await query('search organizations return organizations[id] limit 1'))['organizations'] as {
      id: string;
    }[];
    assert.ok(org);
    const client = await admin();
    await client.get('/admin/groups');
    const saved = await client.post('/admin/groups', {
      source: 'research_org_groups',
      name: 'One organization',
      members: '',
      organization: org.id,
    });
    assert.equal(saved.status, 303, saved.text);
    assert.deepEqual(
      (
        await query(
          `search research_org_groups where organization_ids = "${org.id}" and id = "one-organization" return research_org_groups[organization_ids]`,
        )
      )['research_org_groups'],
      [{ organization_ids: [org.id] }],
    );
  });

  test('a refused form names the coded error, keeps what was typed, and stores nothing', async () => {
    const client = await admin();
    const cases: readonly (readonly [form: Record<string, string>, code: string, status: number])[] = [
      [{ source: 'funder_groups', name: 'Kept name', members: '', organization: '' }, 'GROUP_MEMBERS_OPTION', 400],
      [
        { source: 'funder_groups', name: 'Kept name', members: 'grid.1', organization: 'grid.2' },
        'GROUP_MEMBERS_OPTION',
        400,
      ],
      [{ source: 'university_groups', name: 'Kept name', members: 'grid.1' }, 'GROUP_UNKNOWN_SOURCE', 400],
      [{ source: 'funder_groups', name: 'Kept name', members: '[1, 2]' }, 'GROUP_MEMBERS_UNREADABLE', 400],
      [{ source: 'funder_groups', name: 'Kept name', id: 'no spaces please', members: 'grid.1' }, 'GROUP_BAD_ID', 400],
      [
        { source: 'funder_groups', name: 'Kept name', organization: 'grid.0000.none' },
        'GROUP_ORGANIZATION_NOT_FOUND',
        404,
      ],
    ];
    for (const [form, code, status] of cases) {
      await client.get('/admin/groups');
      const res = await client.post('/admin/groups', form);
      assert.equal(res.status, status, code);
      assert.equal(codeOf(res.text), code);
      assert.match(res.text, /id="group-name" name="name" required maxlength="200" value="Kept name"/);
    }
    assert.deepEqual(
      (await query('search funder_groups where name = "Kept name" return funder_groups[id]'))['funder_groups'],
      [],
    );
  });

  test('a form without its CSRF token is refused', async () => {
    const client = await admin();
    await client.get('/admin/groups');
    const res = await client.post('/admin/groups', {
      _csrf: 'forged',
      source: 'funder_groups',
      name: 'Forged',
      members: 'grid.1',
    });
    assert.equal(res.status, 403);
    assert.deepEqual(
      (await query('search funder_groups where name = "Forged" return funder_groups[id]'))['funder_groups'],
      [],
    );
  });

  test('removal asks first, then removes; an unknown group is a coded not_found', async () => {
    const client = await admin();
    await client.get('/admin/groups');
    await client.post('/admin/groups', { source: 'funder_groups', name: 'To remove', members: 'grid.1' });
    const confirm = await client.get('/admin/groups/funder_groups/to-remove/remove');
    assert.equal(confirm.status, 200);
    assert.match(confirm.text, /Remove the group To remove\?/);
    // A post without the confirmation's yes goes to the confirmation.
    const unconfirmed = await client.post('/admin/groups/funder_groups/to-remove/remove');
    assert.equal(unconfirmed.status, 303);
    assert.equal(unconfirmed.headers.get('location'), '/admin/groups/funder_groups/to-remove/remove');
    assert.equal(
      (
        (await query('search funder_groups where id = "to-remove" return funder_groups[id]'))[
          'funder_groups'
        ] as unknown[]
      ).length,
      1,
    );
    await client.get('/admin/groups/funder_groups/to-remove/remove');
    const removed = await client.post('/admin/groups/funder_groups/to-remove/remove', { confirm: 'yes' });
    assert.equal(removed.status, 303);
    assert.deepEqual(
      (await query('search funder_groups where id = "to-remove" return funder_groups[id]'))['funder_groups'],
      [],
    );
    const unknown = await client.get('/admin/groups/funder_groups/to-remove/remove');
    assert.equal(unknown.status, 404);
    assert.equal(codeOf(unknown.text), 'GROUP_NOT_FOUND');
  });
});

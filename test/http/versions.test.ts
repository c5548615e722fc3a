import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { jwtToken, opaqueToken, testApp } from './helpers/app.ts';

// spec/protocol.md §6, each period with an injected clock.
describe('DSL versions and their lifecycle', () => {
  const periods = [
    { name: 'before the alias moved (2021-06-01)', at: '2021-06-01T00:00:00Z', alias: 1, v1: 'deprecated' },
    { name: 'the instant the alias moves (2021-12-01T00:00Z)', at: '2021-12-01T00:00:00Z', alias: 2, v1: 'deprecated' },
    {
      name: 'after the alias moved, before removal (2022-03-31)',
      at: '2022-03-31T23:59:59Z',
      alias: 2,
      v1: 'deprecated',
    },
    { name: 'after removal (2022-04-01)', at: '2022-04-01T00:00:00Z', alias: 2, v1: 'removed' },
  ] as const;

  for (const period of periods) {
    test(period.name, async () => {
      const t = await testApp({ at: period.at, config: { rateLimits: { enabled: false } } });
      try {
        const authorization = `JWT ${await jwtToken(t)}`;
        const ask = (url: string) =>
          t.app.inject({ method: 'POST', url, headers: { authorization }, payload: 'describe version' });
        for (const alias of ['/api/dsl', '/api/dsl.json']) {
          const res = await ask(alias);
          assert.equal(res.statusCode, 200);
          assert.equal(res.json().release, period.alias === 1 ? '1.0' : '2.0', alias);
          assert.equal(t.engine.calls.at(-1)?.options.dslVersion, period.alias);
          assert.equal(res.headers.deprecation !== undefined, period.alias === 1, 'only v1 answers are deprecated');
        }
        const v2 = await ask('/api/dsl/v2');
        assert.equal(v2.json().release, '2.0');
        assert.equal(v2.headers.deprecation, undefined);
        assert.equal(v2.headers.sunset, undefined);

        const v1 = await ask('/api/dsl/v1');
        if (period.v1 === 'deprecated') {
          assert.equal(v1.statusCode, 200);
          assert.equal(v1.json().release, '1.0');
          assert.equal(v1.headers.deprecation, `@${Date.parse('2021-12-01T00:00:00Z') / 1000}`);
          assert.equal(v1.headers.sunset, 'Fri, 01 Apr 2022 00:00:00 GMT');
          assert.match(v1.headers.link as string, /rel="deprecation"/);
        } else {
          assert.equal(v1.statusCode, 410);
          const body = v1.json();
          assert.equal(body.errors.query.code, 'SERVICE_VERSION_REMOVED');
          assert.equal(body.errors.query.header, 'Version Removed');
          assert.match(body.errors.query.details[0], /\/api\/dsl\/v2/);
        }
        // The token-path runs v2 in every period.
        const bearer = await opaqueToken(t);
        for (const url of ['/v2/api/query', '/v3/api/query']) {
          const res = await t.app.inject({
            method: 'POST',
            url,
            headers: { authorization: `Bearer ${bearer}` },
            payload: 'describe version',
          });
          assert.equal(res.json().release, '2.0');
        }
      } finally {
        await t.close();
      }
    });
  }

  test('v1 removal is 410 even without credentials (the version is gone for everyone)', async () => {
    const t = await testApp();
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/dsl/v1', payload: 'describe version' });
      assert.equal(res.statusCode, 410);
    } finally {
      await t.close();
    }
  });

  test('the dates are configuration: "never" keeps v1, and an operator may pick their own', async () => {
    const keep = await testApp({ at: '2030-01-01T00:00:00Z', config: { versions: { v1RemovedFrom: null } } });
    try {
      const authorization = `JWT ${await jwtToken(keep)}`;
      const res = await keep.app.inject({
        method: 'POST',
        url: '/api/dsl/v1',
        headers: { authorization },
        payload: 'describe version',
      });
      assert.equal(res.statusCode, 200);
      assert.ok(res.headers.deprecation);
      assert.equal(res.headers.sunset, undefined, 'no sunset when v1 is never removed');
    } finally {
      await keep.close();
    }
    const own = await testApp({
      at: '2024-05-01T00:00:00Z',
      config: { versions: { aliasToV2From: '2024-06-01', v1RemovedFrom: '2025-01-01' } },
    });
    try {
      const authorization = `JWT ${await jwtToken(own)}`;
      const alias = await own.app.inject({
        method: 'POST',
        url: '/api/dsl',
        headers: { authorization },
        payload: 'describe version',
      });
      assert.equal(alias.json().release, '1.0');
      assert.equal(alias.headers.sunset, 'Wed, 01 Jan 2025 00:00:00 GMT');
      own.clock.set('2024-06-01T00:00:00Z');
      const fresh = `JWT ${await jwtToken(own)}`;
      const later = await own.app.inject({
        method: 'POST',
        url: '/api/dsl',
        headers: { authorization: fresh },
        payload: 'describe version',
      });
      assert.equal(later.json().release, '2.0');
    } finally {
      await own.close();
    }
  });
});

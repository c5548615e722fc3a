import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { invalidUtf8Offset } from '../../src/http/utf8.ts';
import { jwtToken, opaqueToken, testApp, type TestApp } from './helpers/app.ts';

describe('UTF-8 well-formedness (Unicode table 3-7)', () => {
  const cases: ReadonlyArray<[string, number[], number]> = [
    ['ASCII', [0x61, 0x62], -1],
    ['two, three and four bytes (é, €, 𝄞)', [0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9d, 0x84, 0x9e], -1],
    ['a lone continuation byte', [0x61, 0x80, 0x62], 1],
    ['a Latin-1 é (lead byte without continuation)', [0x63, 0x61, 0x66, 0xe9], 3],
    ['a truncated three-byte sequence at the end', [0x61, 0xe2, 0x82], 1],
    ['an overlong two-byte form of "/"', [0xc0, 0xaf], 0],
    ['an overlong three-byte form', [0x20, 0xe0, 0x80, 0xaf], 1],
    ['an encoded surrogate (U+D800)', [0x61, 0x61, 0xed, 0xa0, 0x80], 2],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 0],
    ['a byte that never occurs (0xFF)', [0x61, 0xff], 1],
    ['valid then invalid: the first bad byte is reported', [0xe2, 0x82, 0xac, 0x61, 0xc3, 0x28, 0xff], 4],
  ];
  for (const [name, bytes, offset] of cases) {
    test(`${name}: ${offset === -1 ? 'well formed' : `bad at byte ${offset}`}`, () => {
      assert.equal(invalidUtf8Offset(Uint8Array.from(bytes)), offset);
    });
  }
});

// Issue 12: an invalid UTF-8 body is refused with the byte offset, not decoded as U+FFFD.
describe('query bodies that are not UTF-8', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await testApp({ config: { rateLimits: { enabled: false } } });
  });
  afterEach(() => t.close());

  const latin1Query = Buffer.concat([
    Buffer.from('search publications for "caf', 'utf8'),
    Buffer.from([0xe9]),
    Buffer.from('" return publications', 'utf8'),
  ]);

  for (const family of ['token', 'auth'] as const) {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/json', undefined]) {
      test(`${family}-path, ${contentType ?? 'no content type'}: 400 SERVICE_BODY_NOT_UTF8 naming byte 28, engine not called`, async () => {
        const token = family === 'token' ? await opaqueToken(t) : await jwtToken(t);
        const res = await t.app.inject({
          method: 'POST',
          url: family === 'token' ? '/v3/api/query' : '/api/dsl/v2',
          headers: {
            authorization: `${family === 'token' ? 'Bearer' : 'JWT'} ${token}`,
            ...(contentType ? { 'content-type': contentType } : {}),
          },
          payload: latin1Query,
        });
        assert.equal(res.statusCode, 400, res.body);
        const error = res.json().errors.query;
        assert.equal(error.code, 'SERVICE_BODY_NOT_UTF8');
        assert.equal(error.header, 'Bad Request');
        assert.match(error.details[0], /not valid UTF-8: the byte at offset 28 \(0xE9\)/);
        assert.equal(t.engine.calls.length, 0);
      });
    }
  }

  test('the same query in UTF-8 reaches the engine exactly as sent', async () => {
    const token = await opaqueToken(t);
    const text = 'search publications for "café 𝄞" return publications';
    const res = await t.app.inject({
      method: 'POST',
      url: '/v3/api/query',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      payload: Buffer.from(text, 'utf8'),
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(t.engine.calls[0]?.text, text);
  });

  test('an auth body that is not UTF-8 is refused the same way', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth',
      headers: { 'content-type': 'application/json' },
      payload: Buffer.concat([Buffer.from('{"key": "'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().errors.query.code, 'SERVICE_BODY_NOT_UTF8');
    assert.match(res.json().errors.query.details[0], /offset 9 \(0xC3\)/);
  });
});

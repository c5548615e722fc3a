// The CLI's exit codes for the client's own errors, by category (src/cli/exit.ts): query
// errors 2, authentication and tokens 3, rate limits 4, network and unavailable services 5.
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { exitWithError } from '../../src/cli/exit.ts';
import { QuarryClientError } from '../../src/client/errors.ts';

afterEach(() => {
  process.exitCode = 0;
});

const cases: Array<[QuarryClientError, number]> = [
  [
    QuarryClientError.client('CLIENT_NETWORK_FAILED', {
      url: 'http://127.0.0.1:9',
      attempts: 5,
      reason: 'ECONNREFUSED',
    }),
    5,
  ],
  [
    QuarryClientError.client('CLIENT_SERVER_UNAVAILABLE', {
      status: 503,
      header: 'Service Unavailable',
      detail: 'busy',
      attempts: 5,
    }),
    5,
  ],
  [QuarryClientError.client('CLIENT_RATE_LIMIT_BUDGET_EXHAUSTED', { waitedSeconds: 300, budgetSeconds: 300 }), 4],
  [QuarryClientError.client('CLIENT_TOKEN_REFUSED_AFTER_LOGIN', { detail: 'The token has expired.' }), 3],
  [QuarryClientError.client('CLIENT_AUTHENTICATION_FAILED', { header: 'Authentication Error', detail: 'no' }), 3],
  [
    QuarryClientError.client('CLIENT_REQUEST_REFUSED', {
      status: 403,
      header: 'Permission Error',
      detail: 'suspended',
    }),
    3,
  ],
  [QuarryClientError.client('CLIENT_QUERY_REJECTED', { header: 'Semantic Error', detail: 'odd' }), 2],
  [QuarryClientError.client('CLIENT_DEPTH_LIMIT_REACHED', { done: 50000, total: 60000, maxDepth: 50000 }), 2],
  [QuarryClientError.client('CLIENT_NO_PROFILE', { name: 'default', path: '/tmp/p.json' }), 1],
];

for (const [error, code] of cases) {
  test(`${error.code} exits ${code}`, (t) => {
    t.mock.method(process.stderr, 'write', () => true);
    exitWithError(error);
    assert.equal(process.exitCode, code);
  });
}

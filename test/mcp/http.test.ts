// The MCP endpoint through the official SDK's client over Streamable HTTP, against the app
// listening on 127.0.0.1 with the real engine (SQLite and PostgreSQL) on the statement
// functions' small database: every tool answers, failures are tool errors with the service's
// code, a missing or revoked key is a 401 the client reports, and tool calls count against
// the account's limit.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AccountService } from '../../src/accounts/service.ts';
import { mcpTestService, TEST_ENGINES, type McpTestService } from './helpers.ts';

const TOOLS = [
  'check_researcher_ids',
  'classify',
  'describe_schema',
  'explain_query',
  'extract_affiliations',
  'extract_concepts',
  'extract_grants',
  'fetch_record',
  'identify_experts',
  'run_query',
];

interface TextResult {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
  structuredContent?: { error: { code: string } };
}

for (const engineKind of TEST_ENGINES)
  describe(`POST /mcp with the SDK client (${engineKind})`, { timeout: 90_000 }, () => {
    let service: McpTestService;
    let accounts: AccountService;
    let url: URL;
    let key: string;

    before(async () => {
      service = await mcpTestService(engineKind);
      ({ accounts, key } = service);
      url = new URL('/mcp', service.base);
    });
    after(() => service.close());

    async function connected(withKey: string | null = key): Promise<Client> {
      const client = new Client({ name: 'quarry-test', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(url, {
        requestInit: withKey === null ? {} : { headers: { Authorization: `Bearer ${withKey}` } },
      });
      await client.connect(transport);
      return client;
    }

    async function call(client: Client, name: string, args: Record<string, unknown>): Promise<TextResult> {
      const result = (await client.callTool({ name, arguments: args })) as unknown as TextResult;
      assert.equal(result.content[0]?.type, 'text');
      return result;
    }
    // The tools answer JSON of many shapes; the assertions below read into it.
    const json = (result: TextResult): any => JSON.parse(result.content[0]!.text); // eslint-disable-line @typescript-eslint/no-explicit-any

    test('lists every tool, each with a description and an object input schema', async () => {
      const client = await connected();
      try {
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
        for (const tool of tools) {
          assert.equal(tool.inputSchema.type, 'object', tool.name);
          assert.ok((tool.description ?? '').length > 40, tool.name);
        }
        const run = tools.find((t) => t.name === 'run_query');
        assert.deepEqual(run?.inputSchema.required, ['query']);
        const grants = tools.find((t) => t.name === 'extract_grants');
        assert.deepEqual(grants?.inputSchema.required, ['grant_number']);
        assert.equal((grants?.inputSchema.properties?.fundref as { type?: string }).type, 'string');
      } finally {
        await client.close();
      }
    });

    test('run_query answers the result with _stats and the next page', async () => {
      const client = await connected();
      try {
        const query = 'search grants return grants[id + title] sort by id asc limit 2';
        const result = await call(client, 'run_query', { query });
        assert.notEqual(result.isError, true, result.content[0]?.text);
        const body = json(result);
        assert.equal(body._stats.total_count, 5);
        assert.deepEqual(
          body.grants.map((g: { id: string }) => g.id),
          ['grant.1001', 'grant.1002'],
        );
        assert.deepEqual(body._next_page, { query: `${query} skip 2` });
        const last = json(await call(client, 'run_query', { query: `${query} skip 4` }));
        assert.deepEqual(
          last.grants.map((g: { id: string }) => g.id),
          ['grant.1005'],
        );
        assert.equal(last._next_page, undefined);
      } finally {
        await client.close();
      }
    });

    test('describe_schema answers one source with its fields, or the whole schema', async () => {
      const client = await connected();
      try {
        const grants = json(await call(client, 'describe_schema', { source: 'grants' }));
        assert.equal(grants.fields.title.type, 'string');
        assert.ok(Array.isArray(grants.search_fields));
        const all = json(await call(client, 'describe_schema', {}));
        assert.ok(all.sources.publications && all.sources.grants);
      } finally {
        await client.close();
      }
    });

    test('explain_query gives the position and the did-you-mean suggestion', async () => {
      const client = await connected();
      try {
        const query = 'search grants return grants[id + titel]';
        const explained = await call(client, 'explain_query', { query });
        assert.notEqual(explained.isError, true);
        const body = json(explained);
        assert.equal(body.valid, false);
        assert.equal(body.problems[0].line, 1);
        assert.equal(body.problems[0].column, query.indexOf('titel') + 1);
        assert.match(body.problems[0].message, /Did you mean 'title'\?/);
        assert.match(body.explanation, /\^\^\^\^\^/);
        const good = json(await call(client, 'explain_query', { query: 'search grants return grants[id + title]' }));
        assert.equal(good.valid, true);
      } finally {
        await client.close();
      }
    });

    test('fetch_record reads one record; an unknown id is a tool error', async () => {
      const client = await connected();
      try {
        const record = json(await call(client, 'fetch_record', { source: 'grants', id: 'grant.1002' }));
        assert.equal(record.id, 'grant.1002');
        assert.equal(typeof record.title, 'string');
        const missing = await call(client, 'fetch_record', { source: 'grants', id: 'grant.9"9' });
        assert.equal(missing.isError, true);
        assert.match(missing.content[0]!.text, /There is no grants record with the id 'grant.9"9'/);
        assert.equal(missing.structuredContent?.error.code, 'SERVICE_RECORD_NOT_FOUND');
      } finally {
        await client.close();
      }
    });

    test('the analytic functions run with typed inputs', async () => {
      const client = await connected();
      try {
        const grant = json(await call(client, 'extract_grants', { grant_number: 'R01 CA123456', funder_name: 'NCI' }));
        assert.deepEqual(grant, { grant_id: 'grant.1002' });
        const ids = json(await call(client, 'check_researcher_ids', { ids: ['ur.0100000002.02'] }));
        assert.deepEqual(ids, {
          researcher_ids: [{ id: 'ur.0100000002.02', obsolete: 1, redirect: ['ur.0100000001.01'] }],
        });
      } finally {
        await client.close();
      }
    });

    test('a bad query is a tool error with the message, the code and the place', async () => {
      const client = await connected();
      try {
        const result = await call(client, 'run_query', { query: 'search grants return grants[id + titel]' });
        assert.equal(result.isError, true);
        const text = result.content[0]!.text;
        assert.match(text, /Did you mean 'title'\?/);
        assert.match(text, /\[SCHEMA_UNKNOWN_FIELD\]/);
        assert.match(text, /\^\^\^\^\^/);
        const syntax = await call(client, 'run_query', { query: 'search grants return' });
        assert.equal(syntax.isError, true);
        assert.match(syntax.content[0]!.text, /\[DSL_/);
      } finally {
        await client.close();
      }
    });

    test('without a key the request is a 401 whose message the client reports', async () => {
      await assert.rejects(connected(null), (error: Error & { code?: number }) => {
        assert.equal(error.code, 401);
        assert.match(error.message, /Authorization: Bearer <API key>/);
        assert.match(error.message, /SERVICE_MCP_KEY_MISSING/);
        return true;
      });
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(res.status, 401);
      assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="Quarry"');
      const body = (await res.json()) as {
        jsonrpc: string;
        error: { code: number; data: { errors: { query: { code: string } } } };
      };
      assert.equal(body.jsonrpc, '2.0');
      assert.equal(body.error.code, -32001);
      assert.equal(body.error.data.errors.query.code, 'SERVICE_MCP_KEY_MISSING');
    });

    test('a revoked key is a 401, from its next request on', async () => {
      const { key: spare, info } = await accounts.createKey('ana@example.org', 'to revoke');
      const client = await connected(spare);
      await client.listTools();
      await accounts.revokeKey('ana@example.org', info.id);
      await assert.rejects(client.listTools(), (error: Error & { code?: number }) => {
        assert.equal(error.code, 401);
        assert.match(error.message, /SERVICE_CREDENTIALS_INVALID/);
        assert.doesNotMatch(error.message, new RegExp(spare));
        return true;
      });
      await client.close();
    });

    test('GET answers 405: a stateless server has no stream to offer', async () => {
      const res = await fetch(url, { headers: { accept: 'text/event-stream', authorization: `Bearer ${key}` } });
      assert.equal(res.status, 405);
      assert.equal(res.headers.get('allow'), 'POST');
    });

    test('tool calls count against the account limit; the refusal is a tool error with the wait', async () => {
      await accounts.createAccount({ email: 'busy@example.org', activate: true });
      await accounts.setLimits('busy@example.org', { queriesPerWindow: 2, windowSeconds: 60 });
      const client = await connected((await accounts.createKey('busy@example.org', 'busy')).key);
      try {
        await client.listTools(); // protocol messages are not counted
        for (let i = 0; i < 2; i++) {
          const ok = await call(client, 'describe_schema', { source: 'grants' });
          assert.notEqual(ok.isError, true);
        }
        const refused = await call(client, 'describe_schema', { source: 'grants' });
        assert.equal(refused.isError, true);
        assert.match(refused.content[0]!.text, /SERVICE_RATE_LIMITED/);
        assert.match(refused.content[0]!.text, /Retry after \d+ seconds/);
      } finally {
        await client.close();
      }
    });
  });

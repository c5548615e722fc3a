// `quarry mcp` as a desktop assistant starts it: the SDK's stdio client spawns the command,
// on a local database (--db) and on a remote Quarry (--url with the key in $QUARRY_KEY),
// lists the tools and calls them; standard output carries only the protocol.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mcpTestService, type McpTestService } from './helpers.ts';

const BIN = fileURLToPath(new URL('../../bin/quarry.js', import.meta.url));

interface TextResult {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
}

async function spawned(args: string[], env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'quarry-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', ...args],
      env: { ...getDefaultEnvironment(), ...env },
      stderr: 'pipe',
    }),
  );
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<TextResult> {
  return (await client.callTool({ name, arguments: args })) as TextResult;
}

describe('quarry mcp over stdio', { timeout: 90_000 }, () => {
  let service: McpTestService;
  before(async () => {
    service = await mcpTestService();
  });
  after(() => service.close());

  test('on a local database: lists the tools and answers queries and functions', async () => {
    const client = await spawned(['--db', service.dbPath]);
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.length >= 10);
      for (const name of ['run_query', 'describe_schema', 'explain_query', 'fetch_record', 'extract_grants'])
        assert.ok(
          tools.some((t) => t.name === name),
          name,
        );
      const result = await call(client, 'run_query', { query: 'search grants return grants[id] limit 3' });
      assert.notEqual(result.isError, true, result.content[0]?.text);
      const body = JSON.parse(result.content[0]!.text);
      assert.equal(body._stats.total_count, 5);
      assert.equal(body.grants.length, 3);
      assert.deepEqual(body._next_page, { query: 'search grants return grants[id] limit 3 skip 3' });
      const grant = await call(client, 'extract_grants', { grant_number: 'EP/K012345/1', funder_name: 'EPSRC' });
      assert.deepEqual(JSON.parse(grant.content[0]!.text), { grant_id: 'grant.1003' });
      const bad = await call(client, 'run_query', { query: 'search grants return grants[titel]' });
      assert.equal(bad.isError, true);
      assert.match(bad.content[0]!.text, /Did you mean 'title'\?.*\[SCHEMA_UNKNOWN_FIELD\]/);
    } finally {
      await client.close();
    }
  });

  test('on a remote Quarry with a key: the same tools through the client library', async () => {
    const client = await spawned(['--url', service.base], { QUARRY_KEY: service.key });
    try {
      const record = await call(client, 'fetch_record', {
        source: 'grants',
        id: 'grant.1001',
        fields: ['id', 'title'],
      });
      assert.notEqual(record.isError, true, record.content[0]?.text);
      assert.equal(JSON.parse(record.content[0]!.text).id, 'grant.1001');
      const bad = await call(client, 'run_query', { query: 'search grants return grants[titel]' });
      assert.equal(bad.isError, true);
      assert.match(bad.content[0]!.text, /SCHEMA_UNKNOWN_FIELD/);
    } finally {
      await client.close();
    }
  });

  test('on a remote Quarry with a wrong key: calls are tool errors that say so', async () => {
    const client = await spawned(['--url', service.base], { QUARRY_KEY: 'qry_not-a-key' });
    try {
      const refused = await call(client, 'run_query', { query: 'search grants return grants' });
      assert.equal(refused.isError, true);
      assert.match(refused.content[0]!.text, /SERVICE_CREDENTIALS_INVALID/);
      assert.doesNotMatch(refused.content[0]!.text, /qry_not-a-key/);
    } finally {
      await client.close();
    }
  });
});

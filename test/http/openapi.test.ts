// The API reference: the OpenAPI document /docs/json checked by a maintained validator
// (@seriousme/openapi-schema-validator) and for what a caller needs (every endpoint of both
// families, security schemes, query bodies with examples, every status with the error body,
// rate-limit headers, nothing of the web pages), its examples run on the demo data, Swagger
// UI's files compressed and cached, and the language reference pages.
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { SOURCE_FIELD_TABLES } from '../../src/model/sources.ts';
import { SOURCE_NAMES } from '../../src/model/types.ts';
import { addJwtSchemeWord } from '../../src/http/openapi.ts';
import { recordSchemaId } from '../../src/http/record-schemas.ts';
import { startWebServer, type WebServer } from '../web/helpers/server.ts';

interface Operation {
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  requestBody?: {
    content: Record<string, { schema: unknown; example?: unknown; examples?: Record<string, { value: string }> }>;
  };
  responses: Record<
    string,
    {
      description: string;
      headers?: Record<string, unknown>;
      content?: Record<string, { schema: { $ref?: string } & JsonSchema }>;
    }
  >;
  parameters?: Array<{ name: string; in: string }>;
}
interface JsonSchema {
  type?: string | string[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  description?: string;
  $ref?: string;
}

/** Where a value does not fit the subset of JSON Schema the record schemas use (type, anyOf, items). */
function mismatches(schema: JsonSchema, value: unknown, at: string): string[] {
  if (schema.anyOf) {
    const each = schema.anyOf.map((option) => mismatches(option, value, at));
    return each.some((found) => found.length === 0) ? [] : (each[0] ?? []);
  }
  if (schema.type === undefined) return [];
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const actual =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : Number.isInteger(value)
          ? 'integer'
          : typeof value === 'number'
            ? 'number'
            : typeof value;
  if (!types.includes(actual) && !(actual === 'integer' && types.includes('number')))
    return [`${at}: ${JSON.stringify(value)} is not ${types.join(' or ')}`];
  if (actual === 'array' && schema.items)
    return (value as unknown[]).flatMap((item, i) => mismatches(schema.items as JsonSchema, item, `${at}[${i}]`));
  return [];
}

interface Document {
  openapi: string;
  servers: Array<{ url: string; description: string }>;
  info: { license?: { name: string; identifier?: string } };
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, { type: string; scheme?: string; in?: string; name?: string }>;
    schemas: Record<string, unknown>;
  };
  tags: Array<{ name: string }>;
}

const TOKEN_QUERIES = ['/v2/api/query', '/v3/api/query'];
const AUTH_QUERIES = ['/api/dsl/v1', '/api/dsl/v2', '/api/dsl', '/api/dsl.json'];

describe('the OpenAPI document and the reference pages', { timeout: 60_000 }, () => {
  let server: WebServer;
  let doc: Document;
  before(async () => {
    server = await startWebServer();
    doc = (await server.app.inject({ method: 'GET', url: '/docs/json' })).json<Document>();
  });
  after(() => server?.close());

  test('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Parameters<Validator['validate']>[0]);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    assert.equal(validator.version, '3.1');
  });

  test('both families, every endpoint, tagged by family; web routes and assets left out', () => {
    const byTag = (tag: string) =>
      Object.entries(doc.paths)
        .filter(([, ops]) => Object.values(ops).some((op) => op.tags?.includes(tag)))
        .map(([path]) => path)
        .sort();
    assert.deepEqual(byTag('token-path'), ['/v2/api/query', '/v2/token', '/v3/api/query', '/v3/token']);
    assert.deepEqual(byTag('auth-path'), ['/api/auth', '/api/auth.json', ...AUTH_QUERIES].sort());
    assert.deepEqual(byTag('operations'), ['/healthz', '/metrics', '/readyz']);
    assert.deepEqual(byTag('mcp'), ['/mcp']);
    assert.deepEqual(
      Object.keys(doc.paths).sort(),
      [...byTag('token-path'), ...byTag('auth-path'), ...byTag('mcp'), ...byTag('operations')].sort(),
    );
    for (const ops of Object.values(doc.paths)) for (const op of Object.values(ops)) assert.ok(op.tags?.length);
    assert.deepEqual(doc.tags.map((t) => t.name).sort(), ['auth-path', 'mcp', 'operations', 'token-path']);
  });

  test('security schemes for the Bearer token, the JWT, the API key and the MCP key, each used by its routes', () => {
    const schemes = doc.components.securitySchemes;
    assert.deepEqual(schemes.bearerToken, { ...schemes.bearerToken, type: 'http', scheme: 'bearer' });
    assert.deepEqual(schemes.jwt, { ...schemes.jwt, type: 'apiKey', in: 'header', name: 'Authorization' });
    assert.deepEqual(schemes.apiKey, { ...schemes.apiKey, type: 'apiKey', in: 'query', name: 'api_key' });
    for (const path of TOKEN_QUERIES) assert.deepEqual(doc.paths[path]?.post?.security, [{ bearerToken: [] }]);
    for (const path of AUTH_QUERIES) assert.deepEqual(doc.paths[path]?.post?.security, [{ jwt: [] }]);
    for (const path of ['/v2/token', '/v3/token']) assert.deepEqual(doc.paths[path]?.get?.security, [{ apiKey: [] }]);
    for (const path of ['/api/auth', '/api/auth.json']) assert.deepEqual(doc.paths[path]?.post?.security, []);
    assert.deepEqual(schemes.mcpKey, { ...schemes.mcpKey, type: 'http', scheme: 'bearer' });
    assert.deepEqual(doc.paths['/mcp']?.post?.security, [{ mcpKey: [] }]);
  });

  test('servers, a licence, and every operation says its security (public ones an empty list)', () => {
    assert.deepEqual(doc.servers, [{ url: '/', description: 'This Quarry service' }]);
    assert.equal(doc.info.license?.identifier, 'MIT');
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) assert.ok(Array.isArray(op.security), `${method} ${path}`);
    for (const path of ['/healthz', '/readyz', '/metrics']) assert.deepEqual(doc.paths[path]?.get?.security, []);
  });

  test('query answers are typed per source from the data model, and real answers fit them', async () => {
    const result = doc.paths['/v3/api/query']?.post?.responses['200']?.content?.['application/json']?.schema as
      JsonSchema | undefined;
    assert.ok(result?.properties);
    for (const source of SOURCE_NAMES) {
      assert.deepEqual(result.properties[source], {
        type: 'array',
        items: { $ref: `#/components/schemas/${recordSchemaId(source)}` },
      });
      assert.ok(doc.components.schemas[recordSchemaId(source)], source);
    }
    const publication = doc.components.schemas['PublicationsRecord'] as JsonSchema;
    assert.deepEqual(publication.properties?.['year'], {
      anyOf: [{ type: 'integer' }, { type: 'null' }],
      description: (publication.properties?.['year'] as JsonSchema).description,
    });
    const key = (await server.accounts.createKey('ana@example.org', 'openapi records')).key;
    const token = (await server.app.inject({ method: 'GET', url: `/v3/token?api_key=${key}` })).body;
    // Every field each source has, so each field's schema meets a real value.
    for (const source of ['publications', 'grants', 'organizations', 'researchers', 'clinical_trials'] as const) {
      const fields = SOURCE_FIELD_TABLES[source].fields.map(([name]) => name).join(' + ');
      const query = `search ${source} return ${source}[${fields}] limit 3`;
      const res = await server.app.inject({
        method: 'POST',
        url: '/v3/api/query',
        headers: { authorization: `Bearer ${token}` },
        payload: query,
      });
      assert.equal(res.statusCode, 200, res.body);
      const records = res.json<Record<string, Array<Record<string, unknown>>>>()[source] ?? [];
      assert.ok(records.length > 0, query);
      const schema = doc.components.schemas[recordSchemaId(source)] as JsonSchema;
      for (const record of records)
        for (const [field, value] of Object.entries(record)) {
          const fieldSchema = schema.properties?.[field];
          assert.ok(fieldSchema, `${source}.${field} is in the schema`);
          assert.deepEqual(mismatches(fieldSchema, value, `${source}.${field}`), []);
        }
    }
  });

  test('Try it out adds the word JWT to a pasted token, and only when it is missing', async () => {
    const headers = (value: string) => addJwtSchemeWord({ headers: { Authorization: value } }).headers.Authorization;
    assert.equal(headers('eyJ.a.b'), 'JWT eyJ.a.b');
    assert.equal(headers('JWT eyJ.a.b'), 'JWT eyJ.a.b');
    assert.equal(headers('jwt eyJ.a.b'), 'jwt eyJ.a.b');
    assert.equal(headers('Bearer abc'), 'Bearer abc');
    const init = await server.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    assert.equal(init.statusCode, 200);
    assert.match(init.body, /"requestInterceptor":function addJwtSchemeWord/);
  });

  test('query bodies are text/plain with examples; every error status answers the error body', () => {
    for (const path of [...TOKEN_QUERIES, ...AUTH_QUERIES]) {
      const op = doc.paths[path]?.post;
      assert.ok(op, path);
      const text = op.requestBody?.content['text/plain'];
      assert.ok(text?.examples && Object.keys(text.examples).length >= 3, `${path}: examples`);
      const statuses = Object.keys(op.responses).sort();
      for (const status of ['200', '400', '401', '403', '429', '500', '503', '504'])
        assert.ok(statuses.includes(status), `${path} ${status}`);
      if (path === '/api/dsl/v1') assert.ok(statuses.includes('410'), 'v1 answers 410 once removed');
      for (const status of statuses.filter((s) => s !== '200')) {
        assert.equal(
          op.responses[status]?.content?.['application/json']?.schema.$ref,
          '#/components/schemas/ErrorBody',
          `${path} ${status}`,
        );
      }
      for (const header of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'])
        assert.ok(op.responses['200']?.headers?.[header], `${path} 200 ${header}`);
      assert.ok(op.responses['429']?.headers?.['Retry-After'], `${path} 429 Retry-After`);
      assert.ok(op.responses['503']?.headers?.['Retry-After'], `${path} 503 Retry-After`);
      assert.ok(op.responses['401']?.headers?.['WWW-Authenticate'], `${path} 401 WWW-Authenticate`);
      assert.ok(Object.keys(op.responses).every((s) => op.responses[s]?.description !== 'Default Response'));
    }
    assert.ok(doc.components.schemas.ErrorBody);
  });

  test('the query examples find records in the demo data', async () => {
    const key = (await server.accounts.createKey('ana@example.org', 'openapi examples')).key;
    const token = (await server.app.inject({ method: 'GET', url: `/v3/token?api_key=${key}` })).body;
    const examples = Object.values(
      doc.paths['/v3/api/query']?.post?.requestBody?.content['text/plain']?.examples ?? {},
    );
    assert.ok(examples.length > 0);
    for (const { value } of examples) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/v3/api/query',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        payload: value,
      });
      assert.equal(res.statusCode, 200, `${value}: ${res.body}`);
      const body = res.json<Record<string, unknown> & { _stats?: { total_count: number } }>();
      if (value.startsWith('search')) assert.ok((body._stats?.total_count ?? 0) > 0, `${value} finds nothing`);
    }
  });

  test('Swagger UI files are served compressed and cached', async () => {
    const plain = await server.app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
    const res = await server.app.inject({
      method: 'GET',
      url: '/docs/static/swagger-ui-bundle.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.match(String(res.headers['cache-control']), /max-age=[1-9]\d*/);
    assert.ok(res.rawPayload.length < plain.rawPayload.length / 2, `${res.rawPayload.length} bytes compressed`);
    assert.equal(gunzipSync(res.rawPayload).toString('utf8'), plain.body);
  });

  test('the language reference is served as pages, and the v1 migration-notes link lands on its section', async () => {
    for (const [url, heading] of [
      ['/docs/language', /<h1 id="[^"]*">/],
      ['/docs/errors', /<h3 id="schema_unknown_field"><code>SCHEMA_UNKNOWN_FIELD<\/code><\/h3>/],
    ] as const) {
      const res = await server.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.match(res.body, heading);
      assert.doesNotMatch(res.body, /<script/);
    }
    const home = await server.app.inject({ method: 'GET', url: '/' });
    assert.match(home.body, /href="\/docs\/language"/, 'the home page links the language reference');
    const [path, anchor] = server.config.versions.migrationNotes.split('#');
    const notes = await server.app.inject({ method: 'GET', url: path ?? '' });
    assert.equal(notes.statusCode, 200, server.config.versions.migrationNotes);
    assert.match(notes.body, new RegExp(`id="${anchor}"`));
  });
});

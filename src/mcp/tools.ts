/**
 * Quarry's MCP tools, defined once for both transports: the service's `POST /mcp`
 * (http/routes/mcp.ts) and `quarry mcp` over stdio (cli/commands/mcp.ts). Every tool turns
 * its input into DSL (version 2) and hands it to a `QuarryBackend`, which is the service's
 * query path for the caller or a local database or a remote Quarry; only `explain_query`
 * answers here, by parsing and validating. Every failure comes back as a tool result with
 * `isError: true` and the service's code and message, never as a protocol error.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { parse } from '../dsl/index.ts';
import { formatWithCaret, isQuarryError, QuarryError, type Problem } from '../errors/index.ts';
import { STATEMENT_FUNCTIONS } from '../functions/registry.ts';
import type { StatementFunction } from '../functions/types.ts';
import { SOURCE_MODULES, SOURCE_NAMES } from '../model/sources.ts';
import { validate } from '../schema/index.ts';
import { nextPageQuery } from './next-page.ts';
import { dslCall, dslString } from './dsl-text.ts';

/** A query result in the protocol's JSON shape. */
export type QueryResult = Record<string, unknown>;

/** Where the tools' queries run. */
export interface QuarryBackend {
  /** Runs one DSL query (version 2) for the caller. Throws QuarryError for anything the caller must be told. */
  query(text: string, signal?: AbortSignal): Promise<QueryResult>;
  /**
   * Called before every tool call (the service counts it against the caller's rate limit).
   * Throws QuarryError to refuse the call.
   */
  admit?(tool: string): Promise<void>;
  /** Reports an error that is not a QuarryError (a bug) and gives what the caller is told instead. */
  unexpected?(error: unknown): QuarryError;
}

/** The server's instructions: how an agent gets from a question to a query. */
const INSTRUCTIONS =
  'Quarry answers research-data questions (publications, grants, researchers, organizations, patents, ...) with a query language (DSL). ' +
  'Start with describe_schema to see the sources and their fields, then run_query. When a query fails, ' +
  'explain_query shows where and offers did-you-mean suggestions. fetch_record reads one record by id; ' +
  'the analytic tools (extract_grants, check_researcher_ids, extract_concepts, classify, extract_affiliations, identify_experts) run the statement functions.';

const QUERY_DESCRIPTION =
  'Runs one query in the Quarry DSL (version 2) and answers the result as JSON: one array per returned kind, `_stats.total_count` (records matching), ' +
  'and `_next_page` ({"query": ...}: call run_query again with it) when more records match. ' +
  'Shape: search SOURCE [for "full text"] [where FILTER] return SOURCE[fields] [sort by FIELD desc] [limit N [skip M]]; ' +
  'facets: return FACET [aggregate INDICATORS] [limit N]; several return phrases are allowed. ' +
  'Examples: search publications for "graphene" where year >= 2020 return publications[id + title + year] limit 10 | ' +
  'search grants where funders.id = "grid.1234.5" return funders limit 5 | describe source publications. ' +
  'limit is at most 1000, skip + limit at most 50000. Use describe_schema for names, explain_query when a query fails.';

/** The fields fetch_record returns when none are given: every fieldset of the source. */
function allFieldsets(source: string): string {
  const table = SOURCE_MODULES.find((m) => m.name === source)?.fieldTable;
  const names = table?.fieldsets.map((f) => f.name) ?? [];
  return names.length === 0 ? 'basics' : names.join(' + ');
}

/** A JSON text block. */
function json(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

/** One problem as an agent reads it: message, code and, with the query, a caret under the place. */
function describeProblem(problem: Problem, query: string | undefined): string {
  return query !== undefined && problem.position !== undefined && problem.span !== undefined
    ? formatWithCaret(query, problem)
    : `${problem.message}${problem.position ? ` (line ${problem.position.line}, column ${problem.position.column})` : ''} [${problem.code}]`;
}

/** The error as structured data: code, category, each problem with its position. */
function errorData(error: QuarryError): Record<string, unknown> {
  return {
    code: error.code,
    category: error.category,
    problems: error.problems.map((p) => ({
      code: p.code,
      message: p.message,
      ...(p.position ? { line: p.position.line, column: p.position.column } : {}),
    })),
  };
}

/** Any failure as a tool error: the service's message(s) and code, positions drawn under the query. */
export function toolError(error: unknown, backend: QuarryBackend, query?: string): CallToolResult {
  const quarryError = isQuarryError(error)
    ? error
    : (backend.unexpected?.(error) ?? QuarryError.of('INTERNAL', { params: { requestId: 'local' } }, { cause: error }));
  const text = quarryError.problems.map((p) => describeProblem(p, query)).join('\n');
  return {
    isError: true,
    content: [{ type: 'text', text }],
    structuredContent: { error: errorData(quarryError) },
  };
}

/**
 * The outcome of parsing and validating a query here, without running it: valid, or the
 * positioned problems with their did-you-mean suggestions.
 */
export function explainQuery(text: string): Record<string, unknown> {
  try {
    const { query, warnings } = validate(parse(text), { dslVersion: 2, source: text, statements: STATEMENT_FUNCTIONS });
    return {
      valid: true,
      kind: query.kind,
      ...(warnings.length > 0 ? { warnings } : {}),
      note: 'The query is valid for the schema (version 2). Running it also checks your subscription and the time limit.',
    };
  } catch (error) {
    if (!isQuarryError(error)) throw error;
    return {
      valid: false,
      ...errorData(error),
      explanation: error.problems.map((p) => describeProblem(p, text)).join('\n'),
    };
  }
}

/** A function parameter's type (`string`, `integer`, `list`, `string|list`, ...) as a schema. */
function parameterSchema(type: string): z.ZodType {
  const one = (name: string): z.ZodType => {
    switch (name) {
      case 'string':
        return z.string();
      case 'integer':
        return z.number().int();
      case 'number':
        return z.number();
      case 'boolean':
        return z.boolean();
      case 'list':
        return z.array(z.unknown());
      case 'object':
        return z.record(z.string(), z.unknown());
      default:
        return z.unknown();
    }
  };
  const parts = type.split('|').map((part) => one(part.trim()));
  const [first, second, ...rest] = parts;
  if (first === undefined) return z.unknown();
  return second === undefined ? first : z.union([first, second, ...rest]);
}

/** The input schema of a statement function's tool: one property per parameter. */
function functionShape(fn: StatementFunction): Record<string, z.ZodType> {
  return Object.fromEntries(
    fn.parameters.map((p) => {
      const schema = parameterSchema(p.type).describe(p.description);
      return [p.name, p.required ? schema : schema.optional()];
    }),
  );
}

// The input schemas, built once: a server is made for every HTTP request (stateless), and
// building the schemas was most of its cost.
const QUERY_INPUT = { query: z.string().min(1).describe('The query text in the Quarry DSL (version 2).') };
const DESCRIBE_INPUT = {
  source: z
    .enum(SOURCE_NAMES as [string, ...string[]])
    .optional()
    .describe('One source to describe.'),
  entity: z.string().optional().describe('One entity to describe (instead of a source).'),
};
const FETCH_INPUT = {
  source: z.enum(SOURCE_NAMES as [string, ...string[]]).describe('The source the record belongs to.'),
  id: z.string().min(1).describe('The record id, as query results give it.'),
  fields: z
    .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a field or fieldset name'))
    .min(1)
    .optional()
    .describe('Fields or fieldsets to return (default: every fieldset of the source).'),
};
const EXPERTS_INPUT = {
  concepts: z
    .string()
    .min(1)
    .describe('The concepts as a full-text expression, e.g. "\\"graphene\\" OR \\"semimetals\\"" or plain words.'),
  using: z.enum(['publications', 'grants']).optional().describe('The documents to match (default publications).'),
  where: z.string().optional().describe('A DSL filter on those documents, e.g. year >= 2018 (the text after `where`).'),
  fields: z
    .string()
    .optional()
    .describe('The researcher fields, e.g. basics or id + first_name + last_name (default basics).'),
  limit: z.number().int().min(1).max(1000).optional().describe('How many experts (default 20).'),
  skip: z.number().int().min(0).optional().describe('Experts to skip, for the next page (needs limit).'),
};
/** Each statement function's input schema, by name. */
const FUNCTION_INPUTS: ReadonlyMap<string, Record<string, z.ZodType>> = new Map(
  [...STATEMENT_FUNCTIONS.values()].map((fn) => [fn.name, functionShape(fn)]),
);

/** Registers every Quarry tool on `server`, each running through `backend`. */
export function registerQuarryTools(server: McpServer, backend: QuarryBackend): void {
  /** Runs `text` and answers its result, or a tool error. */
  const answer = async (
    tool: string,
    text: string,
    shape: (result: QueryResult) => unknown = (r) => r,
    signal?: AbortSignal,
  ): Promise<CallToolResult> => {
    try {
      await backend.admit?.(tool);
      return json(shape(await backend.query(text, signal)));
    } catch (error) {
      return toolError(error, backend, text);
    }
  };

  server.registerTool(
    'run_query',
    {
      title: 'Run a Quarry query',
      description: QUERY_DESCRIPTION,
      inputSchema: QUERY_INPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ query }, extra) =>
      answer(
        'run_query',
        query,
        (result) => {
          const next = nextPageQuery(query, result);
          return next === undefined ? result : { ...result, _next_page: { query: next } };
        },
        extra.signal,
      ),
  );

  server.registerTool(
    'describe_schema',
    {
      title: 'Describe the schema',
      description:
        'Answers the schema as JSON: without arguments every source (fields with type, description, is_filter, is_facet, is_multivalue; fieldsets; ' +
        'metrics; search_fields, the indexes of `search SOURCE in INDEX for "..."`), the entities and the statement functions. ' +
        'With `source`, that source alone; with `entity`, one entity (organizations, researchers, categories, ...).',
      inputSchema: DESCRIBE_INPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ source, entity }, extra) => {
      const text =
        source !== undefined
          ? `describe source ${source}`
          : entity !== undefined
            ? `describe entity ${entity}`
            : 'describe schema';
      return answer('describe_schema', text, undefined, extra.signal);
    },
  );

  server.registerTool(
    'explain_query',
    {
      title: 'Explain a query',
      description:
        'Checks a query against the language and the schema without running it. For a bad query it answers every problem with its code, ' +
        'line and column, a caret under the place and the did-you-mean suggestions (in the message); for a good one, `valid: true`. ' +
        'Use it when run_query fails, then fix the query and run it again.',
      inputSchema: QUERY_INPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query }) => {
      try {
        await backend.admit?.('explain_query');
        return json(explainQuery(query));
      } catch (error) {
        return toolError(error, backend, query);
      }
    },
  );

  server.registerTool(
    'fetch_record',
    {
      title: 'Fetch one record by id',
      description:
        'Reads one record of a source by its id (pub.… publications, grant.… grants, ur.… researchers, grid.… organizations, ...) ' +
        'and answers it as JSON, with every fieldset unless `fields` names the fields.',
      inputSchema: FETCH_INPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ source, id, fields }, extra) => {
      const list = fields === undefined ? allFieldsets(source) : fields.join(' + ');
      const text = `search ${source} where id = ${dslString(id)} return ${source}[${list}] limit 1`;
      try {
        await backend.admit?.('fetch_record');
        const result = await backend.query(text, extra.signal);
        const records = result[source];
        const record = Array.isArray(records) ? (records[0] as unknown) : undefined;
        if (record === undefined) throw QuarryError.of('SERVICE_RECORD_NOT_FOUND', { params: { source, id } });
        return json(record);
      } catch (error) {
        return toolError(error, backend, text);
      }
    },
  );

  for (const fn of STATEMENT_FUNCTIONS.values()) {
    if (fn.parameters.length === 0) continue;
    server.registerTool(
      fn.name,
      {
        title: fn.name.replace(/_/g, ' '),
        description: `${fn.description} Runs the DSL statement ${fn.name}(...) with these arguments and answers its JSON result.`,
        inputSchema: FUNCTION_INPUTS.get(fn.name),
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      (args: Record<string, unknown>, extra) => answer(fn.name, dslCall(fn.name, args), undefined, extra.signal),
    );
  }

  server.registerTool(
    'identify_experts',
    {
      title: 'Identify experts',
      description:
        'Finds the researchers whose publications (or grants) match concepts, ranked by `score` (the summed relevance of their matching documents) ' +
        'with `docs_found`. Runs: identify experts from concepts "CONCEPTS" [using SOURCE] [where FILTER] return experts[FIELDS] [limit N [skip M]].',
      inputSchema: EXPERTS_INPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ concepts, using, where, fields, limit, skip }, extra) => {
      const text = [
        `identify experts from concepts ${dslString(concepts)}`,
        ...(using !== undefined ? [`using ${using}`] : []),
        ...(where !== undefined && where.trim() !== '' ? [`where ${where}`] : []),
        `return experts[${fields ?? 'basics'}]`,
        ...(limit !== undefined || skip !== undefined ? [`limit ${limit ?? 20}`] : []),
        ...(skip !== undefined ? [`skip ${skip}`] : []),
      ].join(' ');
      return answer('identify_experts', text, undefined, extra.signal);
    },
  );
}

/** A server with Quarry's tools over `backend`; connect it to a transport. */
export function quarryMcpServer(backend: QuarryBackend, version: string): McpServer {
  const server = new McpServer({ name: 'quarry', version }, { instructions: INSTRUCTIONS });
  registerQuarryTools(server, backend);
  return server;
}

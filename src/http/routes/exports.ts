/**
 * Bulk exports (docs/exports.md) in both families: `POST /api/exports` with `JWT` and
 * `POST /v3/api/exports` with `Bearer`, the body a query's text; `GET .../{id}` for the
 * job's state and progress, `GET .../{id}/download` for the file (byte ranges served),
 * `DELETE .../{id}` to cancel. A job is its owner's alone: any other account gets the same
 * 404 as an id that never existed.
 */
import { createReadStream, statSync } from 'node:fs';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { Family } from '../../identity/account-types.ts';
import type { Principal } from '../../auth/principal.ts';
import { EXPORT_RETRY_AFTER_SECONDS, type ExportService } from '../../exports/export-service.ts';
import { QuarryError } from '../../errors/index.ts';
import type { ExportFileFormat, ExportJob } from '../../store/exports.ts';
import type { ServiceContext } from '../context.ts';
import { queryTextOf } from '../query-text.ts';
import { enforceLimit } from '../rate-limit.ts';
import type { LimitRule } from '../route-config.ts';
import { errorResponses, QUERY_ERROR_CATEGORIES, RATE_LIMIT_HEADERS } from '../route-docs.ts';
import { authenticate } from '../run-query.ts';
import { byteRange } from '../byte-range.ts';

/** Each family's address of the exports, its scheme in the OpenAPI document and its submission's rate-limit rule. */
const FAMILIES: ReadonlyArray<{
  readonly family: Family;
  readonly base: string;
  readonly tag: string;
  readonly security: string;
  readonly rule: LimitRule;
  readonly scheme: 'Bearer' | 'JWT';
}> = [
  { family: 'auth', base: '/api/exports', tag: 'auth-path', security: 'jwt', rule: 'authPath', scheme: 'JWT' },
  {
    family: 'token',
    base: '/v3/api/exports',
    tag: 'token-path',
    security: 'bearerToken',
    rule: 'tokenV3',
    scheme: 'Bearer',
  },
];

const FORMATS: Readonly<Record<string, ExportFileFormat>> = { jsonl: 'jsonl', csv: 'csv' };

const JOB_SCHEMA = {
  type: 'object',
  required: ['id', 'state', 'records', 'url'],
  properties: {
    id: { type: 'string', description: 'The job id (32 hex digits; unguessable)' },
    state: { type: 'string', enum: ['queued', 'running', 'done', 'failed'] },
    records: { type: 'integer', description: 'Records written so far (all of them once done)' },
    total: { type: ['integer', 'null'], description: 'Records the query matched when the job started' },
    format: { type: 'string', enum: ['jsonl', 'csv'] },
    url: { type: 'string', description: 'Where the file is downloaded once the state is done' },
    created_at: { type: 'string', format: 'date-time' },
    finished_at: { type: ['string', 'null'], format: 'date-time' },
    expires_at: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'When a finished export is deleted',
    },
    error: { type: 'string', description: 'Why it failed (failed only)' },
  },
};

const EXPORT_BODY = {
  content: {
    'text/plain': {
      schema: {
        type: 'string',
        description:
          'The query text, as for a query: a search returning its own source, without limit, skip or sort (the export holds every match, in record id order).',
        'x-examples': {
          year: {
            summary: 'Every publication of a year',
            value: 'search publications where year = 2020 return publications[id + title + year]',
          },
          text: { summary: 'A full-text search', value: 'search grants for "malaria" return grants[basics]' },
        },
      },
    },
  },
};

const ID_PARAMS = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', description: 'The id the submission answered' } },
};

export const exportRoutes: FastifyPluginCallback<{ ctx: ServiceContext; exports: ExportService }> = (
  app,
  { ctx, exports },
  done,
) => {
  const retentionMs = ctx.config.exports.retentionHours * 3600_000;
  for (const { family, base, tag, security, rule, scheme } of FAMILIES) {
    if (!ctx.config.families[family]) continue;
    const principalOf = async (request: FastifyRequest): Promise<Principal> => {
      const principal = await authenticate(ctx, request, family);
      request.principal = principal;
      return principal;
    };
    const status = (job: ExportJob) => jobBody(job, base, retentionMs);
    const owned = async (request: FastifyRequest<{ Params: { id: string } }>): Promise<ExportJob> => {
      const principal = await principalOf(request);
      const job = await exports.find(request.params.id, principal.accountId);
      if (job === undefined) throw notFound(request.params.id);
      return job;
    };
    const errors = (categories: Parameters<typeof errorResponses>[0]) =>
      errorResponses(categories, { rateLimited: false, authScheme: scheme });

    app.post(
      base,
      {
        config: { family, limitRule: rule },
        schema: {
          tags: [tag],
          operationId: `submitExport${family === 'auth' ? '' : 'V3'}`,
          summary: 'Export every record a query matches (past the 50,000-record window), in the background',
          description:
            'The body is the query text. Answers 202 with the job at once; poll `GET ' +
            base +
            '/{id}` for its state and progress, then download the file at its `url` (gzipped JSON lines, or CSV with `?format=csv`). ' +
            'An account may have a few exports queued or running at once (429 past it).',
          security: [{ [security]: [] }],
          querystring: {
            type: 'object',
            properties: { format: { type: 'string', enum: ['jsonl', 'csv'], default: 'jsonl' } },
          },
          body: EXPORT_BODY,
          response: {
            202: {
              description: 'The job, queued',
              headers: { ...RATE_LIMIT_HEADERS, Location: { type: 'string', description: 'The job address' } },
              content: { 'application/json': { schema: JOB_SCHEMA } },
            },
            ...errorResponses([...QUERY_ERROR_CATEGORIES, 'input'], { rateLimited: true, authScheme: scheme }),
          },
        },
      },
      async (request: FastifyRequest<{ Querystring: { format?: string } }>, reply) => {
        let principal: Principal;
        try {
          principal = await principalOf(request);
        } catch (error) {
          await enforceLimit(ctx, request, reply, rule, null);
          throw error;
        }
        await enforceLimit(ctx, request, reply, rule, principal);
        const format = FORMATS[request.query.format ?? 'jsonl'];
        if (format === undefined)
          throw QuarryError.of('SERVICE_EXPORT_FORMAT', { params: { format: request.query.format ?? '' } });
        const text = queryTextOf(request.body, ctx.config.query.maxBytes);
        request.queryText = text;
        const { sources } = principal.subscription;
        let job: ExportJob;
        try {
          job = await exports.submit({
            accountId: principal.accountId,
            text,
            format,
            sources: sources === 'all' ? null : sources,
          });
        } catch (error) {
          if (error instanceof QuarryError && error.code === 'SERVICE_EXPORT_LIMIT')
            reply.header('Retry-After', String(EXPORT_RETRY_AFTER_SECONDS));
          throw error;
        }
        ctx.accounts.recordUsage(principal.accountId, { requests: 1 });
        return reply
          .code(202)
          .header('Location', `${base}/${job.id}`)
          .type('application/json; charset=utf-8')
          .send(status(job));
      },
    );

    app.get(
      `${base}/:id`,
      {
        config: { family },
        schema: {
          tags: [tag],
          operationId: `getExport${family === 'auth' ? '' : 'V3'}`,
          summary: "An export's state and progress",
          security: [{ [security]: [] }],
          params: ID_PARAMS,
          response: {
            200: { description: 'The job', content: { 'application/json': { schema: JOB_SCHEMA } } },
            ...errors(['authentication', 'token', 'not_found']),
          },
        },
      },
      async (request: FastifyRequest<{ Params: { id: string } }>, reply) =>
        reply.type('application/json; charset=utf-8').send(status(await owned(request))),
    );

    app.get(
      `${base}/:id/download`,
      {
        config: { family },
        schema: {
          tags: [tag],
          operationId: `downloadExport${family === 'auth' ? '' : 'V3'}`,
          summary: "A done export's file (gzip), whole or a byte range",
          description:
            'Gzipped JSON lines (one record a line) or CSV. Send `Range: bytes=N-` to continue an interrupted download (206).',
          security: [{ [security]: [] }],
          params: ID_PARAMS,
          response: {
            200: {
              description: 'The whole file',
              headers: { 'Accept-Ranges': { type: 'string' }, 'Content-Disposition': { type: 'string' } },
              content: { 'application/gzip': { schema: { type: 'string', contentMediaType: 'application/gzip' } } },
            },
            206: {
              description: 'The byte range asked for',
              headers: { 'Content-Range': { type: 'string' } },
              content: { 'application/gzip': { schema: { type: 'string', contentMediaType: 'application/gzip' } } },
            },
            416: { description: 'The range lies outside the file (`Content-Range: bytes */<size>`)' },
            ...errors(['authentication', 'token', 'not_found', 'conflict']),
          },
        },
      },
      async (request: FastifyRequest<{ Params: { id: string } }>, reply) =>
        sendFile(request, reply, exports, await owned(request)),
    );

    app.delete(
      `${base}/:id`,
      {
        config: { family },
        schema: {
          tags: [tag],
          operationId: `cancelExport${family === 'auth' ? '' : 'V3'}`,
          summary: 'Cancel an export (or delete a finished one and its file)',
          security: [{ [security]: [] }],
          params: ID_PARAMS,
          response: {
            204: { description: 'Cancelled and deleted' },
            ...errors(['authentication', 'token', 'not_found']),
          },
        },
      },
      async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
        const principal = await principalOf(request);
        if (!(await exports.cancel(request.params.id, principal.accountId))) throw notFound(request.params.id);
        return reply.code(204).send();
      },
    );
  }
  done();
};

function notFound(id: string): QuarryError {
  // The id is the caller's own input; shortened so a long string is not echoed whole.
  return QuarryError.of('SERVICE_EXPORT_NOT_FOUND', { params: { id: id.slice(0, 64) } });
}

/** The job as its owner sees it (`cancelled` never shows: a cancelled job is gone). */
function jobBody(job: ExportJob, base: string, retentionMs: number): Record<string, unknown> {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: job.id,
    state: job.state,
    records: job.records,
    total: job.total,
    format: job.format,
    url: `${base}/${job.id}/download`,
    created_at: iso(job.createdAt),
    finished_at: iso(job.finishedAt),
    expires_at: iso(job.finishedAt === null ? null : job.finishedAt + retentionMs),
    ...(job.state === 'failed' && job.error !== null ? { error: job.error } : {}),
  };
}

/** The file of a done job, whole or the one byte range asked for. */
function sendFile(request: FastifyRequest, reply: FastifyReply, exports: ExportService, job: ExportJob): FastifyReply {
  const path = exports.fileOf(job);
  if (path === undefined) {
    const reason = job.state === 'failed' && job.error !== null ? ` It failed: ${job.error}` : '';
    throw QuarryError.of('SERVICE_EXPORT_NOT_READY', { params: { id: job.id, state: job.state, reason } });
  }
  const size = statSync(path).size;
  const etag = `"${job.id}-${size}"`;
  reply
    .header('Accept-Ranges', 'bytes')
    .header('Content-Disposition', `attachment; filename="quarry-export-${job.id}.${job.format}.gz"`)
    .header('ETag', etag)
    .header('Cache-Control', 'private, no-store')
    // The bytes are the gzip file itself, not a compressed transfer of the records.
    .type('application/gzip');
  const ifRange = request.headers['if-range'];
  const range = byteRange(request.headers.range, size, typeof ifRange === 'string' ? ifRange : undefined, etag);
  if (range === 'unsatisfiable') return reply.code(416).header('Content-Range', `bytes */${size}`).send();
  if (range === undefined) {
    reply.header('Content-Length', String(size));
    return reply.send(createReadStream(path));
  }
  reply
    .code(206)
    .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
    .header('Content-Length', String(range.end - range.start + 1));
  return reply.send(createReadStream(path, { start: range.start, end: range.end }));
}

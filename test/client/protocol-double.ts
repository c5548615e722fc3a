/**
 * A PROTOCOL DOUBLE: a tiny scripted HTTP server on 127.0.0.1 that follows
 * spec/protocol.md closely enough to drive the client's retry, backoff, re-login and paging
 * logic through cases a real server produces only by chance (a 5xx burst, a reset
 * connection, a token refused twice, 60,000 matching records). It is not Quarry: the
 * real-server tests in `real-server.test.ts` and `cli.test.ts` check the same client
 * against `quarry serve`'s app.
 *
 * - POST /api/auth {"key"} and GET /v3/token?api_key= hand out tokens `tok-N` for `GOOD_KEY`
 *   (401 with SERVICE_CREDENTIALS_INVALID otherwise).
 * - POST /api/dsl/v1|v2 (`JWT`) and /v2|v3/api/query (`Bearer`): 403 SERVICE_TOKEN_EXPIRED
 *   for tokens not (or no longer) valid; then the next scripted step, if any; then the
 *   answer: `... limit N skip M` pages over `records` ids `pub.000001`...; `titel` is a
 *   semantic error at its position; `describe version` answers a version.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const GOOD_KEY = 'good-key-0123456789';

/** One scripted answer to the next query request (after the token check). */
export type Step =
  | {
      readonly status: number;
      readonly headers?: Record<string, string>;
      readonly body?: string;
      /** Every token expires after this answer. */ readonly thenExpire?: boolean;
    }
  /** Destroys the connection without answering (a network error for the client). */
  | 'reset';

export interface RequestLog {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: string;
  readonly status: number | 'reset';
}

export interface ProtocolDouble {
  readonly url: string;
  readonly log: RequestLog[];
  /** Scripted steps for the coming query requests, first in first out. */
  readonly script: Step[];
  /** Matching records (ids `pub.000001` ...). */
  records: number;
  /** Tokens refused from now on (as if they expired). */
  expireTokens(): void;
  /** Every token refused, new ones included. */
  refuseAllTokens: boolean;
  /** A 403 with this code instead of the token check (an account refusal). */
  accountRefusal: string | undefined;
  /** Tokens expire after this many queries each (0: never). */
  tokenUses: number;
  close(): Promise<void>;
}

function errorBody(header: string, detail: string, code: string, extra: Record<string, number> = {}): string {
  return JSON.stringify({ errors: { query: { header, details: [detail], code, ...extra } } });
}

export async function startProtocolDouble(): Promise<ProtocolDouble> {
  const tokens = new Map<string, number>();
  let issued = 0;
  const double: ProtocolDouble = {
    url: '',
    log: [],
    script: [],
    records: 0,
    refuseAllTokens: false,
    accountRefusal: undefined,
    tokenUses: 0,
    expireTokens: () => tokens.clear(),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const url = new URL(req.url ?? '/', 'http://double');
    const send = (status: number, payload: string, headers: Record<string, string> = {}) => {
      double.log.push({
        method: req.method ?? '',
        path: url.pathname,
        authorization: req.headers.authorization,
        body,
        status,
      });
      res.writeHead(status, { 'Content-Type': headers['Content-Type'] ?? 'application/json', ...headers });
      res.end(payload);
    };
    const issue = () => {
      const token = `tok-${++issued}`;
      tokens.set(token, 0);
      return token;
    };
    if (req.method === 'POST' && url.pathname === '/api/auth') {
      const credentials = JSON.parse(body || '{}') as { key?: string };
      if (credentials.key !== GOOD_KEY)
        return send(
          401,
          errorBody('Authentication Error', 'The credentials are not valid.', 'SERVICE_CREDENTIALS_INVALID'),
        );
      return send(200, JSON.stringify({ token: issue() }));
    }
    if (req.method === 'GET' && /^\/v[23]\/token$/.test(url.pathname)) {
      if (url.searchParams.get('api_key') !== GOOD_KEY)
        return send(
          401,
          errorBody('Authentication Error', 'The credentials are not valid.', 'SERVICE_CREDENTIALS_INVALID'),
        );
      return send(200, issue(), { 'Content-Type': 'text/plain' });
    }
    const auth = /^\/api\/dsl\/v[12]$/.test(url.pathname)
      ? 'JWT'
      : /^\/v[23]\/api\/query$/.test(url.pathname)
        ? 'Bearer'
        : undefined;
    if (req.method !== 'POST' || auth === undefined)
      return send(404, errorBody('Not Found', 'No such route.', 'SERVICE_ROUTE_NOT_FOUND'));
    const header = req.headers.authorization ?? '';
    const token = header.startsWith(`${auth} `) ? header.slice(auth.length + 1).trim() : '';
    if (double.accountRefusal !== undefined)
      return send(403, errorBody('Permission Error', 'Your account is suspended.', double.accountRefusal));
    const uses = tokens.get(token);
    if (double.refuseAllTokens || uses === undefined || (double.tokenUses > 0 && uses >= double.tokenUses)) {
      return send(
        403,
        errorBody('Authentication Error', 'The token has expired. Log in again.', 'SERVICE_TOKEN_EXPIRED'),
      );
    }
    tokens.set(token, uses + 1);
    const step = double.script.shift();
    if (step === 'reset') {
      double.log.push({ method: req.method, path: url.pathname, authorization: header, body, status: 'reset' });
      req.socket.destroy();
      return;
    }
    if (step !== undefined) {
      if (step.thenExpire) tokens.clear();
      return send(step.status, step.body ?? '', step.headers);
    }
    const misspelt = body.indexOf('titel');
    if (misspelt >= 0) {
      return send(
        400,
        errorBody(
          '1 QueryError found',
          `Field 'titel' is not a field of 'publications'. Did you mean 'title'? (line 1, column ${misspelt + 1})`,
          'SCHEMA_UNKNOWN_FIELD',
          { line: 1, column: misspelt + 1 },
        ),
      );
    }
    if (body.trim() === 'describe version') return send(200, JSON.stringify({ release: '2.0', version: '2.0.0' }));
    const paging = /limit (\d+) skip (\d+)$/.exec(body);
    const limit = paging ? Number(paging[1]) : 20;
    const skip = paging ? Number(paging[2]) : 0;
    if (limit > 1000 || skip + limit > 50_000)
      return send(
        400,
        errorBody(
          '1 QueryError found',
          `Limit ${limit} with skip ${skip} is out of range.`,
          'SCHEMA_PAGING_OUT_OF_RANGE',
        ),
      );
    const ids: Array<{ id: string }> = [];
    for (let i = skip; i < Math.min(double.records, skip + limit); i++)
      ids.push({ id: `pub.${String(i + 1).padStart(6, '0')}` });
    return send(
      200,
      JSON.stringify({ publications: ids, _stats: { total_count: double.records, limit, offset: skip } }),
    );
  };

  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handle(req, res, body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return Object.assign(double, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}

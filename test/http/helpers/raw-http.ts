import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** True when the server closed the connection after answering. */
  readonly closed: boolean;
  /** Milliseconds from connecting to the end of the response (or the close). */
  readonly elapsedMs: number;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * Sends bytes over a real TCP connection to 127.0.0.1 and reads one HTTP/1.1 response
 * (tests of what Node's parser and timers do, which `inject` does not go through).
 * `trickle` writes `text` that many milliseconds apart per byte after the first `head`
 * bytes. Fails after `timeoutMs` rather than hanging.
 */
export function rawExchange(
  port: number,
  text: string | Buffer,
  options: { timeoutMs?: number; trickleMs?: number; head?: number; localAddress?: string } = {},
): Promise<RawResponse> {
  const started = Date.now();
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({
      port,
      host: '127.0.0.1',
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
    let received = Buffer.alloc(0);
    let trickle: NodeJS.Timeout | undefined;
    const deadline = setTimeout(() => {
      finish(new Error(`no complete response within ${options.timeoutMs ?? 5000} ms`));
    }, options.timeoutMs ?? 5000);
    let done = false;
    function finish(error?: Error, closed = false) {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      clearInterval(trickle);
      socket.destroy();
      if (error) return reject(error);
      const parsed = parseResponse(received);
      if (!parsed) return reject(new Error(`not an HTTP response: ${JSON.stringify(received.toString('latin1'))}`));
      resolve({ ...parsed, closed, elapsedMs: Date.now() - started });
    }
    socket.on('connect', () => {
      if (options.trickleMs === undefined) {
        socket.write(bytes);
        return;
      }
      let sent = options.head ?? 0;
      socket.write(bytes.subarray(0, sent));
      trickle = setInterval(() => {
        if (sent >= bytes.length || socket.destroyed) return clearInterval(trickle);
        socket.write(bytes.subarray(sent, sent + 1));
        sent += 1;
      }, options.trickleMs);
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const parsed = parseResponse(received);
      if (parsed && parsed.complete && parsed.headers.connection !== 'close') finish();
    });
    socket.on('error', () => {
      /* a reset after the answer counts as a close */
    });
    socket.on('close', () => finish(received.length > 0 ? undefined : new Error('closed without an answer'), true));
  });
}

/** A connection to 127.0.0.1 that sends nothing, open once the promise resolves. */
export function idleConnection(port: number, localAddress = '127.0.0.1'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Milliseconds until the server closes `socket` (rejects after `timeoutMs`). */
export function closedWithin(socket: Socket, timeoutMs: number): Promise<number> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still open after ${timeoutMs} ms`)), timeoutMs);
    socket.on('error', () => {});
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
    socket.resume();
  });
}

function parseResponse(bytes: Buffer) {
  const text = bytes.toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(end + 4);
  const length = Number(headers['content-length'] ?? NaN);
  return {
    status,
    headers,
    body,
    complete: Number.isNaN(length) || Buffer.byteLength(body) >= length,
    json: () => JSON.parse(body) as unknown,
  };
}

/** The protocol's error body (spec/protocol.md §4) with the given code and header, and its one-string message. */
export function assertErrorBody(body: unknown, code: string, header: string): void {
  const query = (body as { errors?: { query?: Record<string, unknown> } }).errors?.query;
  assert.ok(query, `errors.query in ${JSON.stringify(body)}`);
  assert.deepEqual(Object.keys(body as object), ['errors', 'error']);
  assert.equal((body as { error?: { message?: unknown } }).error?.message, (query.details as string[]).join('\n'));
  assert.equal(query.code, code);
  assert.equal(query.header, header);
  assert.ok(Array.isArray(query.details) && query.details.length > 0);
  assert.ok((query.details as unknown[]).every((d) => typeof d === 'string' && d.length > 0));
}

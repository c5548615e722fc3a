import { definitionOf } from '../errors/index.ts';
import { QuarryClientError, errorFromServer, knownCode, parseErrorBody, type ServerError } from './errors.ts';
import type { HttpAnswer, Transport } from './transport.ts';

/** Logins one query may cause when each new token expired while waiting on 429s. */
const MAX_LOGINS_PER_CALL = 3;

/** An API key, or (auth family only) a legacy username and password. */
export type Credentials = { readonly key: string } | { readonly username: string; readonly password: string };

export interface SessionOptions {
  /** The service's base URL, e.g. `http://127.0.0.1:8080` (a path prefix is kept). */
  readonly url: string;
  readonly family: 'auth' | 'token';
  readonly credentials: Credentials;
  readonly dslVersion: 1 | 2;
  /** Token family only: `/v3` (limited per client address, the default) or `/v2` (per account). */
  readonly tokenPathVersion: 'v2' | 'v3';
}

/**
 * The protocol's one piece of state: the token. Logs in when there is none, sends queries
 * with it, and when the service answers 403 for a token (expired, revoked), logs in again
 * once and sends the query again; a second refusal of the new token is an error (unless the
 * new token first waited out 429s long enough to expire: then it logs in again, at most
 * three times per query).
 */
export class Session {
  readonly #transport: Transport;
  readonly #options: SessionOptions;
  readonly #base: string;
  #token: string | undefined;
  #login: Promise<string> | undefined;

  constructor(transport: Transport, options: SessionOptions) {
    if (options.family === 'token' && !('key' in options.credentials)) {
      throw QuarryClientError.client('CLIENT_CREDENTIALS_UNSUPPORTED', { family: 'token' });
    }
    if (options.family === 'token' && options.dslVersion !== 2) {
      throw QuarryClientError.client('CLIENT_OPTION_INVALID', {
        option: 'dslVersion',
        reason: 'the token family runs DSL version 2 only; use the auth family for version 1',
      });
    }
    this.#transport = transport;
    this.#options = options;
    this.#base = options.url.replace(/\/+$/, '');
  }

  /** Where queries go. */
  get queryUrl(): string {
    return this.#options.family === 'auth'
      ? `${this.#base}/api/dsl/v${this.#options.dslVersion}`
      : `${this.#base}/${this.#options.tokenPathVersion}/api/query`;
  }

  /** Obtains a token now (also done on demand by `post`). */
  async login(signal?: AbortSignal): Promise<string> {
    this.#login ??= this.#obtainToken(signal).finally(() => {
      this.#login = undefined;
    });
    return this.#login;
  }

  /** Where bulk exports are submitted (`/api/exports` with JWT, `/v3/api/exports` with Bearer). */
  get exportsUrl(): string {
    return this.#options.family === 'auth' ? `${this.#base}/api/exports` : `${this.#base}/v3/api/exports`;
  }

  /** The service's base URL (a job's `url` is relative to it). */
  get baseUrl(): string {
    return this.#base;
  }

  /** The Authorization header's value, logging in first when there is no token yet. */
  async authorization(signal?: AbortSignal): Promise<string> {
    const token = this.#token ?? (await this.login(signal));
    return `${this.#options.family === 'auth' ? 'JWT' : 'Bearer'} ${token}`;
  }

  /**
   * Sends one authorized request other than a query (the bulk-export endpoints) and returns
   * the parsed JSON body of a 2xx answer (undefined for 204), logging in again as `post` does.
   */
  async call(
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    body?: string,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown> | undefined> {
    const answer = await this.#authorized((token) => this.#send(body ?? '', token, signal, method, url), signal);
    if (answer.status === 204) return undefined;
    return readJson(answer, url, body);
  }

  /** Sends one query and returns the parsed JSON body of a 2xx answer. */
  async post(text: string, signal?: AbortSignal): Promise<unknown> {
    return readJson(await this.#authorized((token) => this.#send(text, token, signal), signal), this.queryUrl, text);
  }

  async #authorized(send: (token: string) => Promise<HttpAnswer>, signal?: AbortSignal): Promise<HttpAnswer> {
    let token = this.#token ?? (await this.login(signal));
    let answer = await send(token);
    for (let logins = 0; answer.status === 403 && isTokenRefusal(answer); logins++) {
      // A new token refused at its first use is an error. One that first sat out 429 waits
      // (or retries) may simply have expired meanwhile (short lifetimes, long waits), so it
      // gets another login, a bounded number of times.
      if ((logins > 0 && answer.attempts === 1) || logins >= MAX_LOGINS_PER_CALL) {
        const server = parseErrorBody(403, answer.text) ?? plainServerError(answer);
        throw QuarryClientError.client(
          'CLIENT_TOKEN_REFUSED_AFTER_LOGIN',
          { detail: server.details.join(' ') },
          server,
        );
      }
      // Another call may have logged in meanwhile; only log in when nobody did.
      const fresh = this.#token !== undefined && this.#token !== token ? this.#token : undefined;
      if (fresh === undefined)
        this.#transport.emit({ kind: 'relogin', reason: parseErrorBody(403, answer.text)?.details[0] ?? 'HTTP 403' });
      token = fresh ?? (await this.login(signal));
      answer = await send(token);
    }
    return answer;
  }

  #send(
    text: string,
    token: string,
    signal?: AbortSignal,
    method: 'GET' | 'POST' | 'DELETE' = 'POST',
    url = this.queryUrl,
  ): Promise<HttpAnswer> {
    const scheme = this.#options.family === 'auth' ? 'JWT' : 'Bearer';
    const withBody = method === 'POST';
    return this.#transport.send(
      {
        method,
        url,
        headers: {
          Authorization: `${scheme} ${token}`,
          ...(withBody ? { 'Content-Type': 'text/plain; charset=utf-8' } : {}),
          Accept: 'application/json',
        },
        ...(withBody ? { body: text } : {}),
      },
      signal,
    );
  }

  async #obtainToken(signal?: AbortSignal): Promise<string> {
    const { family, credentials } = this.#options;
    let answer: HttpAnswer;
    if (family === 'token') {
      const key = 'key' in credentials ? credentials.key : '';
      answer = await this.#transport.send(
        {
          method: 'GET',
          url: `${this.#base}/${this.#options.tokenPathVersion}/token?api_key=${encodeURIComponent(key)}`,
        },
        signal,
      );
    } else {
      const body =
        'key' in credentials
          ? { key: credentials.key }
          : { username: credentials.username, password: credentials.password };
      answer = await this.#transport.send(
        {
          method: 'POST',
          url: `${this.#base}/api/auth`,
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify(body),
        },
        signal,
      );
    }
    if (answer.status < 200 || answer.status >= 300)
      throw errorFromServer(parseErrorBody(answer.status, answer.text) ?? plainServerError(answer), undefined, {
        attempts: answer.attempts,
      });
    let token: string | undefined;
    if (family === 'token') token = answer.text.trim();
    else {
      const body = readJson(answer, `${this.#base}/api/auth`) as { token?: unknown };
      token = typeof body.token === 'string' ? body.token : undefined;
    }
    if (token === undefined || token === '') {
      throw QuarryClientError.client('CLIENT_BAD_RESPONSE', {
        url: this.#base,
        status: answer.status,
        reason: 'the login answer holds no token',
      });
    }
    this.#token = token;
    this.#transport.emit({ kind: 'login', family });
    return token;
  }
}

/**
 * A 403 that is about the token (expired, revoked, invalid), not about the account: a
 * service that names a Quarry code of another category (a suspended account, a missing
 * subscription) would refuse the new token too, so logging in again would not help.
 */
function isTokenRefusal(answer: HttpAnswer): boolean {
  const code = knownCode(parseErrorBody(answer.status, answer.text)?.code);
  return code === undefined || definitionOf(code).category === 'token';
}

function plainServerError(answer: HttpAnswer): ServerError {
  const snippet = answer.text.replace(/\s+/g, ' ').trim().slice(0, 200);
  return {
    status: answer.status,
    header: `HTTP ${answer.status}`,
    details: [snippet === '' ? `HTTP ${answer.status}` : snippet],
  };
}

/** The JSON object of a 2xx answer, or the service's refusal as an error. */
function readJson(answer: HttpAnswer, url: string, queryText?: string): Record<string, unknown> {
  if (answer.status < 200 || answer.status >= 300) {
    const server = parseErrorBody(answer.status, answer.text);
    if (server === undefined && answer.status >= 500) {
      const plain = plainServerError(answer);
      throw QuarryClientError.client(
        'CLIENT_SERVER_UNAVAILABLE',
        { status: answer.status, header: plain.header, detail: plain.details[0] ?? '', attempts: answer.attempts },
        plain,
      );
    }
    throw errorFromServer(server ?? plainServerError(answer), queryText, { attempts: answer.attempts });
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw QuarryClientError.client('CLIENT_BAD_RESPONSE', {
      url,
      status: answer.status,
      reason: 'the body is not JSON',
    });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw QuarryClientError.client('CLIENT_BAD_RESPONSE', {
      url,
      status: answer.status,
      reason: 'the body is not a JSON object',
    });
  }
  return body as Record<string, unknown>;
}

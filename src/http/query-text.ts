import { QuarryError } from '../errors/index.ts';
import { bodyText } from './utf8.ts';

/**
 * The query text of a request body. Clients send the DSL raw under any Content-Type (or
 * none); a JSON body `{"query": "..."}` is accepted too. Only a JSON object with a string
 * `query` member is unwrapped: anything else is taken as the DSL itself. A body of bytes
 * that are not UTF-8 is refused with the offset of the first bad byte.
 *
 * @example queryTextOf('search grants return grants', 'application/x-www-form-urlencoded') // 'search grants return grants'
 * @example queryTextOf('{"query": "describe version"}', 'application/json') // 'describe version'
 */
export function queryTextOf(body: unknown, contentType: string | undefined, maxBytes: number): string {
  let text = bodyText(body);
  if (contentType?.toLowerCase().includes('json') && text.trimStart().startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { query?: unknown }).query === 'string') {
        text = (parsed as { query: string }).query;
      }
    } catch {
      // Not JSON after all: the raw body is the query.
    }
  }
  const size = Buffer.byteLength(text, 'utf8');
  if (size > maxBytes) throw QuarryError.of('SERVICE_QUERY_TOO_LARGE', { params: { size, max: maxBytes } });
  if (text.trim() === '') throw QuarryError.of('SERVICE_QUERY_EMPTY');
  return text;
}

/**
 * Login credentials from an auth request body: JSON normally, form fields accepted.
 * Non-string members are ignored.
 */
export function credentialsOf(body: unknown): { key?: string; username?: string; password?: string } {
  const text = bodyText(body);
  let fields: Record<string, unknown> = {};
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (typeof parsed === 'object' && parsed !== null) fields = parsed as Record<string, unknown>;
    } catch {
      throw QuarryError.of('SERVICE_BAD_REQUEST', {
        params: { detail: 'the body is not valid JSON; send {"key": "<your API key>"}' },
      });
    }
  } else if (trimmed !== '') {
    fields = Object.fromEntries(new URLSearchParams(trimmed));
  }
  const pick = (name: string) => (typeof fields[name] === 'string' ? fields[name] : undefined);
  const out: { key?: string; username?: string; password?: string } = {};
  const key = pick('key');
  const username = pick('username');
  const password = pick('password');
  if (key !== undefined) out.key = key;
  if (username !== undefined) out.username = username;
  if (password !== undefined) out.password = password;
  return out;
}

/**
 * The token from an Authorization header when its scheme word is `scheme` (case-insensitive),
 * else undefined (missing header, wrong scheme, nothing after the scheme).
 */
export function bearerOf(header: string | undefined, scheme: 'Bearer' | 'JWT'): string | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*(\S+)\s+(\S.*)$/.exec(header);
  if (!match || match[1]?.toLowerCase() !== scheme.toLowerCase()) return undefined;
  return match[2]?.trim();
}

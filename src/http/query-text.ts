import { QuarryError } from '../errors/index.ts';
import { bodyText } from './utf8.ts';

/**
 * The query text of a request body. Clients send the DSL raw under any Content-Type (or
 * none); a JSON body `{"query": "..."}` is accepted too, under any Content-Type, since some
 * clients send JSON as text/plain. DSL text never starts with `{`, so a body that parses as a
 * JSON object is a JSON body: its string `query` member is the query, and one without it is
 * refused without being echoed (such a body may carry a key beside the query, and the error
 * body echoes the query text). A body of bytes that are not UTF-8 is refused with the offset
 * of the first bad byte.
 *
 * @example queryTextOf('search grants return grants', 65536) // 'search grants return grants'
 * @example queryTextOf('{"query": "describe version"}', 65536) // 'describe version'
 */
export function queryTextOf(body: unknown, maxBytes: number): string {
  let text = bodyText(body);
  const object = jsonObjectOf(text);
  if (object !== undefined) {
    if (typeof object.query !== 'string') {
      throw QuarryError.of('SERVICE_BAD_REQUEST', {
        params: { detail: 'a JSON body must carry the DSL text as a string member "query"' },
      });
    }
    text = object.query;
  }
  const size = Buffer.byteLength(text, 'utf8');
  if (size > maxBytes) throw QuarryError.of('SERVICE_QUERY_TOO_LARGE', { params: { size, max: maxBytes } });
  if (text.trim() === '') throw QuarryError.of('SERVICE_QUERY_EMPTY');
  return text;
}

/** The body as a JSON object when it is one (not an array, not a scalar), else undefined. */
function jsonObjectOf(text: string): Record<string, unknown> | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined; // Not JSON after all: the raw body is the query.
  }
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

import { CODE_AREAS } from './registry.ts';

/** Renders docs/errors.md: every code, its category, its message and how to fix it. */
export function renderErrorsDoc(): string {
  const out: string[] = [
    '# Error codes',
    '',
    '<!-- Generated from src/errors/codes/ by `npm run docs:errors`; edit the registry, not this file. -->',
    '',
    'Every error Quarry reports carries a stable `code`. Over HTTP it sits in the error body',
    '(`{"errors":{"query":{"header","details","code","line","column","query"}},"error":{"message"}}`):',
    '`query` echoes the query text once the request got as far as reading it (never a login body,',
    'a key or a token), and `error.message` repeats the details, one per line, for clients that',
    'print only a top-level message. The `quarry` command prints the code after the message.',
    'The category decides the HTTP status and the exit code:',
    '',
    '| category | HTTP status | exit code |',
    '| --- | --- | --- |',
    '| syntax, semantic, unsupported, budget | 400 | 2 |',
    '| authentication | 401 | 3 |',
    '| token, permission | 403 | 3 |',
    '| rate_limit | 429 | 4 |',
    '| gone | 410 | 2 |',
    '| timeout | 504 | 5 |',
    '| not_found | 404 | 1 |',
    '| input, conflict | 400, 409 | 1 |',
    '| method_not_allowed, payload_too_large, unsupported_media_type, headers_too_large | 405, 413, 415, 431 | 1 |',
    '| request_timeout | 408 | 5 |',
    '| unavailable | 503 | 5 |',
    '| internal | 500 | 1 |',
    '',
    'Placeholders in braces are filled in from the query.',
    '',
  ];
  for (const { area, codes } of CODE_AREAS) {
    const entries = Object.entries(codes);
    if (entries.length === 0) continue;
    out.push(`## ${area}`, '');
    for (const [code, def] of entries) {
      out.push(`### \`${code}\``, '', `Category: ${def.category}.`, '', `> ${def.message}`, '', def.fix, '');
    }
  }
  return out.join('\n');
}

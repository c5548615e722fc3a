import type { ErrorCategory } from '../errors/index.ts';
import { isQuarryClientError } from '../client/errors.ts';
import { formatWithCaret, isQuarryError, QuarryError, renderErrorBody } from '../errors/index.ts';

/** Exit codes by error category; docs/errors.md lists the same table. */
export const EXIT_CODES: Record<ErrorCategory, number> = {
  syntax: 2,
  semantic: 2,
  unsupported: 2,
  budget: 2,
  gone: 2,
  authentication: 3,
  token: 3,
  permission: 3,
  rate_limit: 4,
  timeout: 5,
  unavailable: 5,
  not_found: 1,
  input: 1,
  method_not_allowed: 1,
  payload_too_large: 1,
  unsupported_media_type: 1,
  headers_too_large: 1,
  request_timeout: 5,
  conflict: 1,
  internal: 1,
};

/** How errors are printed: `text` for people, `json` for programs (`--error-format`). */
export const ERROR_FORMATS = ['text', 'json'] as const;
export type ErrorFormat = (typeof ERROR_FORMATS)[number];

let errorFormat: ErrorFormat = 'text';

/** Chooses how `exitWithError` prints, for the whole run (set once, from `--error-format`). */
export function setErrorFormat(format: ErrorFormat): void {
  errorFormat = format;
}

/**
 * The query text an error's positions count in: the one the service echoed (or the client
 * sent) for a service's refusal, else the text given.
 */
export function queryTextOfError(error: unknown, sent?: string): string | undefined {
  return (isQuarryClientError(error) ? error.query : undefined) ?? sent;
}

/**
 * Prints an error as one line of JSON in the shape of the service's error body
 * (`{"errors":{"query":{"header","details","code","line","column","query"}},"error":{"message"}}`),
 * plus every problem with its own code and position under `problems`.
 */
export function writeErrorJson(error: QuarryError): void {
  const body = renderErrorBody(error, { queryText: queryTextOfError(error) ?? null });
  const problems = error.problems.map((p) => ({
    code: p.code,
    message: p.message,
    ...(p.position ? { line: p.position.line, column: p.position.column } : {}),
  }));
  process.stderr.write(
    `${JSON.stringify({ errors: { query: { ...body.errors.query, problems } }, error: body.error })}\n`,
  );
}

/**
 * Prints an error and sets the exit code from its category. As text, query errors show the
 * line of the query with a caret under the position; as JSON (`--error-format json`), see
 * `writeErrorJson`. Anything that is not a QuarryError is CLI_FAILED with its message.
 */
export function exitWithError(error: unknown, queryText?: string): void {
  if (errorFormat === 'json') {
    const quarryError = isQuarryError(error)
      ? error
      : QuarryError.of(
          'CLI_FAILED',
          { params: { detail: (error instanceof Error ? error.message : String(error)).replace(/\.$/, '') } },
          { cause: error },
        );
    writeErrorJson(quarryError);
    process.exitCode = EXIT_CODES[quarryError.category];
    return;
  }
  if (isQuarryError(error)) {
    const text = queryTextOfError(error, queryText);
    for (const p of error.problems) {
      process.stderr.write(`${text === undefined ? `${p.message} [${p.code}]` : formatWithCaret(text, p)}\n`);
    }
    process.exitCode = EXIT_CODES[error.category];
    return;
  }
  process.stderr.write(`quarry: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}

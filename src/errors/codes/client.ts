import type { CodeTable } from '../code-table.ts';

/**
 * Error codes raised by `src/client`-area modules (the client library and the `quarry login`,
 * `query` (remote) and `shell` commands). Errors the server sends keep the server's own code;
 * these cover what the client itself decides, and server answers without a code Quarry
 * knows. Codes are never renamed or reused once published.
 */
export const CLIENT_CODES = {
  CLIENT_NETWORK_FAILED: {
    category: 'unavailable',
    message: 'Could not reach {url} after {attempts} attempts: {reason}.',
    fix: 'Check the URL in the profile (`quarry login --url ...`), that the service is running and reachable, then retry.',
  },
  CLIENT_SERVER_UNAVAILABLE: {
    category: 'unavailable',
    message: 'The service answered {status} ({header}) to {attempts} attempts: {detail}',
    fix: 'The service had a passing failure several times in a row; retry later, and tell its operator if it persists.',
  },
  CLIENT_RATE_LIMIT_BUDGET_EXHAUSTED: {
    category: 'rate_limit',
    message:
      'The service kept answering 429 (too many requests); gave up after waiting {waitedSeconds} seconds in total (the limit is {budgetSeconds} seconds).',
    fix: 'Wait a while before retrying, lower the request rate, or allow a longer wait (`rateLimitBudgetMs` in the library).',
  },
  CLIENT_TOKEN_REFUSED_AFTER_LOGIN: {
    category: 'token',
    message: 'The service refused a token obtained a moment ago: {detail}',
    fix: 'Log in again with `quarry login`; check that the key is current and that the account may use this family.',
  },
  CLIENT_DEPTH_LIMIT_REACHED: {
    category: 'budget',
    message:
      'Stopped after {done} of {total} records: the service pages no deeper than {maxDepth} records (skip + limit).',
    fix: 'Use `quarry export --all` (the service exports every record in the background), or split the query into parts below the depth limit, for example by year (`where year = 2020`, `where year = 2021`, ...), and export each part.',
  },
  CLIENT_EXPORT_FAILED: {
    category: 'unavailable',
    message: 'The service could not finish export {id}: {reason}',
    fix: 'Submit the export again; the reason says whether something must change first (an import finished during it, the service stopped and lost its partial file).',
  },
  CLIENT_EXPORT_NEEDS_SERVICE: {
    category: 'input',
    message: 'Bulk exports run on a Quarry service; --db runs queries in this process, which pages them instead.',
    fix: 'Use `quarry query --db FILE --all --out FILE` on a local database, or `quarry export --all` with --url or a stored profile.',
  },
  CLIENT_NOT_PAGEABLE: {
    category: 'input',
    message: 'This query cannot be paged through: {reason}.',
    fix: 'Page through a search with one `return SOURCE` phrase and no `limit`/`skip` of its own; the client adds them.',
  },
  CLI_USAGE: {
    category: 'input',
    message: 'The command line is not valid: {detail}.',
    fix: '`quarry --help` lists the commands, and `quarry COMMAND --help` the arguments and options of one.',
  },
  CLI_FAILED: {
    category: 'internal',
    message: 'The command failed: {detail}.',
    fix: 'Read the detail (a file that cannot be written, for example); if it names nothing you can change, report it with the command line you ran.',
  },
  CLIENT_OPTION_INVALID: {
    category: 'input',
    message: 'The option {option} is not valid: {reason}.',
    fix: 'Correct the named option; `quarry query --help` lists the options and their ranges.',
  },
  CLIENT_CREDENTIALS_UNSUPPORTED: {
    category: 'input',
    message: 'The {family} family logs in with an API key only; username and password work on the auth family.',
    fix: 'Use an API key, or log in with `--family auth` for a legacy username and password.',
  },
  CLIENT_KEY_MISSING: {
    category: 'input',
    message: 'No {what} was given.',
    fix: 'Type it at the prompt, or pipe it on standard input: `printf %s "$KEY" | quarry login --url URL`.',
  },
  CLIENT_NO_PROFILE: {
    category: 'not_found',
    message:
      "No profile named '{name}' in {path}: log in with `quarry login --url URL`, give --url and --key, or query a local database with --db FILE.",
    fix: 'Store one with `quarry login --url URL` (add `--profile NAME` for a named one), or pass --url and --key.',
  },
  CLIENT_PROFILE_FILE_INVALID: {
    category: 'input',
    message: 'The profile file {path} cannot be read: {reason}.',
    fix: 'Repair or delete the file, then store the profile again with `quarry login`.',
  },
  CLIENT_BAD_RESPONSE: {
    category: 'unavailable',
    message: 'The service at {url} answered {status} with something that is not the protocol: {reason}.',
    fix: 'Check that the URL points at a Quarry (or compatible) service and not at another site or a proxy error page.',
  },
  CLIENT_QUERY_REJECTED: {
    category: 'semantic',
    message: 'The service rejected the query ({header}): {detail}',
    fix: 'Correct the query as the message says; `describe schema` lists the sources and fields.',
  },
  CLIENT_REQUEST_REFUSED: {
    category: 'permission',
    message: 'The service refused the request with {status} ({header}): {detail}',
    fix: 'Read the message: the account may need activating or a wider subscription; ask the administrator of the service.',
  },
  CLIENT_AUTHENTICATION_FAILED: {
    category: 'authentication',
    message: 'The service did not accept the credentials ({header}): {detail}',
    fix: 'Check the key (or username and password) with `quarry login`; generate a new key if the old one was revoked.',
  },
  CLIENT_RESUME_MISMATCH: {
    category: 'conflict',
    message: 'Cannot resume the export into {file}: {reason}.',
    fix: 'Resume with the same query, format and page size, or start a new export without --resume (the old file is replaced).',
  },
} as const satisfies CodeTable;

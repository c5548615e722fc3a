import type { CodeTable } from '../code-table.ts';

/**
 * Error codes raised by the service: HTTP, accounts, keys, tokens, rate limits, versions,
 * configuration. Codes are never renamed or reused once published. Authentication messages
 * never name which part of a credential was wrong and never repeat it.
 */
export const SERVICE_CODES = {
  SERVICE_CONFIG_INVALID: {
    category: 'input',
    message: 'The configuration is not valid: {detail}.',
    fix: 'Correct the named setting in the configuration file or the QUARRY_* environment variable (docs/operations.md lists them all), then start again.',
  },
  SERVICE_ADDRESS_IN_USE: {
    category: 'input',
    message:
      'Another program is already listening on {host}:{port}: stop it, or choose another port with --port N or QUARRY_PORT (the address with --host or QUARRY_HOST).',
    fix: 'Stop that program, or choose a free port with --port N (`npm start -- --port 9090`), the QUARRY_PORT environment variable or `port` in the configuration file; the address with --host or QUARRY_HOST.',
  },
  SERVICE_AUTH_HEADER_MISSING: {
    category: 'authentication',
    message:
      "The request has no 'Authorization: {scheme} <token>' header. Get a token at {loginPath} and send it with that scheme.",
    fix: 'Obtain a token from the authentication endpoint of the family you use and send it in the Authorization header with the scheme word shown.',
  },
  SERVICE_MCP_KEY_MISSING: {
    category: 'authentication',
    message:
      "The request has no 'Authorization: Bearer <API key>' header. Configure your MCP client to send your Quarry API key with it.",
    fix: 'Add the header Authorization: Bearer <your API key> to the MCP server entry of your client (docs/mcp.md shows the configuration); keys are created in the account section of the web application or with `quarry keys create`.',
  },
  SERVICE_RECORD_NOT_FOUND: {
    category: 'not_found',
    message: "There is no {source} record with the id '{id}'.",
    fix: 'Check the id and the source: ids come from query results (`search SOURCE ... return SOURCE[id]`); a record id names one source (pub.… publications, grant.… grants, ur.… researchers, grid.… organizations).',
  },
  SERVICE_API_KEY_MISSING: {
    category: 'authentication',
    message: 'The api_key query parameter is missing. Request {path}?api_key=<your API key>.',
    fix: 'Pass your API key as the api_key query parameter; keys are generated in the account section of the web application or with `quarry keys create`.',
  },
  SERVICE_CREDENTIALS_MISSING: {
    category: 'authentication',
    message: 'No credentials were sent. Send a JSON body with "key", or with "username" and "password".',
    fix: 'POST a JSON body such as {"key": "<your API key>"} to the authentication endpoint.',
  },
  SERVICE_CREDENTIALS_INVALID: {
    category: 'authentication',
    message: 'The credentials are not valid.',
    fix: 'Check the API key (or the username and password) you configured; generate a new key if the old one was revoked.',
  },
  SERVICE_TOKEN_INVALID: {
    category: 'token',
    message: 'The token is not valid. Log in again at {loginPath} and retry with the new token.',
    fix: 'Obtain a fresh token from the authentication endpoint; tokens are only valid on the family that issued them.',
  },
  SERVICE_TOKEN_EXPIRED: {
    category: 'token',
    message: 'The token has expired. Log in again at {loginPath} and retry with the new token.',
    fix: 'Tokens live for a limited time (2 hours by default); obtain a new one from the authentication endpoint when a query answers 403.',
  },
  SERVICE_TOKEN_REVOKED: {
    category: 'token',
    message:
      'The token is no longer valid because the API key it was issued for has been revoked. Log in again at {loginPath} with a current key.',
    fix: 'Generate a new API key (or use another of your keys) and obtain a new token with it.',
  },
  SERVICE_ACCOUNT_PENDING: {
    category: 'permission',
    message:
      'Your account awaits activation by the administrator: until it is activated it cannot sign in, get tokens or run queries. If it takes long, contact {contact}.',
    fix: 'An administrator activates accounts (`quarry accounts activate EMAIL`); ask them to do so.',
  },
  SERVICE_ACCOUNT_SUSPENDED: {
    category: 'permission',
    message: 'Your account is suspended; contact {contact}.',
    fix: 'An administrator can reactivate the account (`quarry accounts activate EMAIL`).',
  },
  SERVICE_ACCOUNT_CLOSED: {
    category: 'permission',
    message: 'Your account is closed; contact {contact} if you need access again.',
    fix: 'Closed accounts cannot be reopened; the administrator can create a new account.',
  },
  SERVICE_FAMILY_NOT_SUBSCRIBED: {
    category: 'permission',
    message: 'Your subscription does not include the {family} API family; contact {contact} to extend it.',
    fix: 'The administrator extends a subscription with `quarry accounts subscribe EMAIL --families auth,token`.',
  },
  SERVICE_RATE_LIMITED: {
    category: 'rate_limit',
    message:
      'Too many requests: at most {limit} per {windowSeconds} seconds {scope}. Retry after {retryAfter} seconds.',
    fix: 'Wait for the number of seconds in the Retry-After header, then retry; spread requests out or ask the administrator for a higher limit.',
  },
  SERVICE_VERSION_REMOVED: {
    category: 'gone',
    message: 'DSL version {version} was removed on {removedOn}. Send your queries to {replacement} instead.',
    fix: 'Point the client at the named endpoint; the migration notes list the few fields that changed.',
  },
  SERVICE_QUERY_EMPTY: {
    category: 'input',
    message:
      'The request body is empty. Send the query text as the body, for example: search publications return publications',
    fix: 'POST the DSL text as the raw request body (any Content-Type), or a JSON body {"query": "..."}.',
  },
  SERVICE_QUERY_TOO_LARGE: {
    category: 'budget',
    message: 'The query text is {size} bytes long; at most {max} bytes are accepted.',
    fix: 'Shorten the query, for example by splitting long identifier lists over several queries.',
  },
  SERVICE_QUERY_TIMEOUT: {
    category: 'timeout',
    message:
      'The query took longer than {seconds} seconds and was cancelled. Narrow it with filters (a year range, a source-specific where clause) or return fewer records.',
    fix: 'Add filters or lower the limit; the operator can raise the time limit (query.timeoutMs).',
  },
  SERVICE_EXPORT_NOT_FOUND: {
    category: 'not_found',
    message:
      'There is no export {id} for this account: it never existed, belongs to another account, was cancelled, or its retention period has passed.',
    fix: 'Check the id the submission answered (`POST /api/exports` or `/v3/api/exports`); exports are kept for a limited time after they finish (exports.retentionHours).',
  },
  SERVICE_EXPORT_LIMIT: {
    category: 'rate_limit',
    message:
      'You already have {active} exports queued or running, the most one account may have at once. Retry after {retryAfter} seconds, when one has finished, or cancel one (DELETE its address).',
    fix: 'Wait for an export to finish (GET its address shows its state) or cancel one; the operator sets the cap (exports.maxPerAccount).',
  },
  SERVICE_EXPORT_NOT_READY: {
    category: 'conflict',
    message: 'Export {id} is {state}: its file can be downloaded once it is done.{reason}',
    fix: 'Poll the export (GET its address) until its state is done, then download it; a failed export says why, and can be submitted again.',
  },
  SERVICE_EXPORT_NOT_EXPORTABLE: {
    category: 'input',
    message: 'This query cannot be exported: {reason}.',
    fix: 'Send a search that returns its own source without limit, skip or sort, for example: search publications where year = 2020 return publications[id + title].',
  },
  SERVICE_EXPORT_FORMAT: {
    category: 'input',
    message: "There is no export format '{format}': ask for jsonl (the default) or csv.",
    fix: 'Add ?format=jsonl or ?format=csv to the submission, or leave it out for gzipped JSON lines.',
  },
  SERVICE_BAD_REQUEST: {
    category: 'input',
    message: 'The request could not be read: {detail}.',
    fix: 'Check the request against the protocol description in /docs.',
  },
  SERVICE_BODY_NOT_UTF8: {
    category: 'input',
    message:
      'The request body is not valid UTF-8: the byte at offset {offset} ({byte}) does not begin a well-formed character. Send the query as UTF-8 text.',
    fix: 'Encode the query text as UTF-8 before sending it (most clients do by default); check for text pasted from a Latin-1 or Windows-1252 source.',
  },
  SERVICE_ROUTE_NOT_FOUND: {
    category: 'not_found',
    message: 'There is no {method} {path} here. The API is described at /docs.',
    fix: 'Check the path and method; /docs lists every endpoint.',
  },
  SERVICE_METHOD_NOT_ALLOWED: {
    category: 'method_not_allowed',
    message: '{path} does not answer {method}; it answers {allowed}. The API is described at /docs.',
    fix: 'Use one of the methods in the Allow header (queries are POSTed, tokens are fetched with GET or POST as /docs shows).',
  },
  SERVICE_BODY_TOO_LARGE: {
    category: 'payload_too_large',
    message: 'The request body is larger than {max} bytes, the most this endpoint reads.',
    fix: 'Send a shorter body; query texts are limited to 64 KiB by default (query.maxBytes).',
  },
  SERVICE_MEDIA_TYPE_UNSUPPORTED: {
    category: 'unsupported_media_type',
    message: 'This endpoint does not read request bodies of type {contentType}.',
    fix: 'Send the body with a Content-Type the endpoint reads: the query endpoints read any type, the web forms application/x-www-form-urlencoded or application/json.',
  },
  SERVICE_HEADERS_TOO_LARGE: {
    category: 'headers_too_large',
    message: 'The request headers are larger than {max} bytes, the most this server reads.',
    fix: 'Send fewer or shorter headers (large cookies are the usual cause); the operator can raise http.maxHeaderBytes.',
  },
  SERVICE_MALFORMED_REQUEST: {
    category: 'input',
    message: 'The request is not valid HTTP/1.1 ({reason}); the connection is closed.',
    fix: 'Check the client or proxy that sends the request; the request line, headers and chunked body must follow RFC 9112.',
  },
  SERVICE_REQUEST_TIMEOUT: {
    category: 'request_timeout',
    message:
      'The request did not arrive in time (headers within {headersSeconds} seconds, the whole request within {requestSeconds} seconds); the connection is closed.',
    fix: 'Send the request in one go; a client that trickles its body is cut off. The operator sets the limits (http.headersTimeoutMs, http.requestTimeoutMs).',
  },
  SERVICE_CONNECTIONS_PER_ADDRESS: {
    category: 'rate_limit',
    message:
      'Too many connections from your address: at most {max} may be open at once. Close idle connections and retry after the number of seconds in Retry-After.',
    fix: 'Reuse keep-alive connections instead of opening new ones; the operator sets the cap (http.maxConnectionsPerIp).',
  },
  SERVICE_CONNECTIONS_FULL: {
    category: 'unavailable',
    message: 'The server has {max} connections open, its most. Retry in a moment.',
    fix: 'Retry after the number of seconds in Retry-After; the operator sets the cap (http.maxConnections) or adds instances.',
  },
  SERVICE_UNAVAILABLE: {
    category: 'unavailable',
    message: 'The service cannot answer right now: {reason}. Retry in a moment.',
    fix: 'Retry later; the operator should check that the database (and Redis, when redisUrl is set) answers and the service is not shutting down.',
  },
  SERVICE_BACKEND_UNREACHABLE: {
    category: 'unavailable',
    message: 'The {backend} at {url} cannot be reached: {reason}.',
    fix: 'Start it, or correct the URL in the configuration (database, readUrls, redisUrl or QUARRY_DATABASE_URL / QUARRY_REDIS_URL), then start again.',
  },
  SERVICE_JWT_SECRET_REQUIRED: {
    category: 'input',
    message:
      'On PostgreSQL the token-signing secret is kept outside the database, and none is configured: set QUARRY_JWT_SECRET_FILE (tokens.jwtSecretFile) to a file holding it, or QUARRY_JWT_SECRET (tokens.jwtSecret), the same on every instance.{upgrade}',
    fix: 'Make a secret with `(umask 077; quarry jwt-secret > /etc/quarry/jwt-secret)`, give every instance the same file (or value), and start again; docs/scaling.md, "The token-signing secret", says how to upgrade a database that still holds one.',
  },
  SERVICE_JWT_SECRET_NOT_IN_DATABASE: {
    category: 'not_found',
    message:
      'The database {database} holds no token-signing secret: it never held one, or a start with a configured secret removed it.',
    fix: 'Make a new secret with `quarry jwt-secret`; tokens signed with a secret that is gone cannot stay valid (their holders log in again).',
  },
  SERVICE_ACCOUNT_NOT_FOUND: {
    category: 'not_found',
    message: "There is no account '{account}'.",
    fix: 'Check the e-mail address; `quarry accounts list` shows every account.',
  },
  SERVICE_ACCOUNT_EXISTS: {
    category: 'conflict',
    message: "An account with the {field} '{value}' already exists.",
    fix: 'Use another e-mail address or username, or manage the existing account.',
  },
  SERVICE_ACCOUNT_STATE_CHANGE: {
    category: 'conflict',
    message: 'An account that is {state} cannot be {target}.',
    fix: 'Accounts move pending → active ⇄ suspended → closed; closed accounts stay closed.',
  },
  SERVICE_KEY_NOT_FOUND: {
    category: 'not_found',
    message: "There is no API key '{key}' for this account.",
    fix: 'List the keys with `quarry keys list --account EMAIL` and use the id or name shown there.',
  },
  SERVICE_INVALID_ACCOUNT_INPUT: {
    category: 'input',
    message: 'Invalid {field}: {detail}.',
    fix: 'Correct the value as described and try again.',
  },
} as const satisfies CodeTable;

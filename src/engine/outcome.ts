/**
 * Builds a QueryOutcome from whichever form of the result is at hand, computing the other
 * form only when someone asks for it (the service reads `json`, the console and tests
 * `result`), so neither is ever made twice or made for nothing.
 */
import type { QueryOutcome, QueryResult, QueryTimings } from './types.ts';

/** An outcome from JSON text (what a worker sends back); `result` is parsed on first use. */
export function outcomeFromJson(json: string, timings: QueryTimings): QueryOutcome {
  let parsed: QueryResult | undefined;
  return {
    json,
    timings,
    get result(): QueryResult {
      parsed ??= JSON.parse(json) as QueryResult;
      return parsed;
    },
  };
}

/** An outcome from data (answers made on the calling thread); `json` is stringified on first use. */
export function outcomeFromResult(result: QueryResult, timings: QueryTimings): QueryOutcome {
  let text: string | undefined;
  return {
    result,
    timings,
    get json(): string {
      text ??= JSON.stringify(result);
      return text;
    },
  };
}

/**
 * Builds a QueryOutcome from whichever form of the result is at hand, computing the other
 * form only when someone asks for it (the service reads `json`, the console and tests
 * `result`), so neither is ever made twice or made for nothing.
 */
import type { QueryLabels, QueryOutcome, QueryResult, QueryTimings } from './types.ts';

/** An outcome from JSON text (what a worker sends back); `result` is parsed on first use. */
export function outcomeFromJson(json: string, timings: QueryTimings, labels?: QueryLabels): QueryOutcome {
  let parsed: QueryResult | undefined;
  return {
    json,
    timings,
    ...(labels === undefined ? {} : { labels }),
    get result(): QueryResult {
      parsed ??= JSON.parse(json) as QueryResult;
      return parsed;
    },
  };
}

/** An outcome from data (answers made on the calling thread); `json` is stringified on first use. */
export function outcomeFromResult(result: QueryResult, timings: QueryTimings, labels?: QueryLabels): QueryOutcome {
  let text: string | undefined;
  return {
    result,
    timings,
    ...(labels === undefined ? {} : { labels }),
    get json(): string {
      text ??= JSON.stringify(result);
      return text;
    },
  };
}

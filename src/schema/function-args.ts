import type { ArgumentValue, FunctionCall, Span } from '../dsl/ast.ts';
import { CITATION_YEARS } from './offered.ts';

export type FunctionArgs =
  | { readonly ok: true; readonly args: { readonly from: number; readonly to: number } }
  | { readonly ok: false; readonly problem: string; readonly span: Span };

function year(value: ArgumentValue): number | undefined {
  if (value.kind === 'Number') return value.integer ? value.value : undefined;
  if (value.kind === 'String' && /^\d{4}$/.test(value.value.trim())) return Number(value.value.trim());
  return undefined;
}

/**
 * Reads the arguments of `citations_per_year(from, to)`: two years, positional or named
 * (`from=2010, to=2020`), `from <= to`, at most 200 years apart.
 *
 * @example citationsPerYearArgs(call) // { ok: true, args: { from: 2010, to: 2020 } }
 */
export function citationsPerYearArgs(call: FunctionCall): FunctionArgs {
  const values: { from?: ArgumentValue; to?: ArgumentValue } = {};
  let position = 0;
  for (const arg of call.args) {
    const name = arg.kind === 'NamedArgument' ? arg.name.value : (['from', 'to'][position++] ?? '');
    if (name !== 'from' && name !== 'to') {
      return {
        ok: false,
        problem: arg.kind === 'NamedArgument' ? `unknown argument '${name}'` : 'it takes two arguments, from and to',
        span: arg.span,
      };
    }
    if (values[name] !== undefined) return { ok: false, problem: `'${name}' is given twice`, span: arg.span };
    values[name] = arg.value;
  }
  if (values.from === undefined || values.to === undefined) {
    return { ok: false, problem: 'it takes two arguments, from and to', span: call.span };
  }
  const from = year(values.from);
  const to = year(values.to);
  if (from === undefined) return { ok: false, problem: 'from must be a year', span: values.from.span };
  if (to === undefined) return { ok: false, problem: 'to must be a year', span: values.to.span };
  if (from < CITATION_YEARS.min || to > CITATION_YEARS.max) {
    return {
      ok: false,
      problem: `years must lie between ${CITATION_YEARS.min} and ${CITATION_YEARS.max}`,
      span: call.span,
    };
  }
  if (from > to) return { ok: false, problem: `from (${from}) is after to (${to})`, span: call.span };
  if (to - from > CITATION_YEARS.maxSpan) {
    return { ok: false, problem: `at most ${CITATION_YEARS.maxSpan} years apart`, span: call.span };
  }
  return { ok: true, args: { from, to } };
}

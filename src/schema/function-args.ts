import type { ArgumentValue, FunctionCall, Span } from '../dsl/ast.ts';
import { CITATION_YEARS, FUNDING_CURRENCIES } from './offered.ts';

/** The arguments of a per-year function; `currency` for `funding_per_year` only. */
export interface PerYearArgs {
  readonly from: number;
  readonly to: number;
  readonly currency?: string;
}

export type FunctionArgs =
  | { readonly ok: true; readonly args: PerYearArgs }
  | { readonly ok: false; readonly problem: string; readonly span: Span };

function year(value: ArgumentValue): number | undefined {
  if (value.kind === 'Number') return value.integer ? value.value : undefined;
  if (value.kind === 'String' && /^\d{4}$/.test(value.value.trim())) return Number(value.value.trim());
  return undefined;
}

/**
 * Reads the arguments of `citations_per_year(from, to)` and `funding_per_year(from, to,
 * "CURRENCY")`: two years, positional or named (`from=2010, to=2020`), `from <= to`, at
 * most 200 years apart; for funding a currency of FUNDING_CURRENCIES (any case).
 *
 * @example perYearArgs(call) // { ok: true, args: { from: 2010, to: 2020 } }
 * @example perYearArgs(fundingCall) // { ok: true, args: { from: 2010, to: 2020, currency: 'USD' } }
 */
export function perYearArgs(call: FunctionCall): FunctionArgs {
  const funding = call.name.value === 'funding_per_year';
  const names = funding ? ['from', 'to', 'currency'] : ['from', 'to'];
  const usage = funding ? 'it takes three arguments, from, to and currency' : 'it takes two arguments, from and to';
  const values: Record<string, ArgumentValue | undefined> = {};
  let position = 0;
  for (const arg of call.args) {
    const name = arg.kind === 'NamedArgument' ? arg.name.value : (names[position++] ?? '');
    if (!names.includes(name)) {
      return {
        ok: false,
        problem: arg.kind === 'NamedArgument' ? `unknown argument '${name}'` : usage,
        span: arg.span,
      };
    }
    if (values[name] !== undefined) return { ok: false, problem: `'${name}' is given twice`, span: arg.span };
    values[name] = arg.value;
  }
  const fromValue = values['from'];
  const toValue = values['to'];
  const currencyValue = values['currency'];
  if (fromValue === undefined || toValue === undefined || (funding && currencyValue === undefined)) {
    return { ok: false, problem: usage, span: call.span };
  }
  const from = year(fromValue);
  const to = year(toValue);
  if (from === undefined) return { ok: false, problem: 'from must be a year', span: fromValue.span };
  if (to === undefined) return { ok: false, problem: 'to must be a year', span: toValue.span };
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
  if (!funding || currencyValue === undefined) return { ok: true, args: { from, to } };
  const currency = currencyValue.kind === 'String' ? currencyValue.value.trim().toUpperCase() : '';
  if (!(FUNDING_CURRENCIES as readonly string[]).includes(currency)) {
    return {
      ok: false,
      problem: `currency must be one of ${FUNDING_CURRENCIES.join(', ')} in double quotes`,
      span: currencyValue.span,
    };
  }
  return { ok: true, args: { from, to, currency } };
}

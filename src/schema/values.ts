/**
 * Normalising filter values to the type of the field they are compared with
 * (spec/dsl.md §1, §4): quoted integers become numbers, partial dates become the first day,
 * numbers compared with text become their text.
 */
import type { ScalarValue } from '../dsl/ast.ts';
import type { ScalarType } from './types.ts';

export type Normalised =
  { readonly ok: true; readonly value: string | number } | { readonly ok: false; readonly expected: string };

const INTEGER = /^\s*-?\d+\s*$/;
const FLOAT = /^\s*-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;
const DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:[T ][0-9:.]+Z?)?$/;

const EXPECTED: Record<ScalarType, string> = {
  integer: 'an integer',
  float: 'a number',
  date: 'a date "YYYY-MM-DD" (or "YYYY", "YYYY-MM")',
  string: 'text',
  json: 'text',
};

const OUT_OF_RANGE = {
  ok: false,
  expected: `an integer from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}`,
} as const;

/**
 * @example normaliseValue('integer', parse('... year = "2019" ...').value) // { ok: true, value: 2019 }
 * @example normaliseValue('date', <"2020-03">)                             // { ok: true, value: '2020-03-01' }
 */
export function normaliseValue(type: ScalarType, value: ScalarValue): Normalised {
  const fail = { ok: false, expected: EXPECTED[type] } as const;
  switch (type) {
    case 'integer':
      // A whole number past 2^53 is not the one written once it is a double, and PostgreSQL
      // cannot bind one past int8: both are refused here, saying so.
      if (value.kind === 'Number') {
        if (!value.integer) return fail;
        return Number.isSafeInteger(value.value) ? { ok: true, value: value.value } : OUT_OF_RANGE;
      }
      if (INTEGER.test(value.value)) {
        const n = Number(value.value.trim());
        return Number.isSafeInteger(n) ? { ok: true, value: n } : OUT_OF_RANGE;
      }
      return fail;
    case 'float':
      if (value.kind === 'Number') return Number.isFinite(value.value) ? { ok: true, value: value.value } : fail;
      if (FLOAT.test(value.value)) {
        // "1e400" is Infinity, which no engine compares as the number written.
        const n = Number(value.value.trim());
        return Number.isFinite(n) ? { ok: true, value: n } : fail;
      }
      return fail;
    case 'date': {
      const text = value.kind === 'Number' ? (value.integer ? value.raw : '') : value.value.trim();
      const date = normaliseDate(text);
      return date === undefined ? fail : { ok: true, value: date };
    }
    case 'string':
    case 'json':
      return { ok: true, value: value.kind === 'Number' ? value.raw : value.value };
  }
}

/** `2020` → `2020-01-01`, `2020-03` → `2020-03-01`; undefined when not a real date. */
export function normaliseDate(text: string): string | undefined {
  const m = DATE.exec(text);
  if (m === null) return undefined;
  const year = Number(m[1]);
  const month = m[2] === undefined ? 1 : Number(m[2]);
  const day = m[3] === undefined ? 1 : Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return undefined;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 31;
  if (day > daysInMonth) return undefined;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The words of a `~` value: split on whitespace, empty pieces dropped. */
export function wordsOf(text: string): string[] {
  return text.split(/\s+/u).filter((w) => w.length > 0);
}

/**
 * The ANZSRC Fields of Research 2020 code list (`code, level, label, parent_code`, one row
 * per division, group and field) as categories of scheme `for`, named as the generator and
 * the hosted service name them (`46 Information and Computing Sciences`, `4611 Machine learning`).
 */
import { forCategory } from '../../generate/fields.ts';
import { MalformedRecord, MissingColumn, type Mapped } from './common.ts';
import type { FormatReader } from './reader.ts';

const REQUIRED = ['code', 'level', 'label'] as const;
const LEVELS = new Set(['division', 'group', 'field']);

export class AnzsrcReader implements FormatReader {
  readonly container = 'csv' as const;

  header(columns: readonly string[]): void {
    const missing = REQUIRED.find((c) => !columns.includes(c));
    if (missing !== undefined) throw new MissingColumn('ANZSRC FoR 2020', missing);
  }

  map(source: string | Readonly<Record<string, string>>): Mapped[] {
    if (typeof source === 'string') throw new MalformedRecord('not a CSV row');
    const code = (source['code'] ?? '').trim();
    const level = (source['level'] ?? '').trim();
    const label = (source['label'] ?? '').trim();
    if (!/^\d{2}(\d{2}){0,2}$/.test(code)) throw new MalformedRecord(`${JSON.stringify(code)} is not a FoR code`);
    if (!LEVELS.has(level)) throw new MalformedRecord(`code ${code} has an unknown level ${JSON.stringify(level)}`);
    if (label === '') throw new MalformedRecord(`code ${code} has no label`);
    return [{ kind: 'categories', record: forCategory({ code, level: level as 'division', label }) }];
  }

  end(): Mapped[] {
    return [];
  }
}

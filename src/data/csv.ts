/**
 * A small CSV reader (RFC 4180): quoted fields, doubled quotes, commas and line breaks inside
 * quotes. `CsvLineReader` takes physical lines and yields records with the line they start on;
 * given a tab as delimiter it reads tab-separated files quoted the CSV way (PatentsView's).
 */

/** Fields of one CSV record held on a single line. */
export function parseCsvLine(line: string): string[] {
  const reader = new CsvLineReader();
  const rec = reader.push(line);
  return rec ?? reader.flush() ?? [];
}

/** Joins physical lines into CSV records (a quoted field may span lines). */
export class CsvLineReader {
  private fields: string[] = [];
  private field = '';
  private inQuotes = false;
  private pending = false;

  constructor(private readonly delimiter: string = ',') {}

  /** Feeds one physical line (without its line break); returns a complete record, or undefined while a quoted field is open. */
  push(line: string): string[] | undefined {
    if (this.pending) this.field += '\n';
    this.pending = true;
    for (let k = 0; k < line.length; k++) {
      const c = line[k];
      if (this.inQuotes) {
        if (c === '"') {
          if (line[k + 1] === '"') {
            this.field += '"';
            k++;
          } else this.inQuotes = false;
        } else this.field += c;
      } else if (c === '"' && this.field.length === 0) this.inQuotes = true;
      else if (c === this.delimiter) {
        this.fields.push(this.field);
        this.field = '';
      } else if (c === '\r' && k === line.length - 1) {
        // CRLF line ending
      } else this.field += c;
    }
    if (this.inQuotes) return undefined;
    return this.take();
  }

  /** True while a quoted field is still open. */
  get open(): boolean {
    return this.inQuotes;
  }

  /** The record in progress at end of input (an unterminated quote), if any. */
  flush(): string[] | undefined {
    if (!this.pending) return undefined;
    return this.take();
  }

  private take(): string[] {
    this.fields.push(this.field);
    const out = this.fields;
    this.fields = [];
    this.field = '';
    this.inQuotes = false;
    this.pending = false;
    return out;
  }
}

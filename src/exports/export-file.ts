/**
 * An export's file on disk. While a job runs it appends to `<id>.part`: each chunk is one
 * complete gzip member (gzip files may hold several in a row, and every gunzip reads them as
 * one stream), written and flushed before the job's row records the file's new length. A
 * restart cuts the part file back to that length, so a chunk half-written when the process
 * died is dropped and written again. Only a complete export is renamed to its final name
 * (`<id>.jsonl.gz`, `<id>.csv.gz`), and only a final name is ever served: a partial file
 * never looks complete.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ExportFileFormat } from '../store/exports.ts';

/** The files of one job in the export folder. */
export class ExportFile {
  readonly part: string;
  readonly final: string;

  constructor(dir: string, id: string, format: ExportFileFormat) {
    // Ids are random hex (checked by the routes), so they are safe as file names.
    this.part = join(dir, `${id}.part`);
    this.final = join(dir, `${id}.${format}.gz`);
  }

  /** Starts the part file empty (a new job) or cut back to `bytes` (a resumed one); false when a resumed job's part file is missing or short. */
  open(bytes: number): boolean {
    mkdirSync(dirname(this.part), { recursive: true, mode: 0o700 });
    if (bytes === 0) {
      closeSync(openSync(this.part, 'w', 0o600));
      return true;
    }
    if (!existsSync(this.part) || statSync(this.part).size < bytes) return false;
    truncateSync(this.part, bytes);
    return true;
  }

  /** Appends `text` as one gzip member and flushes it to disk; answers the bytes written. */
  append(text: string): number {
    if (text === '') return 0;
    const member = gzipSync(Buffer.from(text, 'utf8'));
    const fd = openSync(this.part, 'a');
    try {
      writeSync(fd, member);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return member.length;
  }

  /** Gives the complete part file its final name. */
  complete(): void {
    renameSync(this.part, this.final);
  }

  remove(): void {
    rmSync(this.part, { force: true });
    rmSync(this.final, { force: true });
  }
}

/**
 * The last stage of a decompressing input (gzip, a zip entry, a gzip inside a zip): counts
 * the bytes it passes on against the bytes read from disk so far, and fails the stream with
 * `LimitExceeded` as soon as either passes the import's limits, so a bomb is stopped after
 * at most a chunk past the limit whatever it would unpack to.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { formatBytes, LimitExceeded, limitParams, RATIO_FLOOR_BYTES, type ImportLimits } from './limits.ts';

/**
 * Why `unpacked` bytes from `packed` bytes of disk break the limits, or undefined. The ratio
 * is judged from `RATIO_FLOOR_BYTES` unpacked on: the disk is read ahead of the unpacking, so
 * early on the ratio is understated, and a small file may unpack far without harm.
 */
export function unpackedTooFar(unpacked: number, packed: number, limits: ImportLimits): LimitExceeded | undefined {
  if (unpacked > limits.maxDecompressedBytes)
    return new LimitExceeded(
      'DATA_DECOMPRESSED_TOO_LARGE',
      limitParams('maxDecompressedBytes', limits.maxDecompressedBytes),
    );
  if (unpacked > RATIO_FLOOR_BYTES && unpacked > packed * limits.maxCompressionRatio)
    return new LimitExceeded('DATA_COMPRESSION_RATIO', {
      ...limitParams('maxCompressionRatio', limits.maxCompressionRatio),
      unpacked: formatBytes(unpacked),
      packed: formatBytes(packed),
    });
  return undefined;
}

export class UnpackGuard extends Transform {
  private unpacked = 0;

  /** `packed()` gives the bytes read from disk so far. */
  constructor(
    private readonly packed: () => number,
    private readonly limits: ImportLimits,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.unpacked += chunk.length;
    const exceeded = unpackedTooFar(this.unpacked, this.packed(), this.limits);
    if (exceeded === undefined) done(null, chunk);
    else done(exceeded);
  }
}

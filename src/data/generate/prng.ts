/**
 * A counter-based random source: every draw is a hash of (seed, entity type, entity index,
 * draw name, draw number), so any entity can be generated alone, in any order, and give the
 * same values on every run and machine. No hidden state is shared between entities.
 *
 * @example
 *   const r = draws(20240601, 'publication', 42, 'authors');
 *   r.next(); // a float in [0, 1), the same on every run
 */

/** A 32-bit integer hash with good avalanche (lowbias32). */
export function mix32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x21f0aaad);
  h ^= h >>> 15;
  h = Math.imul(h, 0x735a2d97);
  h ^= h >>> 15;
  return h >>> 0;
}

/** FNV-1a over a string, finished with mix32: names of entity types and draws. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) {
    h ^= text.charCodeAt(k);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** The key of one (seed, entity, index, draw) stream. */
export function streamKey(seed: number, entity: number, index: number, draw: number): number {
  let h = mix32(seed ^ 0x9e3779b9);
  h = mix32(h ^ entity);
  h = mix32(h ^ index);
  h = mix32((h + Math.imul(index >>> 16, 0x85ebca6b)) ^ draw);
  return h;
}

/** A stream of draws; `next()` advances only this stream's counter. */
export class Draws {
  private counter = 0;
  constructor(private readonly key: number) {}

  /** A float in [0, 1). */
  next(): number {
    const n = this.counter++;
    return mix32(this.key + Math.imul(n, 0x9e3779b9)) / 4294967296;
  }

  /** An integer in [lo, hi] (inclusive). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list, uniformly. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** A standard normal deviate (Box–Muller, one of the pair). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

/** Streams for one generator run (seed fixed): `draws(entity, index, draw)`. */
export class RandomSource {
  private readonly names = new Map<string, number>();
  constructor(readonly seed: number) {}

  private code(name: string): number {
    let h = this.names.get(name);
    if (h === undefined) {
      h = hashString(name);
      this.names.set(name, h);
    }
    return h;
  }

  /** The stream of draw `draw` for entity `entity` number `index`. */
  draws(entity: string, index: number, draw: string): Draws {
    return new Draws(streamKey(this.seed, this.code(entity), index, this.code(draw)));
  }

  /** One float in [0, 1) for (entity, index, draw): shorthand for a single draw. */
  uniform(entity: string, index: number, draw: string): number {
    return mix32(streamKey(this.seed, this.code(entity), index, this.code(draw))) / 4294967296;
  }
}

/** A copy of `items` in a random order (Fisher–Yates, from the last place down), drawn from `r`. */
export function shuffledWith<T>(items: readonly T[], r: Draws): T[] {
  const out = [...items];
  for (let k = out.length - 1; k > 0; k--) {
    const j = Math.floor(r.next() * (k + 1));
    const t = out[k] as T;
    out[k] = out[j] as T;
    out[j] = t;
  }
  return out;
}

/**
 * The time source for everything that expires or counts per window (tokens, rate limits,
 * version periods, usage days). Injected so tests can move time instead of waiting.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock that only moves when told to; for tests.
 *
 * @example
 * const clock = manualClock('2022-01-01T00:00:00Z');
 * clock.advance(60_000);
 */
export function manualClock(
  start: string | number,
): Clock & { advance(ms: number): void; set(at: string | number): void } {
  let current = typeof start === 'number' ? start : Date.parse(start);
  return {
    now: () => current,
    advance(ms) {
      current += ms;
    },
    set(at) {
      current = typeof at === 'number' ? at : Date.parse(at);
    },
  };
}

/**
 * CPU seconds per thread of this process (Linux, from /proc/self/task), sampled while a
 * benchmark runs so threads that end before it (an import's reading thread) still count.
 * Wall time on the shared machine is noisy; the CPU of the busiest thread is what bounds the
 * wall time of a pipeline on a quiet one.
 *
 * @example
 *   const sampler = sampleThreadCpu();
 *   await work();
 *   sampler.stop(); // [{ tid, name, seconds }, ...], busiest first
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ThreadCpu {
  readonly tid: number;
  /** The thread's name: `node` for the main thread, `node` or a V8 role (GC, compiler) for others. */
  readonly name: string;
  /** The main thread (this process's pid) runs the writer. */
  readonly main: boolean;
  readonly seconds: number;
}

const TICKS_PER_SECOND = 100;

function readThreads(): Map<number, { name: string; seconds: number }> {
  const out = new Map<number, { name: string; seconds: number }>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return out; // not Linux
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime are fields 14 and 15 of stat(5), 12 and 13 after the name.
      out.set(Number(tid), { name, seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND });
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/** Starts sampling every `everyMs`; `stop()` returns each thread's CPU used since the start. */
export function sampleThreadCpu(everyMs = 250): { stop(): ThreadCpu[] } {
  const start = readThreads();
  const last = new Map(start);
  const take = (): void => {
    for (const [tid, t] of readThreads()) last.set(tid, t);
  };
  const timer = setInterval(take, everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      take();
      return [...last]
        .map(([tid, t]) => ({
          tid,
          name: t.name,
          main: tid === process.pid,
          seconds: t.seconds - (start.get(tid)?.seconds ?? 0),
        }))
        .filter((t) => t.seconds > 0)
        .sort((a, b) => b.seconds - a.seconds);
    },
  };
}

/** `writer (main) 12.3 s, 21.0 s, 1.2 s, ...`: the threads that used 0.5 s or more. */
export function describeThreads(threads: readonly ThreadCpu[]): string {
  return threads
    .filter((t) => t.seconds >= 0.5)
    .map((t) => `${t.main ? 'main ' : ''}${t.seconds.toFixed(1)} s`)
    .join(', ');
}

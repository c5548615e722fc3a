/**
 * A progress bar on stderr for long generate and import runs; silent when stderr is not a
 * terminal (logs and pipes get only the final summary).
 */
import progress from 'cli-progress';

export interface ProgressBar {
  update(done: number, total: number, phase: string): void;
  stop(): void;
}

/** A bar when stderr is a TTY (or `force`), otherwise a no-op. */
export function progressBar(label: string, force = false): ProgressBar {
  if (!force && process.stderr.isTTY !== true) return { update: () => undefined, stop: () => undefined };
  const bar = new progress.SingleBar(
    {
      format: `${label} {bar} {percentage}% | {phase}`,
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: false,
    },
    progress.Presets.shades_classic,
  );
  let started = false;
  let lastTotal = 0;
  return {
    update(done, total, phase) {
      if (!started) {
        bar.start(Math.max(1, total), 0, { phase });
        started = true;
        lastTotal = total;
      }
      if (total !== lastTotal) {
        bar.setTotal(Math.max(1, total));
        lastTotal = total;
      }
      bar.update(Math.min(done, total), { phase });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

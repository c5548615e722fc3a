/**
 * The import's reading thread (started by read-pipeline.ts through a one-thread Piscina pool,
 * which loads TypeScript and compiled modules alike): one task reads the whole plan with
 * `readInputs` and posts its events on the task's port to the importer, which writes them. A
 * batch is posted only while the importer has granted room for it (a `credit` message per
 * batch written), so no more than the window of batches waits between the two threads.
 */
import { Piscina } from 'piscina';
import { QuarryError } from '../../errors/index.ts';
import { workerExecArgv, workerModule } from '../../worker-module.ts';
import type { PrepareTask } from './prepare-worker.ts';
import type { MappedSource } from './read-batches.ts';
import { readInputs, type SourceMapper } from './read-inputs.ts';
import { READER_YOUNG_GENERATION_MB, type ReaderMessage, type ReadTask } from './read-thread-contract.ts';

/** The helper threads, started on first use. */
function helperPool(helpers: number): SourceMapper & { close(): Promise<void> } {
  let pool: Piscina | undefined;
  return {
    helpers,
    map(format, input, preparation, sources) {
      if (pool === undefined) {
        const filename = workerModule('prepare-worker', import.meta.url);
        pool = new Piscina({
          filename: filename.href,
          minThreads: helpers,
          maxThreads: helpers,
          idleTimeout: Number.POSITIVE_INFINITY,
          execArgv: workerExecArgv(filename),
          resourceLimits: { maxYoungGenerationSizeMb: READER_YOUNG_GENERATION_MB },
        });
      }
      const task: PrepareTask = { format, input, preparation, sources };
      return pool.run(task) as Promise<MappedSource<unknown>[]>;
    },
    close: async () => pool?.destroy(),
  };
}

export default async function read({ plan, window, port, helpers }: ReadTask): Promise<void> {
  const post = (message: ReaderMessage): void => port.postMessage(message);
  let credits = window;
  let waiting: (() => void) | undefined;
  port.on('message', () => {
    credits++;
    waiting?.();
    waiting = undefined;
  });
  const where = { file: '', line: 0 };
  const mapper = helpers > 0 ? helperPool(helpers) : undefined;
  try {
    await readInputs(
      plan,
      async (event) => {
        if (event.type === 'batch') {
          while (credits === 0) await new Promise<void>((resolve) => (waiting = resolve));
          credits--;
        }
        post(event);
      },
      where,
      mapper,
    );
    post({ type: 'end' });
  } catch (err) {
    if (err instanceof QuarryError) post({ type: 'error', problems: err.problems });
    else post({ type: 'failed', ...where, reason: err instanceof Error ? err.message : String(err) });
  } finally {
    port.close();
    await mapper?.close();
  }
}

/**
 * Where a worker thread's module is and how to start it, for every part that starts one (the
 * query pool in src/engine, the import's reading thread in src/data). A leaf: no imports of ours.
 */

/**
 * The URL of the worker module `name` that sits beside the module at `base` (pass
 * `import.meta.url`): `./name.ts` when Quarry runs from its sources, `./name.js` when it runs
 * compiled, where scripts/build.mjs makes every `worker.ts` and `*-worker.ts` an entry of its own directly in
 * dist/, beside the chunk `base` then points to.
 *
 * @example new WorkerPool({ filename: workerModule('worker', import.meta.url) })
 */
export function workerModule(name: string, base: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

/**
 * Worker threads do not inherit tsx from the main thread: a TypeScript worker loads it itself.
 * The loader is named by its resolved address, not the bare name `tsx`, which Node would
 * look up from the working directory: a service started from outside the project (`cd /srv
 * && quarry serve`) must still find it.
 */
export function workerExecArgv(filename: URL): string[] {
  const inherited: string[] = [];
  for (let i = 0; i < process.execArgv.length; i++) {
    const arg = process.execArgv[i] as string;
    if (arg === '--test' || arg === '--import=tsx') continue;
    // A bare `--import tsx` given to this process is replaced by the resolved one below.
    if (arg === '--import' && process.execArgv[i + 1] === 'tsx') {
      i++;
      continue;
    }
    inherited.push(arg);
  }
  if (!filename.pathname.endsWith('.ts')) return inherited;
  // A worker started from a worker has the resolved loader in its execArgv already (and,
  // loaded through tsx's CommonJS path, no import.meta.resolve to find it with).
  if (inherited.some((arg, i) => inherited[i - 1] === '--import' && /[\\/]tsx[\\/]/.test(arg))) return inherited;
  return [...inherited, '--import', import.meta.resolve('tsx')];
}

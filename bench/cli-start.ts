/**
 * How long `quarry --help` takes to start and exit, compiled (dist/, what `npm ci` builds)
 * and from the sources through tsx, beside a bare `node` start for scale. The runs of the
 * three are interleaved so that load from other processes falls on each alike. Target:
 * compiled ≤ 300 ms.
 *
 *   npx tsx bench/cli-start.ts [--runs 20] [--args "--version"]
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' }, args: { type: 'string' } } });
const runs = Number(values.runs);
const bin = new URL('../bin/quarry.js', import.meta.url).pathname;
const args = values.args === undefined ? ['--help'] : values.args.split(' ');

const build = spawnSync(process.execPath, [new URL('../scripts/build.mjs', import.meta.url).pathname, '--quiet']);
if (build.status !== 0) throw new Error(`the build failed:\n${build.stderr.toString()}`);

const modes = {
  'node -e ""': { argv: ['-e', ''], env: {} },
  compiled: { argv: [bin, ...args], env: {} },
  'from source (tsx)': { argv: [bin, ...args], env: { QUARRY_FROM_SOURCE: '1' } },
} as const;
const times = new Map<string, number[]>(Object.keys(modes).map((name) => [name, []]));

for (let i = 0; i < runs; i++) {
  for (const [name, mode] of Object.entries(modes)) {
    const t0 = performance.now();
    const run = spawnSync(process.execPath, mode.argv, { env: { ...process.env, ...mode.env }, encoding: 'utf8' });
    const ms = performance.now() - t0;
    if (run.status !== 0) throw new Error(`${name} failed (${run.status}): ${run.stderr}`);
    times.get(name)?.push(ms);
  }
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
console.log(`quarry ${args.join(' ')}: ${runs} runs each (ms)`);
console.log(`${'mode'.padEnd(20)} ${'min'.padStart(6)} ${'median'.padStart(7)} ${'p90'.padStart(6)}`);
for (const [name, list] of times) {
  const sorted = [...list].sort((a, b) => a - b);
  const row = [quantile(sorted, 0), quantile(sorted, 0.5), quantile(sorted, 0.9)].map((v) => v.toFixed(0));
  console.log(`${name.padEnd(20)} ${row[0]?.padStart(6)} ${row[1]?.padStart(7)} ${row[2]?.padStart(6)}`);
}

/**
 * The pages' static assets, built in memory when the web plugin starts: the console's
 * JavaScript (TypeScript sources under `console/`, CodeMirror and chart.js bundled and
 * minified by esbuild, about 100 ms) and the style sheet. Nothing is fetched from elsewhere
 * and nothing is written to disk, so `npm ci && npm start` stays the whole set-up.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { packageFile } from '../package-root.ts';

export interface Asset {
  readonly body: string;
  readonly type: string;
  /** A content hash: the asset's URL carries it, so browsers may cache it for good. */
  readonly hash: string;
  /** The body gzip-compressed, for browsers that accept it. */
  readonly gzip: Buffer;
}

export interface Assets {
  readonly consoleJs: Asset;
  /** The small script every page loads (copy buttons). */
  readonly pageJs: Asset;
  readonly styles: Asset;
}

function asset(body: string, type: string): Asset {
  return {
    body,
    type,
    hash: createHash('sha256').update(body).digest('hex').slice(0, 16),
    gzip: gzipSync(body, { level: 9 }),
  };
}

/** Bundles one entry under `console/` with esbuild; throws with esbuild's messages when it fails. */
async function bundle(entry: string): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [packageFile(`src/web/console/${entry}`)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2020'],
    minify: true,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error(`esbuild produced no output for ${entry}`);
  return output.text;
}

let cached: Promise<Assets> | undefined;

/** The assets, built once per process (tests build several apps). */
export function loadAssets(): Promise<Assets> {
  cached ??= (async () => {
    const [consoleJs, pageJs, css] = await Promise.all([
      bundle('main.ts'),
      bundle('page.ts'),
      readFile(packageFile('src/web/styles.css'), 'utf8'),
    ]);
    const js = 'text/javascript; charset=utf-8';
    return {
      consoleJs: asset(consoleJs, js),
      pageJs: asset(pageJs, js),
      styles: asset(css, 'text/css; charset=utf-8'),
    };
  })();
  cached.catch(() => {
    cached = undefined;
  });
  return cached;
}

// Writes docs/errors.md from the error-code registry: `npm run docs:errors`.
// test/errors/registry.test.ts fails when the committed file differs from this output.
import { writeFileSync } from 'node:fs';
import { renderErrorsDoc } from '../src/errors/docs.ts';

const target = new URL('../docs/errors.md', import.meta.url);
writeFileSync(target, renderErrorsDoc());
console.log(`wrote ${target.pathname}`);

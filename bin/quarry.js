#!/usr/bin/env node
// The `quarry` command. Quarry runs its TypeScript sources through tsx, so `npm ci` is the
// whole installation. Worker threads do not inherit this registration: the engine's pool
// passes `--import tsx` to its workers itself.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main(process.argv);

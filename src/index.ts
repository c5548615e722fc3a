/**
 * The package's entry point: the Quarry client library (`import { connect } from 'quarry'`).
 * The service, the engine and the command line are run through `quarry` (bin/quarry.js).
 */
export * from './client/index.ts';

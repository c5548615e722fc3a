import type { CodeTable } from '../code-table.ts';

/** Error codes raised by `src/data`-area modules. Codes are never renamed or reused once published. */
export const DATA_CODES = {
  DATA_BAD_SCALE: {
    category: 'input',
    message: 'The number of publications must be a whole number from 1 to 99,999,999; got {value}.',
    fix: 'Give a scale such as `--publications 10000`.',
  },
  DATA_BAD_SEED: {
    category: 'input',
    message: 'The seed must be a whole number from 0 to 4294967295; got {value}.',
    fix: 'Give a seed such as `--seed 20240601`, or leave it out for the default.',
  },
  DATA_SHARED_DATA_MISSING: {
    category: 'unavailable',
    message: 'The reference data could not be read from {dir}: {reason}',
    fix: 'Leave --data-dir out to use the data vendored in the repository (src/data/vendor/), or point it at a folder made by scripts/vendor-data.ts.',
  },
  DATA_VALIDATION_FAILED: {
    category: 'internal',
    message: 'The generated data are out of tolerance: {checks}',
    fix: 'This is a generator defect; report it with the seed and scale. The shards and manifest.json were written for inspection.',
  },
  DATA_OUTPUT_NOT_EMPTY: {
    category: 'conflict',
    message: 'The output folder {dir} already holds generated data.',
    fix: 'Choose an empty folder, or pass --force to overwrite it.',
  },
  DATA_FILE_NOT_FOUND: {
    category: 'not_found',
    message: 'No such file or folder: {path}',
    fix: 'Check the path; folders are searched for .jsonl, .jsonl.gz, .json and .csv files.',
  },
  DATA_UNKNOWN_FORMAT: {
    category: 'input',
    message: 'Cannot tell the format of {path}.',
    fix: 'Name it with --format quarry|openalex|ror|crossref|nih.',
  },
  DATA_BAD_FORMAT_OPTION: {
    category: 'input',
    message: 'Unknown format {value}; expected auto, quarry, openalex, ror, crossref or nih.',
    fix: 'Use one of the listed formats.',
  },
  DATA_BAD_ON_ERROR_OPTION: {
    category: 'input',
    message: 'Unknown --on-error value {value}; expected skip or abort.',
    fix: 'Use --on-error skip to report and skip malformed records, or --on-error abort to stop at the first.',
  },
  DATA_IMPORT_ABORTED: {
    category: 'input',
    message: 'Import stopped at {file}:{line} ({reason}); {committed} records before it are committed.',
    fix: 'Fix the record and import again (re-importing updates records, never duplicates them), or use --on-error skip.',
  },
} as const satisfies CodeTable;

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
  DATA_BAD_SOURCE_RECORDS: {
    category: 'input',
    message: '--source-records takes source=number pairs of the sources with a generator ({sources}); got {value}.',
    fix: 'Give pairs such as `--source-records patents=1000000,clinical_trials=300000`.',
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
    fix: 'Check the path; folders are searched for .jsonl, .json and .csv files (plain or .gz), .zip archives, OpenAlex snapshot partitions (updated_date=*/part_*.gz), USPTO .xml files, PatentsView tables (g_*.tsv, plain or .gz) and DataCite Public Data File tars (.tar, .tar.gz, .tgz).',
  },
  DATA_UNKNOWN_FORMAT: {
    category: 'input',
    message: 'Cannot tell the format of {path}: name it with --format (one of {formats}).',
    fix: 'Name it with --format (`quarry import --help` lists the formats and the files each reads).',
  },
  DATA_FOLDER_EMPTY: {
    category: 'input',
    message:
      'The folder {path} holds no file Quarry imports: name the files themselves with --format (one of {formats}), or see `quarry import --help` for the files each format reads.',
    fix: 'Check the path; a folder is searched for the files the formats read (.jsonl, .json, .csv, plain or .gz, .zip, OpenAlex partitions, USPTO .xml, PatentsView tables, DataCite tars).',
  },
  DATA_BAD_FORMAT_OPTION: {
    category: 'input',
    message: 'Unknown format {value}; expected auto or one of {formats}.',
    fix: 'Use one of the listed formats.',
  },
  DATA_BAD_ON_ERROR_OPTION: {
    category: 'input',
    message: 'Unknown --on-error value {value}; expected skip or abort.',
    fix: 'Use --on-error skip to report and skip malformed records, or --on-error abort to stop at the first.',
  },
  DATA_FILE_EMPTY: {
    category: 'input',
    message: '{file} is empty: it holds no records.',
    fix: 'Check that the download or copy finished; an empty file is never imported silently.',
  },
  DATA_FILE_TRUNCATED: {
    category: 'input',
    message: '{file}:{line}: the compressed data ends early ({reason}); {committed} records before it are committed.',
    fix: 'The file is cut short (an interrupted download or copy): fetch it again and re-run the import; records already imported are updated, never duplicated.',
  },
  DATA_CSV_MISSING_COLUMN: {
    category: 'input',
    message: '{file}:1: the {format} header has no {column} column (found: {found}).',
    fix: 'Use the file as published, with its header row; the layouts Quarry reads and their columns are in the README (Data: importers).',
  },
  DATA_ZIP_NOTHING_READABLE: {
    category: 'input',
    message: '{file} holds no file Quarry can import (entries: {entries}).',
    fix: 'Give the ROR data dump zip (with a *_schema_v2.json file), an NIH ExPORTER yearly zip (one CSV), a USPTO weekly zip (its .xml), a zipped PatentsView table (g_*.tsv.zip) or the ClinicalTrials.gov bulk download (ctg-studies.json.zip), or unzip the archive and import the data files in it.',
  },
  DATA_ZIP_UNREADABLE: {
    category: 'input',
    message: '{file} is not a readable zip archive: {reason}',
    fix: 'Check that the download finished (a zip is read from its end, so a cut-short file cannot be opened); fetch it again.',
  },
  DATA_TAR_UNREADABLE: {
    category: 'input',
    message: '{file} is not a readable tar archive: {reason}',
    fix: 'Check that the download finished (a tar cut short ends inside an entry) and that the file is the archive it claims to be; fetch it again, or unpack it and import the JSON Lines files in it.',
  },
  DATA_BACKUP_EXISTS: {
    category: 'conflict',
    message: 'The backup file {path} exists already.',
    fix: 'Give a new file name (a backup never overwrites a file), or remove the old one first.',
  },
  DATA_NO_INPUT: {
    category: 'input',
    message: 'Nothing to import into {db}: no files or folders were given.',
    fix: 'Name the files or folders to import, or pass --resume to complete an import that did not finish.',
  },
  DATA_NOTHING_TO_RESUME: {
    category: 'input',
    message: 'Every import into {db} ended; there is nothing to resume.',
    fix: 'Leave out --resume to start a new import (re-importing records updates them, never duplicates them).',
  },
  DATA_RESUME_INPUTS_CHANGED: {
    category: 'input',
    message: 'The files of the unfinished import into {db} are not the same any more (added, removed or renamed).',
    fix: 'Put the files back as they were and resume; or give the import up with `quarry import --discard-unfinished --db {db}` and import the files again (records are updated, not duplicated).',
  },
  DATA_IMPORT_UNFINISHED: {
    category: 'unavailable',
    message:
      'The record database {db} is not complete (complete it with `quarry import --resume`, or give it up with `--discard-unfinished`): {detail}.',
    fix: 'Run `quarry import --resume --db {db}` to complete the import (`--resume N` names one when several did not finish), or give it up with `quarry import --discard-unfinished --db {db}` (the records it committed stay), or restore a backup made with `quarry backup`; then start again.',
  },
  DATA_UNFINISHED_IMPORT_PENDING: {
    category: 'conflict',
    message:
      'An earlier import into {db} did not finish (or is still running), so a new one is refused (complete it with `quarry import --resume`, give it up with `--discard-unfinished`, or import beside it with `--keep-unfinished`): {detail}.',
    fix: 'Complete it with `quarry import --resume --db {db}`, or give it up with `quarry import --discard-unfinished --db {db}` (the records it committed stay); then import again. To import now and see to it later, add --keep-unfinished: the service refuses the database until every unfinished import is resumed or discarded.',
  },
  DATA_UNFINISHED_IMPORT_AMBIGUOUS: {
    category: 'input',
    message:
      '{count} imports into {db} did not finish; name one by its number (`--resume N`, `--discard-unfinished N`): {detail}.',
    fix: 'Say which by its number: `quarry import --resume N --db {db}` completes import N, `quarry import --discard-unfinished N --db {db}` gives it up.',
  },
  DATA_UNFINISHED_IMPORT_UNKNOWN: {
    category: 'not_found',
    message: 'Import {id} is not an unfinished import into {db}; {detail}.',
    fix: 'Give the number of one of the imports the message lists as not finished.',
  },
  DATA_NOTHING_TO_DISCARD: {
    category: 'input',
    message: 'Every import into {db} ended; there is nothing to discard.',
    fix: 'Nothing needs doing: no import into the database is unfinished.',
  },
  DATA_BAD_IMPORT_NUMBER: {
    category: 'input',
    message: 'An import is named by its number (1, 2, 3, ...); got {value}.',
    fix: 'Give the number that follows "import" in the message that named the unfinished import, as in `quarry import --resume 2 --db FILE`.',
  },
  DATA_IMPORT_ABORTED: {
    category: 'input',
    message: 'Import stopped at {file}:{line} ({reason}); {committed} records before it are committed.',
    fix: 'Fix the record and import again (re-importing updates records, never duplicates them), or use --on-error skip.',
  },
  DATA_IMPORT_READER_FAILED: {
    category: 'internal',
    message:
      'Import stopped: the thread reading the files failed at {file}:{line} ({reason}); {committed} records before it are committed.',
    fix: 'Report the failure with the file that caused it; `quarry import --resume --db {db}` completes the import once it reads.',
  },
  DATA_LINE_TOO_LONG: {
    category: 'input',
    message:
      '{file}:{line}: a line, or a record spanning lines, is longer than {limit}, the most an import holds as one record (raise it with {option}); the file is read no further.',
    fix: 'Real records are far shorter (the longest OpenAlex works take a few MiB): check that the file is the data it claims to be. If its records are this long, raise the limit with the option the message names (`quarry import --max-line-mb N`). Records before the line stay imported; with --on-error skip the other files are read.',
  },
  DATA_DECOMPRESSED_TOO_LARGE: {
    category: 'input',
    message:
      '{file}:{line}: it unpacks to more than {limit}, the most an import unpacks from one compressed file or zip entry (raise it with {option}); the file is read no further.',
    fix: 'Check that the file is the data it claims to be (a decompression bomb unpacks without end). If it really holds that much, raise the limit with `quarry import --max-decompressed-gb N`, or split it. Records before the line stay imported; with --on-error skip the other files are read.',
  },
  DATA_COMPRESSION_RATIO: {
    category: 'input',
    message:
      '{file}:{line}: it unpacks to {unpacked} from {packed}, more than {limit} (raise it with {option}); the file is read no further.',
    fix: 'Compressed JSON and CSV unpack to 2 to 15 times their size; far more is the mark of a decompression bomb: check where the file came from. If the data are really that repetitive, raise the limit with `quarry import --max-compression-ratio N`. Records before the line stay imported; with --on-error skip the other files are read.',
  },
  DATA_MANIFEST_UNREADABLE: {
    category: 'input',
    message: '{manifest} is not a manifest Quarry can read: {reason}',
    fix: 'A folder with a manifest.json is read as `quarry generate` wrote it: a JSON object whose `shards` list each file and its kind. Restore the file, or name the files to import on the command line.',
  },
  DATA_MANIFEST_PATH_OUTSIDE: {
    category: 'input',
    message: '{manifest} names {path}, which is not a file inside its folder {dir}.',
    fix: 'A manifest lists files in its own folder only (as `quarry generate` writes it). Use the folder as it was written, or name the files to import on the command line.',
  },
  DATA_BAD_LIMIT_OPTION: {
    category: 'input',
    message: '{option} must be a positive number; got {value}.',
    fix: 'Give a number above zero, such as `--max-line-mb 256`, `--max-decompressed-gb 200` or `--max-compression-ratio 500`, or leave the option out for its default (64, 64 and 100).',
  },
} as const satisfies CodeTable;

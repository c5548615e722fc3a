/**
 * The console's query history, kept in the browser (localStorage) so it survives a reload:
 * the most recent query first, a query run again moves to the top instead of repeating,
 * at most `HISTORY_LIMIT` entries. Storage that is full, disabled or holds something else
 * never breaks the console: the history is then simply empty or not saved.
 */

export const HISTORY_KEY = 'quarry.console.history';
export const HISTORY_LIMIT = 50;

export interface HistoryEntry {
  readonly query: string;
  readonly version: number;
  /** When it last ran (ms since the epoch). */
  readonly at: number;
}

/** The part of the Web Storage interface the history needs (tests pass a Map-backed one). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

function isEntry(value: unknown): value is HistoryEntry {
  const e = value as Partial<HistoryEntry> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.query === 'string' &&
    typeof e.version === 'number' &&
    typeof e.at === 'number'
  );
}

export function readHistory(storage: KeyValueStorage): HistoryEntry[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(HISTORY_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isEntry).slice(0, HISTORY_LIMIT) : [];
  } catch {
    return [];
  }
}

/** Records a query that ran; returns the history as now stored. */
export function remember(storage: KeyValueStorage, entry: HistoryEntry): HistoryEntry[] {
  const query = entry.query.trim();
  if (query === '') return readHistory(storage);
  const next = [
    { ...entry, query },
    ...readHistory(storage).filter((e) => e.query !== query || e.version !== entry.version),
  ].slice(0, HISTORY_LIMIT);
  try {
    storage.setItem(HISTORY_KEY, JSON.stringify(next));
  } catch {
    // Full or disabled storage: the history just is not kept.
  }
  return next;
}

/** Forgets every entry. */
export function clearHistory(storage: KeyValueStorage): void {
  try {
    storage.setItem(HISTORY_KEY, '[]');
  } catch {
    // Nothing to clear where nothing can be stored.
  }
}

/**
 * The console address that loads and runs a query (`/console?q=...`, plus `&v=1` for the
 * legacy language version).
 *
 * @example permalink('http://h', 'search grants return grants', 2) // 'http://h/console?q=search+grants+return+grants'
 */
export function permalink(origin: string, query: string, version: number): string {
  const params = new URLSearchParams({ q: query });
  if (version !== 2) params.set('v', String(version));
  return `${origin}/console?${params.toString()}`;
}

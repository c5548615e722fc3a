/** Runs every closer even when one fails, then rethrows the first failure. */
export async function closeInOrder(closers: ReadonlyArray<() => Promise<void>>): Promise<void> {
  let first: Error | undefined;
  for (const close of closers) {
    try {
      await close();
    } catch (error) {
      first ??= error instanceof Error ? error : new Error('closing a back end failed', { cause: error });
    }
  }
  if (first !== undefined) throw first;
}

/**
 * Runs `open` with a list it adds closers to as it opens things; when it fails, closes what
 * it had opened, in that list's order, and rethrows.
 */
export async function openOrClose<T>(open: (closers: Array<() => Promise<void>>) => Promise<T> | T): Promise<T> {
  const closers: Array<() => Promise<void>> = [];
  try {
    return await open(closers);
  } catch (error) {
    await closeInOrder(closers);
    throw error;
  }
}

import { QuarryError } from '../../errors/index.ts';

/**
 * Runs Redis commands; any failure becomes what the request answers when Redis does not:
 * 503 SERVICE_UNAVAILABLE with the protocol's error body, never a 500 and never a request
 * let through uncounted.
 */
export async function orUnavailable<T>(what: string, command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (error) {
    throw QuarryError.of(
      'SERVICE_UNAVAILABLE',
      { params: { reason: `the shared store for ${what} (Redis) does not answer` } },
      { cause: error },
    );
  }
}

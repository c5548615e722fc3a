/**
 * A busy port is the commonest reason a service fails to start. Checking it before the
 * slow work (the demo dataset, opening the database) and saying which setting changes it
 * spares the user a minute's wait and a bare `EADDRINUSE`.
 */
import { createServer } from 'node:net';
import { QuarryError } from '../errors/index.ts';

/** The coded error for an address taken by another program, or undefined for any other failure. */
export function addressInUseError(error: unknown, host: string, port: number): QuarryError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'EADDRINUSE') return undefined;
  return QuarryError.of('SERVICE_ADDRESS_IN_USE', { params: { host, port } });
}

/** Resolves when `host:port` can be listened on now; rejects with SERVICE_ADDRESS_IN_USE when it is taken. */
export async function assertAddressFree(host: string, port: number): Promise<void> {
  // Port 0 asks the system for any free port: nothing to check.
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error) => reject(addressInUseError(error, host, port) ?? error));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { QuarryError } from '../errors/index.ts';

export interface ConnectionCaps {
  readonly maxConnections: number;
  readonly maxConnectionsPerIp: number;
}

/**
 * Counts open connections, in all and per peer address, and marks those past a cap. A
 * marked connection is still read so its first request can be answered in the protocol's
 * error body (429 past the per-address cap, 503 past the total) and then closed; refusing
 * it at accept time would leave the client with a bare reset. Past twice the cap Node
 * drops new connections unanswered, so a flood cannot grow memory without bound.
 */
export class ConnectionGate {
  readonly #caps: ConnectionCaps;
  readonly #byAddress = new Map<string, number>();
  readonly #refused = new WeakMap<Socket, QuarryError>();
  #open = 0;

  constructor(caps: ConnectionCaps) {
    this.#caps = caps;
  }

  /** Starts counting `server`'s connections; call before it listens. */
  attach(server: Server): void {
    server.maxConnections = this.#caps.maxConnections * 2;
    server.prependListener('connection', (socket: Socket) => this.#admit(socket));
  }

  /** Connections open now. */
  get open(): number {
    return this.#open;
  }

  /** Why the connection is refused, or undefined when it is within the caps. */
  refusalOf(socket: Socket): QuarryError | undefined {
    return this.#refused.get(socket);
  }

  #admit(socket: Socket): void {
    const address = socket.remoteAddress ?? 'unknown';
    const fromAddress = (this.#byAddress.get(address) ?? 0) + 1;
    this.#byAddress.set(address, fromAddress);
    this.#open += 1;
    socket.once('close', () => {
      this.#open -= 1;
      const left = (this.#byAddress.get(address) ?? 1) - 1;
      if (left === 0) this.#byAddress.delete(address);
      else this.#byAddress.set(address, left);
    });
    if (this.#open > this.#caps.maxConnections) {
      this.#refused.set(
        socket,
        QuarryError.of('SERVICE_CONNECTIONS_FULL', { params: { max: this.#caps.maxConnections } }),
      );
    } else if (fromAddress > this.#caps.maxConnectionsPerIp) {
      this.#refused.set(
        socket,
        QuarryError.of('SERVICE_CONNECTIONS_PER_ADDRESS', { params: { max: this.#caps.maxConnectionsPerIp } }),
      );
    }
  }
}

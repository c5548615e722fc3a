import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { QuarryError } from '../errors/index.ts';
import { rawErrorResponse } from './client-errors.ts';

export interface ConnectionCaps {
  readonly maxConnections: number;
  readonly maxConnectionsPerIp: number;
}

/**
 * How long a refused connection stays open after its answer is sent, reading and dropping
 * what the client sends meanwhile. Closing with unread bytes would reset the connection,
 * and a reset can make the client discard the answer before reading it; a client that
 * reads the answer closes its side first, which ends the wait at once.
 */
const REFUSED_LINGER_MS = 1000;

/**
 * Why a connection was refused: answered 429 past the per-address cap, answered 503 past
 * the total, or closed unanswered past the caps on lingering refusals.
 */
export type RefusalReason = 'per_address' | 'total' | 'unanswered';

/** Refused connections since the gate was made, by reason. */
export type RefusalCounts = Readonly<Record<RefusalReason, number>>;

/**
 * Decides at accept time which connections the HTTP server gets. A connection within both
 * caps (open connections from its peer address, open connections in all) is counted until
 * it closes and handed to the server. Any other is refused at once: it never reaches the
 * HTTP parser and never counts toward either cap, so refusals cannot crowd out anyone
 * (an address reopening refused connections as fast as they close used to fill the total
 * and lock every other client out until they timed out). The refusal is a short answer in
 * the protocol's error body (429 past the per-address cap, 503 past the total, with
 * `Retry-After`) written without waiting for a request, then the connection is closed.
 * Answered refusals still lingering are themselves capped, per address and in all; past
 * that a connection is closed unanswered, so a flood costs one accept and one close each.
 */
export class ConnectionGate {
  readonly #caps: ConnectionCaps;
  /** Admitted connections open now, per peer address. */
  readonly #byAddress = new Map<string, number>();
  /** Refused connections still open after their answer, per peer address. */
  readonly #refusingByAddress = new Map<string, number>();
  readonly #perAddressAnswer: Buffer;
  readonly #fullAnswer: Buffer;
  /** Plain numbers, so a refusal costs an increment; /metrics reads them when scraped. */
  readonly #refused: Record<RefusalReason, number> = { per_address: 0, total: 0, unanswered: 0 };
  #open = 0;
  #refusing = 0;

  constructor(caps: ConnectionCaps) {
    this.#caps = caps;
    const retry = { 'Retry-After': '1' };
    this.#perAddressAnswer = Buffer.from(
      rawErrorResponse(
        QuarryError.of('SERVICE_CONNECTIONS_PER_ADDRESS', { params: { max: caps.maxConnectionsPerIp } }),
        retry,
      ),
    );
    this.#fullAnswer = Buffer.from(
      rawErrorResponse(QuarryError.of('SERVICE_CONNECTIONS_FULL', { params: { max: caps.maxConnections } }), retry),
    );
  }

  /**
   * Puts the gate in front of `server`'s connection handling; call before it listens. The
   * HTTP server's own `connection` listeners (the one that attaches its parser) run only
   * for admitted connections.
   */
  attach(server: Server): void {
    // Admitted and answered refusals are each at most the total cap, so Node's own limit
    // only ever drops connections the gate would close unanswered anyway.
    server.maxConnections = this.#caps.maxConnections * 2;
    const handlers = server.listeners('connection') as Array<(this: Server, socket: Socket) => void>;
    server.removeAllListeners('connection');
    server.on('connection', (socket: Socket) => {
      if (!this.#admit(socket)) return;
      for (const handler of handlers) handler.call(server, socket);
    });
  }

  /** Admitted connections open now. */
  get open(): number {
    return this.#open;
  }

  /** Refused connections not yet closed (their answer sent, the client not yet gone). */
  get refusing(): number {
    return this.#refusing;
  }

  /** Refused connections since the gate was made, by reason (a copy). */
  get refused(): RefusalCounts {
    return { ...this.#refused };
  }

  /** Counts `socket` and returns true when it is within the caps, else refuses it. */
  #admit(socket: Socket): boolean {
    const address = socket.remoteAddress;
    if (address === undefined) {
      // The peer is already gone (reset before the accept was handled): not a refusal.
      socket.destroy();
      return false;
    }
    const fromAddress = this.#byAddress.get(address) ?? 0;
    if (fromAddress >= this.#caps.maxConnectionsPerIp) {
      this.#refuse(socket, address, 'per_address');
      return false;
    }
    if (this.#open >= this.#caps.maxConnections) {
      this.#refuse(socket, address, 'total');
      return false;
    }
    this.#open += 1;
    increment(this.#byAddress, address);
    socket.once('close', () => {
      this.#open -= 1;
      decrement(this.#byAddress, address);
    });
    return true;
  }

  /** Answers `socket` at once and closes it, or closes it unanswered past the lingering caps. */
  #refuse(socket: Socket, address: string, reason: 'per_address' | 'total'): void {
    if (
      this.#refusing >= this.#caps.maxConnections ||
      (this.#refusingByAddress.get(address) ?? 0) >= this.#caps.maxConnectionsPerIp
    ) {
      this.#refused.unanswered += 1;
      socket.destroy();
      return;
    }
    this.#refused[reason] += 1;
    this.#refusing += 1;
    increment(this.#refusingByAddress, address);
    const linger = setTimeout(() => socket.destroy(), REFUSED_LINGER_MS);
    linger.unref();
    socket.once('close', () => {
      clearTimeout(linger);
      this.#refusing -= 1;
      decrement(this.#refusingByAddress, address);
    });
    // A reset by the client is how many of them leave; nothing to report.
    socket.on('error', () => socket.destroy());
    socket.end(reason === 'per_address' ? this.#perAddressAnswer : this.#fullAnswer);
    socket.resume();
  }
}

function increment(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left === 0) counts.delete(key);
  else counts.set(key, left);
}

import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { SessionPrincipal } from '../platform/http/principals.ts';
import { encodeMessage } from './messages.ts';

/** A connection's unsent bytes are checked against its limit after each write; past it the reader is too slow. */
export type SlowReader = (connection: StreamConnection) => void;

/**
 * One open stream: the response it writes to, who opened it (an address, perhaps a player session), and the topics
 * it follows, each by the channel that feeds it.
 */
export class StreamConnection {
  readonly id = `st_${randomBytes(16).toString('base64url')}`;
  readonly address: string;
  session: SessionPrincipal | undefined;
  /** Topic name -> channel key (a player's topics have a channel per player). */
  readonly topics = new Map<string, string>();
  /** When it last followed no topic (performance.now()), or undefined while it follows some. */
  quietSince: number | undefined;
  readonly #response: ServerResponse;
  readonly #bufferBytes: number;
  readonly #onSlow: SlowReader;
  #closed = false;

  constructor(
    response: ServerResponse,
    options: { address: string; session: SessionPrincipal | undefined; bufferBytes: number; onSlow: SlowReader },
  ) {
    this.#response = response;
    this.address = options.address;
    this.session = options.session;
    this.#bufferBytes = options.bufferBytes;
    this.#onSlow = options.onSlow;
  }

  get closed(): boolean {
    return this.#closed || this.#response.destroyed;
  }

  write(bytes: Buffer): void {
    if (this.closed) return;
    this.#response.write(bytes);
    if (this.#response.writableLength > this.#bufferBytes) this.#onSlow(this);
  }

  /** Ends the stream, after a last message saying why (the reader comes back, resuming or with snapshots). */
  close(reason?: string): void {
    if (this.#closed) return;
    this.#closed = true;
    if (reason && !this.#response.destroyed) this.#response.write(encodeMessage('closed', { reason }));
    this.#response.end();
    // A reader that does not take even the last bytes is not waited for.
    setTimeout(() => this.#response.destroy(), 5_000).unref();
  }
}

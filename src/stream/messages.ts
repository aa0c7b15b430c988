/**
 * The stream's wire format (text/event-stream): each message `id: <epoch>-<seq>`, `event: <type>`, one `data:`
 * line of JSON. The epoch changes when the service restarts, so an id from before cannot resume.
 */
export function encodeMessage(type: string, data: object, id?: string): Buffer {
  return Buffer.from(`${id === undefined ? '' : `id: ${id}\n`}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** A comment line: keeps proxies and browsers from closing a quiet stream, and is ignored by readers. */
export const HEARTBEAT = Buffer.from(':\n\n');

/** A message kept for streams that come back: its sequence, the channel it was for, its bytes. */
export interface Kept {
  seq: number;
  channel: string;
  bytes: Buffer;
}

/** The last `capacity` messages, oldest first, in a ring. */
export class Replay {
  readonly #capacity: number;
  readonly #ring: Kept[] = [];
  #start = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  keep(message: Kept): void {
    if (this.#capacity === 0) return;
    if (this.#ring.length < this.#capacity) this.#ring.push(message);
    else {
      this.#ring[this.#start] = message;
      this.#start = (this.#start + 1) % this.#capacity;
    }
  }

  /**
   * The kept messages after `seq` of the channels named, or undefined when some of those may have gone already
   * (the gap is older than what is kept): then the reader needs snapshots.
   */
  after(seq: number, channels: ReadonlySet<string>, current: number): Kept[] | undefined {
    if (seq === current) return [];
    const oldest = this.#ring[this.#start];
    if (!oldest || oldest.seq > seq + 1) return undefined;
    const kept: Kept[] = [];
    for (let i = 0; i < this.#ring.length; i++) {
      const message = this.#ring[(this.#start + i) % this.#ring.length]!;
      if (message.seq > seq && channels.has(message.channel)) kept.push(message);
    }
    return kept;
  }
}

/**
 * Server-sent events read from a streaming fetch's body: the change stream's wire format (stream.ts), read without
 * EventSource so that the session token stays in the Authorization header.
 */

/** One event: its `event:` (`message` when it has none), its `data:` lines joined, and its `id:` when it has one. */
export interface ServerSentEvent {
  type: string;
  data: string;
  id?: string;
}

/** The body's events, each as the blank line that ends it comes (a block without data is none). */
export async function* serverSentEvents(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
): AsyncGenerator<ServerSentEvent> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer[end] === '\r' ? 4 : 2));
      const event = parse(block);
      if (event) yield event;
    }
  }
}

/** One block: `id:`, `event:`, `data:` lines (comments, the heartbeat, start with `:`). */
function parse(block: string): ServerSentEvent | undefined {
  let type = 'message';
  let data = '';
  let id: string | undefined;
  for (const line of block.split(/\r?\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') type = value;
    else if (field === 'data') data += data ? `\n${value}` : value;
  }
  return data ? { type, data, id } : undefined;
}

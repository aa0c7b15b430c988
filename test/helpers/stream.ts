/** A test's reader of the change stream: GET /api/v1/stream read as the app reads it, message by message. */
interface StreamMessage {
  id: string | undefined;
  event: string;
  data: any;
}

export interface TestStream {
  status: number;
  headers: Headers;
  /** The next message (of `type`, skipping others when given), or a failure after `timeoutMs`. */
  next(type?: string, timeoutMs?: number): Promise<StreamMessage>;
  /** Every message received so far that was not taken by next(). */
  pending(): StreamMessage[];
  /** Whether the server ended the stream. */
  ended(): Promise<void>;
  lastId(): string | undefined;
  close(): void;
}

export async function openStream(
  url: string,
  options: {
    topics?: string[];
    token?: string;
    lastEventId?: string;
    query?: string;
    /** the client's address, as a trusted proxy says it (the service must trust 127.0.0.1: TRUST_PROXY) */
    address?: string;
  } = {},
): Promise<TestStream> {
  const controller = new AbortController();
  const query = options.query ?? (options.topics ? `?topics=${encodeURIComponent(options.topics.join(','))}` : '');
  const response = await fetch(`${url}/api/v1/stream${query}`, {
    headers: {
      accept: 'text/event-stream',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}),
      ...(options.address ? { 'x-forwarded-for': options.address } : {}),
    },
    signal: controller.signal,
  });
  const queue: StreamMessage[] = [];
  const waiters: Array<() => void> = [];
  let last: string | undefined;
  let done = false;
  const wake = () => waiters.splice(0).forEach((wakeUp) => wakeUp());
  const finished = (async () => {
    if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      const reader = response.body.getReader();
      for (;;) {
        const { done: over, value } = await reader.read();
        if (over) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = new Map<string, string>();
          for (const line of block.split('\n')) {
            if (line.startsWith(':') || line === '') continue;
            const colon = line.indexOf(': ');
            fields.set(line.slice(0, colon), line.slice(colon + 2));
          }
          if (!fields.has('event')) continue;
          if (fields.has('id')) last = fields.get('id');
          queue.push({ id: fields.get('id'), event: fields.get('event')!, data: JSON.parse(fields.get('data')!) });
          wake();
        }
      }
    } catch {
      // aborted by close()
    } finally {
      done = true;
      wake();
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    async next(type, timeoutMs = 5_000) {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const index = queue.findIndex((message) => type === undefined || message.event === type);
        if (index >= 0) return queue.splice(index, 1)[0]!;
        if (done) throw new Error(`the stream ended before a ${type ?? 'message'}; had ${JSON.stringify(queue)}`);
        const left = deadline - performance.now();
        if (left <= 0) throw new Error(`no ${type ?? 'message'} within ${timeoutMs} ms; had ${JSON.stringify(queue)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    pending: () => [...queue],
    ended: () => finished,
    lastId: () => last,
    close: () => controller.abort(),
  };
}

import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/platform/config.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { StreamHub } from '../../src/stream/hub.ts';
import { parseTopic } from '../../src/stream/topics.ts';

/** A response that keeps what is written, and how much the client has not taken yet. */
class FakeResponse extends EventEmitter {
  written: string[] = [];
  writableLength = 0;
  ended = false;
  destroyed = false;
  socket = null;
  write(bytes: Buffer) {
    this.written.push(bytes.toString());
    return true;
  }
  end() {
    this.ended = true;
  }
  destroy() {
    this.destroyed = true;
  }
}

function hub(env: Record<string, string> = {}) {
  const settings = loadConfig({ SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'), ...env }).stream;
  return new StreamHub({
    settings,
    clock: new ManualClock('2026-03-01T12:00:00Z'),
    read: async () => ({ snapshot: { events: [] }, state: [] }),
    recheck: async () => undefined,
    log: { warn() {} },
  });
}
const open = (streams: StreamHub, response: FakeResponse, topics: string[] = ['live'], address = '192.0.2.1') =>
  streams.open(response as unknown as ServerResponse, {
    address,
    session: undefined,
    topics: topics.map((topic) => parseTopic(topic)!),
    lastEventId: undefined,
  });
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the stream hub', () => {
  it('closes a reader whose unsent bytes pass STREAM_BUFFER_BYTES, telling it why', async () => {
    const streams = hub({ STREAM_BUFFER_BYTES: '4096' });
    const slow = new FakeResponse();
    const fast = new FakeResponse();
    open(streams, slow);
    open(streams, fast);
    await settle();
    const live = streams.channel('live')!;
    slow.writableLength = 5_000;
    streams.publish(live, [{ type: 'event', data: { event: { id: 'ev_1' } } }]);
    assert.equal(slow.ended, true);
    assert.match(slow.written.at(-1)!, /^event: closed\ndata: \{"reason":"slow"\}\n\n$/);
    assert.equal(fast.ended, false);
    assert.equal(streams.size, 1);
    streams.closeAll();
  });

  it('writes one snapshot, encoded once, to every reader of a channel', async () => {
    const streams = hub();
    const [a, b] = [new FakeResponse(), new FakeResponse()];
    open(streams, a);
    open(streams, b);
    await settle();
    assert.equal(a.written[1], b.written[1]);
    assert.match(a.written[1]!, /^id: [0-9a-f]{8}-0\nevent: snapshot\ndata: \{"topic":"live","events":\[\]\}\n\n$/);
    streams.closeAll();
  });

  it('forgets a stream whose client left, freeing its address', async () => {
    const streams = hub({ STREAM_MAX_PER_ADDRESS: '1' });
    const first = new FakeResponse();
    open(streams, first);
    assert.throws(() => open(streams, new FakeResponse()), { code: 'too_many_streams' });
    first.emit('close');
    open(streams, new FakeResponse());
    assert.equal(streams.size, 1);
    streams.closeAll();
  });
});

import { Type } from 'typebox';
import { BetView } from '../betting/schemas.ts';
import { EventDetail, EventSummary } from '../catalog/schemas.ts';
import { streamErrors } from './errors.ts';
import { TOPIC_PATTERN } from './topics.ts';

const tags = ['player: stream'];

const TopicName = Type.String({
  pattern: TOPIC_PATTERN,
  description: 'event:<id>, competition:<id>, sport:<id>, live; bets and offers with a player session',
});
const Market = EventDetail.properties.markets.items;
const topic = { topic: Type.String({ description: 'the topic the message is for' }) };

/** What each message's `data` holds, by its `event:` type (docs/stream.md). */
const StreamMessage = Type.Union([
  Type.Object(
    { streamId: Type.String(), topics: Type.Array(Type.String()), heartbeatSeconds: Type.Integer() },
    { title: 'ready', description: 'first: the stream id (to change its topics) and the heartbeat' },
  ),
  Type.Object(
    { ...topic },
    {
      title: 'snapshot',
      additionalProperties: true,
      description:
        "a topic's whole state: the body the read it replaces answers (event: { event }; live: { events }; " +
        'competition and sport: their pages; bets: { bets }, the open bets; offers: { offers: [{ betId, offer }] })',
    },
  ),
  Type.Object(
    {
      ...topic,
      eventId: Type.String(),
      marketId: Type.String(),
      selectionId: Type.String(),
      odds: Type.String(),
      oddsVersion: Type.Integer({ description: 'show odds only when their version is above the one shown' }),
    },
    { title: 'odds' },
  ),
  Type.Object(
    { ...topic, eventId: Type.String(), market: Market },
    { title: 'market', description: 'a market new or changed beyond its prices' },
  ),
  Type.Object(
    { ...topic, event: Type.Partial(EventSummary) },
    {
      title: 'event',
      description: "an event's own fields changed (status, score, period, clock, start); in lists, the summary",
    },
  ),
  Type.Object(
    { ...topic, bet: BetView },
    { title: 'bet', description: 'a bet of the player changed: status, cash-outs, money' },
  ),
  Type.Object(
    { ...topic, balance: Type.Integer({ description: 'minor units, as the wallet confirmed it after a movement' }) },
    { title: 'balance' },
  ),
  Type.Object(
    {
      ...topic,
      betId: Type.String(),
      offer: Type.Union([
        Type.Object({ amount: Type.Integer(), currency: Type.String(), stake: Type.Integer() }),
        Type.Null(),
      ]),
    },
    { title: 'offer', description: 'the cash-out offer for the whole remaining stake moved; null: none now' },
  ),
  Type.Object(
    { ...topic, code: Type.String(), message: Type.String() },
    { title: 'unavailable', description: 'a topic that cannot be followed (not found); it is dropped' },
  ),
  Type.Object({}, { title: 'session_ended', description: 'the session ended: the player topics stopped' }),
  Type.Object(
    { reason: Type.Enum(['slow', 'idle', 'shutdown']) },
    { title: 'closed', description: 'the stream ends; reconnect with Last-Event-ID' },
  ),
]);

export const openStreamSchema = {
  tags,
  operationId: 'openStream',
  summary: 'The changes of what a screen shows, pushed as server-sent events',
  description:
    'Read with a streaming fetch so the session token stays in the Authorization header (optional: catalog topics ' +
    'are anonymous). Each message has `id:`, `event:` (its type) and one `data:` line of JSON. A reconnect with ' +
    'Last-Event-ID gets what it missed, or fresh snapshots when the gap is too old. A comment line comes every ' +
    'heartbeat. See docs/stream.md.',
  querystring: Type.Object(
    {
      topics: Type.Optional(
        Type.String({ maxLength: 2000, description: 'comma-separated topics to follow from the start' }),
      ),
    },
    { additionalProperties: false },
  ),
  headers: Type.Object({
    'last-event-id': Type.Optional(
      Type.String({ maxLength: 40, description: 'the id of the last message received, to resume from' }),
    ),
  }),
  response: {
    200: {
      description:
        'text/event-stream, open until the client leaves, the stream is idle or too slow, or the service stops',
      content: { 'text/event-stream': { schema: StreamMessage } },
    },
  },
  errors: Object.values(streamErrors).filter((error) => error !== streamErrors.stream_not_found),
};

export const followTopicsSchema = {
  tags,
  operationId: 'followTopics',
  summary: "Replace an open stream's topics, without reconnecting",
  description:
    'New topics start with their snapshot on the stream, dropped ones stop at once. A stream opened with a session ' +
    'is changed only with the same session.',
  params: Type.Object({ streamId: Type.String({ pattern: '^st_[A-Za-z0-9_-]{22}$' }) }),
  body: Type.Object({ topics: Type.Array(TopicName, { maxItems: 100 }) }, { additionalProperties: false }),
  response: { 200: Type.Object({ streamId: Type.String(), topics: Type.Array(Type.String()) }) },
  errors: [streamErrors.too_many_topics, streamErrors.session_required, streamErrors.stream_not_found],
};

import type { ColumnType } from 'kysely';
import type { OneOf } from '../platform/db/schema.ts';
import type { PRODUCER_STATES } from './states.ts';

/** The feed domain's tables; only its store reads and writes them. */
declare module '../platform/db/schema.ts' {
  interface Database {
    feed_producers: FeedProducersTable;
    feed_event_sequences: FeedEventSequencesTable;
  }
}

export type ProducerState = OneOf<typeof PRODUCER_STATES>;

export interface FeedProducersTable {
  id: string;
  name: string;
  /** sha256 of the key: it is only compared, never used again */
  key_hash: string;
  /** Its results settle markets at once; an untrusted producer's wait for a trader's confirmation. */
  trusted: ColumnType<boolean, boolean | undefined, boolean>;
  state: ColumnType<ProducerState, ProducerState | undefined, ProducerState>;
  last_message_at: Date | null;
  last_alive_at: Date | null;
  stale_messages: ColumnType<number, number | undefined, number>;
  gaps: ColumnType<number, number | undefined, number>;
  created_at: Date;
}

/** The last sequence number a producer gave an event: older ones are stale, the same one a duplicate. */
interface FeedEventSequencesTable {
  producer_id: string;
  event_id: string;
  sequence: number;
}

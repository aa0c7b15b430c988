/**
 * The values the feed domain's columns may hold (the migrations' CHECKs and the columns' TypeScript types come
 * from these lists).
 */

/**
 * feed_producers.state: `up` while it speaks; `down` when it fell silent past FEED_SILENCE_SECONDS or said so (its
 * markets suspended by rule); `recovering` once it speaks again, until its snapshot is complete (then its markets
 * reopen).
 */
export const PRODUCER_STATES = ['up', 'down', 'recovering'] as const;

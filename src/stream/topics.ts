/**
 * What a stream can follow. Catalog topics are anonymous, as the reads they replace; `bets` (the player's bets
 * changing, and the balance after each movement) and `offers` (the cash-out offers of the player's open bets) need
 * the stream's player session.
 */
export const TOPIC_PATTERN = '^(live|bets|offers|(event|competition|sport):[A-Za-z0-9_.:-]{1,64})$';
const TOPIC = new RegExp(TOPIC_PATTERN);

export type Topic =
  | { kind: 'event' | 'competition' | 'sport'; id: string; key: string }
  | { kind: 'live' | 'bets' | 'offers'; key: string };

/** The player's topics: a stream follows them only with a live session. */
export const PLAYER_TOPICS: readonly string[] = ['bets', 'offers'];

/** A topic from its name, or undefined when the name is not one (the schemas refuse those first). */
export function parseTopic(key: string): Topic | undefined {
  if (!TOPIC.test(key)) return undefined;
  const colon = key.indexOf(':');
  if (colon < 0) return { kind: key as 'live' | 'bets' | 'offers', key };
  return { kind: key.slice(0, colon) as 'event' | 'competition' | 'sport', id: key.slice(colon + 1), key };
}

/** `topics=` of the query: comma-separated, each at most once, in the order given. */
export function splitTopics(list: string | undefined): string[] {
  if (!list) return [];
  return [...new Set(list.split(',').filter((topic) => topic !== ''))];
}

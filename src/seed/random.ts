/**
 * A small deterministic random source (mulberry32): a seed gives the same demo catalog every time, and a test can
 * replay a run of the live simulator; the simulator of a running service is seeded at random.
 */
export function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Draws named by a key, the same for the same key every time: the live simulator asks "a goal in minute 63?" of
 * an event as often as it likes and always gets the same answer, so a match plays the same whatever the tick rate,
 * and after a restart. The seed names the run (an event and its start time).
 */
export function keyedRandom(seed: string): (key: string) => number {
  return (key) => randomSource(fnv1a(`${seed}|${key}`))();
}

/** FNV-1a, 32 bits: a string to a seed. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

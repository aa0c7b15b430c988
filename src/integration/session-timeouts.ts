/** The contract's session timeouts: what sessions enforce, what the launch exchange checks and what config tells. */

/** A session ends 12 h after it opened, however active. */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

/** Contract: idle timeout 60 min, 30 min for Brazil. */
export const idleTimeoutMinutes = (jurisdiction: string): number => (jurisdiction === 'BR' ? 30 : 60);

export const idleMs = (jurisdiction: string): number => idleTimeoutMinutes(jurisdiction) * 60_000;

import type { Screen } from '../../areas.ts';

/** The trader's screens. */
export const screens: Screen[] = [];

import type { ApiResponse } from '../../../api.ts';

/** An adjustment as the list answers it, and as a proposal or a decision answers it. */
export type Adjustment = ApiResponse<'listAdjustments'>['adjustments'][number];

import { defineErrors } from '../platform/errors.ts';
import { BUILD_HINT } from './builds.ts';

export const embedErrors = defineErrors({
  not_built: { status: 503, message: `This deployment has no build of the sportsbook app or the SDK. ${BUILD_HINT}` },
});

import { defineErrors } from '../errors.ts';

export const auditErrors = defineErrors({
  export_too_large: {
    status: 400,
    message: 'More rows match than one export holds (details.maxRows): narrow the filter (from, to, action, ...).',
  },
});

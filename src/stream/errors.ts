import { defineErrors } from '../platform/errors.ts';

/** Why a stream is refused or a change of its topics is. */
export const streamErrors = defineErrors({
  too_many_streams: {
    status: 429,
    message: 'Too many open streams from this address; close one, or poll the reads it replaces.',
  },
  stream_capacity: {
    status: 503,
    message: 'The service holds as many streams as it may; poll the reads the stream replaces and try again later.',
  },
  too_many_topics: { status: 400, message: 'A stream follows at most STREAM_MAX_TOPICS topics at once.' },
  session_required: {
    status: 401,
    message: 'The topics bets and offers need the player session token (Authorization: Bearer).',
  },
  stream_not_found: {
    status: 404,
    message: 'No open stream has this id (it closed, or the service restarted); open a new one.',
  },
});

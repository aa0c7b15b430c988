import { validationError } from '../errors.ts';

/**
 * Keyset paging cursors: the (time, id) of the last row of a page, opaque to clients. Lists go newest first, so
 * the next page is everything before it.
 */
export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');
}

export function decodeCursor(cursor: string): { at: Date; id: string } {
  const [text, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const at = new Date(text ?? '');
  if (!id || Number.isNaN(at.getTime())) throw validationError('cursor', 'The cursor is not one this API returned.');
  return { at, id };
}

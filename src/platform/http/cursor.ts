import { Type } from 'typebox';
import { LIST_ORDERS } from '../db/paging.ts';
import { validationError } from '../errors.ts';

/**
 * Keyset paging cursors: the (time, id) of the last row of a page, opaque to clients. The next page is everything
 * after it in the list's order (newest first unless the query asks for oldest first).
 */
function encodeCursor(at: Date, id: string): string {
  return Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');
}

export function decodeCursor(cursor: string): { at: Date; id: string } {
  const [text, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const at = new Date(text ?? '');
  // What is decoded goes to the database: a NUL byte or a year it cannot hold would fail the query, not the cursor.
  const year = at.getUTCFullYear();
  if (!id || id.includes('\u0000') || Number.isNaN(at.getTime()) || year < 1 || year > 9999) {
    throw validationError('cursor', 'The cursor is not one this API returned.');
  }
  return { at, id };
}

/** Keyset cursors of lists in the order of a text (a name), then the id: the (key, id) of the page's last row. */
export function encodeKeyCursor(key: string, id: string): string {
  return Buffer.from(JSON.stringify([key, id])).toString('base64url');
}

export function decodeKeyCursor(cursor: string): { key: string; id: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const [key, id] = Array.isArray(parsed) && parsed.length === 2 ? (parsed as unknown[]) : [];
  if (!isKeyPart(key) || !isKeyPart(id)) throw validationError('cursor', 'The cursor is not one this API returned.');
  return { key, id };
}

function isKeyPart(part: unknown): part is string {
  return typeof part === 'string' && part.length > 0 && !part.includes('\u0000') && part.isWellFormed();
}

/** The `order` query parameter of a list in time order. */
export const ListOrderQuery = Type.Optional(
  Type.Enum(LIST_ORDERS, {
    default: 'newest',
    description: 'newest first (the default) or oldest first; a cursor pages on in the order it was made in',
  }),
);

/** Where a keyset page starts: after the row the cursor names, or at the top of the list. */
export function cursorAfter(cursor: string | undefined): { at: Date; id: string } | undefined {
  return cursor ? decodeCursor(cursor) : undefined;
}

/**
 * A keyset page out of the rows a store read, `limit` and one more: the first `limit` rows, and the cursor after the
 * last of them when there is more (the extra row says so), or '' at the end of the list.
 */
export function keysetPage<Row>(
  rows: Row[],
  limit: number,
  keyOf: (row: Row) => { at: Date; id: string },
): { page: Row[]; nextCursor: string } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  if (rows.length <= limit || !last) return { page, nextCursor: '' };
  const { at, id } = keyOf(last);
  return { page, nextCursor: encodeCursor(at, id) };
}

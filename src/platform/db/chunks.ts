/** Bind-parameter budget per statement (PostgreSQL allows 65,535): big lists are sent in chunks. */
const CHUNK = 2_000;

/** `items` in lists of at most `size`, in order: one statement each. */
export function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

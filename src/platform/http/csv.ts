import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * CSV as the exports answer it (RFC 4180: comma-separated, CRLF line ends, the first line the header). A cell a
 * spreadsheet would read as a formula (starting with =, +, @, a tab, a carriage return, or a minus that does not
 * start a plain negative integer) is neutralised with a leading apostrophe; a cell holding a comma, a quote or a line
 * break is quoted, its quotes doubled; null is an empty cell.
 */
export function toCsv(lines: ReadonlyArray<ReadonlyArray<string | null>>): string {
  return lines.map((cells) => `${cells.map(csvCell).join(',')}\r\n`).join('');
}

function csvCell(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+@\t\r]|^-(?![0-9]+$)/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * Whether an export is asked for as CSV: by name (`format=csv`), or, with no format named, by an Accept header that
 * names text/csv and not JSON.
 */
export function wantsCsv(format: string | undefined, request: FastifyRequest): boolean {
  if (format !== undefined) return format === 'csv';
  const types = (request.headers.accept ?? '')
    .split(',')
    .map((range) => (range.split(';')[0] ?? '').trim().toLowerCase());
  return types.includes('text/csv') && !types.includes('application/json');
}

/** A CSV export as a download named `filename`. */
export function sendCsv(reply: FastifyReply, filename: string, body: string): FastifyReply {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(body);
}

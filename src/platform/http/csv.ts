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

// The compressed forms of a built file, written beside it for the server to send (src/platform/http/compressed.ts):
// used by the build, and by tests that rebuild one file.
import { readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** The bytes a browser downloads for one file: as it is, and with each content coding it may accept. */
export interface Sent {
  identity: number;
  gzip: number;
  br: number;
}

/**
 * Writes `file.gz` (gzip level 9) and `file.br` (brotli at its best quality) beside a text file. Each is written
 * only when it is smaller than what would be sent without it (gzip than the file, brotli than the gzip form), so
 * a browser never downloads more for accepting a coding, and the forms of a file all differ in size (and so in
 * ETag). Returns what is sent to a browser accepting neither, gzip, and brotli.
 */
export function precompress(file: string): Sent {
  const bytes = readFileSync(file);
  const gzip = gzipSync(bytes, { level: 9 });
  const br = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  const sent: Sent = { identity: bytes.length, gzip: bytes.length, br: bytes.length };
  if (gzip.length < sent.gzip) {
    writeFileSync(`${file}.gz`, gzip);
    sent.gzip = gzip.length;
  }
  if (br.length < sent.gzip) {
    writeFileSync(`${file}.br`, br);
    sent.br = br.length;
  } else {
    sent.br = sent.gzip;
  }
  return sent;
}

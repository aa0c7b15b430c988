import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { withRequestIdChecked, type HttpResponse } from './app.ts';

/**
 * Requests sent exactly as written. fetch (undici) keeps a malformed %XX but resolves dot segments and encodes
 * spaces and non-ASCII; node:http sends the path as given, and a socket sends any bytes at all, for the failures
 * that only a broken client produces.
 */

/** One request with its path sent byte for byte, on a connection of its own. */
export function rawRequest(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<HttpResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ host: hostname, port, method, path, headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        resolve(answer(res.statusCode ?? 0, headers, Buffer.concat(chunks).toString('utf8')));
      });
    });
    sent.on('error', reject);
    sent.end(options.body);
  });
}

/** Writes the bytes on a new connection, reads until the server closes it (or `waitMs` passes), parses the answer. */
export async function rawExchange(
  base: string,
  bytes: string | Buffer,
  options: { waitMs?: number } = {},
): Promise<HttpResponse & { closed: boolean }> {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => {});
  const closed = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), options.waitMs ?? 5_000);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
    socket.write(bytes);
  });
  socket.destroy();
  return { ...parseAnswer(Buffer.concat(chunks).toString('latin1')), closed };
}

/** The first HTTP/1.1 answer of a raw byte stream (Content-Length framing, which every error answer uses). */
export function parseAnswer(raw: string): HttpResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return answer(0, new Headers(), raw);
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const length = Number(headers.get('content-length') ?? raw.length);
  const body = Buffer.from(raw.slice(end + 4), 'latin1')
    .subarray(0, length)
    .toString('utf8');
  return answer(Number(statusLine!.split(' ')[1]), headers, body);
}

function answer(status: number, headers: Headers, text: string): HttpResponse {
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return withRequestIdChecked({ status, headers, body, text });
}

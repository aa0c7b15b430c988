/**
 * The CLI's side of the local channel (src/commands/local-channel.ts has the server's and the protocol): a command
 * line handed to the server that owns DATA_DIR, its output streamed back.
 */
import { createConnection } from 'node:net';
import { createInterface } from 'node:readline';
import type { Output } from '../commands/definitions.ts';

/** The CLI side: runs `argv` in the server listening at `path`; resolves with the command's exit code. */
export function runInServer(path: string, argv: string[], out: Output, signal: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let exit: number | undefined;
    let connected = false;
    // Before the connection, an error means no server is there; after it, the server went away mid-command.
    socket.on('error', (error) => {
      if (!connected) reject(error);
    });
    socket.once('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify({ argv })}\n`);
      createInterface({ input: socket }).on('line', (line) => {
        const message = parseMessage(line);
        if (message.stdout !== undefined) out.result(message.stdout);
        if (message.stderr !== undefined) out.progress(message.stderr);
        if (message.exit !== undefined) exit = message.exit;
      });
      socket.once('close', () => resolve(exit ?? (signal.aborted ? 130 : 1)));
    });
    signal.addEventListener('abort', () => socket.destroy(), { once: true });
  });
}

function parseMessage(line: string): { stdout?: string; stderr?: string; exit?: number } {
  try {
    return JSON.parse(line) as { stdout?: string; stderr?: string; exit?: number };
  } catch {
    return { stderr: `bookmaker: the server sent an unreadable line: ${line.slice(0, 200)}` };
  }
}

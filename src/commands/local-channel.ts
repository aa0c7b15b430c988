/**
 * The local channel between the CLI and a running server on the embedded database.
 *
 * PGlite is one database session inside the server process: no second process may open its files, and no outside
 * connection may share its session (a statement would land in the middle of one of the server's transactions).
 * So when a server owns DATA_DIR, an administrative command is not run against the database by the CLI: the CLI
 * hands its command line to the server over a Unix socket in DATA_DIR (mode 0600, so only the owner of DATA_DIR
 * can connect), the server runs the very same command with its own database connection, and streams the output
 * back. Only the commands of ADMIN_COMMANDS can be asked for; their arguments are parsed again by the server.
 *
 * Protocol, one JSON object a line: the CLI sends { "argv": [...] }; the server answers with { "stdout": text }
 * and { "stderr": text } lines, then { "exit": code }. Closing the connection stops the command (Ctrl-C).
 */
import type { FastifyBaseLogger } from 'fastify';
import { chmod, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ADMIN_COMMANDS, parseCommandLine, runCommand, type CommandContext, type Output } from './definitions.ts';

export const CHANNEL_FILE = 'admin.sock';
/** A Unix socket path is limited to about 107 bytes. */
const MAX_SOCKET_PATH = 100;
/** A command line arrives at once: a connection that sends none in time, or too much, is closed. */
const FIRST_LINE_TIMEOUT_MS = 5_000;
const MAX_FIRST_LINE_BYTES = 64 * 1024;

export const channelPath = (dataDir: string): string => join(dataDir, CHANNEL_FILE);

export interface LocalChannel {
  path: string;
  close(): Promise<void>;
}

/** Starts the server side; `context` gives each command the server's database and services. */
export async function openLocalChannel(
  dataDir: string,
  context: Omit<CommandContext, 'out' | 'signal'>,
  log: FastifyBaseLogger,
): Promise<LocalChannel | null> {
  const path = channelPath(dataDir);
  if (path.length > MAX_SOCKET_PATH) return null;
  // The server holds the instance lock, so a socket file left here belongs to a process that died.
  await rm(path, { force: true });
  const running = new Set<AbortController>();
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serve(socket, context, running, log);
  });
  const listening = new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', resolve);
  });
  // The socket file is created inside listen(), synchronously: born 0600, and the process umask restored at once.
  const previous = process.umask(0o177);
  try {
    server.listen(path);
  } finally {
    process.umask(previous);
  }
  await listening;
  await chmod(path, 0o600);
  return {
    path,
    close: async () => {
      for (const controller of running) controller.abort();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(path, { force: true });
    },
  };
}

function serve(
  socket: Socket,
  context: Omit<CommandContext, 'out' | 'signal'>,
  running: Set<AbortController>,
  log: FastifyBaseLogger,
) {
  const controller = new AbortController();
  const send = (message: object) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
  };
  socket.on('close', () => controller.abort());
  socket.on('error', () => controller.abort());
  socket.setTimeout(FIRST_LINE_TIMEOUT_MS, () => socket.destroy());
  let received = 0;
  socket.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > MAX_FIRST_LINE_BYTES) socket.destroy();
  });
  const lines = createInterface({ input: socket });
  lines.once('line', (line) => {
    lines.close();
    socket.setTimeout(0);
    void execute(line).then((exit) => {
      send({ exit });
      socket.end();
    });
  });

  async function execute(line: string): Promise<number> {
    const out: Output = { result: (text) => send({ stdout: text }), progress: (text) => send({ stderr: text }) };
    let argv: unknown;
    try {
      argv = (JSON.parse(line) as { argv?: unknown }).argv;
    } catch {
      argv = undefined;
    }
    if (!Array.isArray(argv) || !argv.every((arg) => typeof arg === 'string')) {
      out.progress('bookmaker: the local channel expects { "argv": [...] }');
      return 2;
    }
    let parsed;
    try {
      parsed = parseCommandLine(ADMIN_COMMANDS, argv);
    } catch (error) {
      out.progress(`bookmaker: ${(error as Error).message}`);
      return 2;
    }
    running.add(controller);
    const command = parsed.spec.words.join(' ');
    try {
      const exit = await runCommand(parsed.spec, parsed.values, {
        ...context,
        out,
        signal: controller.signal,
        // The person sees one line; the stack is for the server's log.
        onUnexpected: (error) => log.error({ err: error, command }, 'administrative command failed'),
      });
      // The command's words only: its flags may hold a password.
      log.info({ command, exit }, 'administrative command run for the local CLI');
      return exit;
    } finally {
      running.delete(controller);
    }
  }
}

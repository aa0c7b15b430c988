#!/usr/bin/env node
// Runs the CLI on the Node 24 that package.json pins. Under npm scripts and npx that is already the
// `node` on PATH; when started some other way on an older Node, re-run on the pinned binary.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

const major = Number(process.versions.node.split('.')[0]);
if (major >= 24) {
  // V8's compiled code for every module, kept on disk (NODE_COMPILE_CACHE, or the system's temporary folder): a
  // command started beside a running server, or a restart, loads in a third of the time.
  module.enableCompileCache();
  const { main } = await import('../src/cli/main.ts').catch(missingPackages);
  const code = await main(process.argv.slice(2));
  // serve keeps running until a signal; every other command ends here.
  if (process.argv[2] !== 'serve' || code !== 0) process.exit(code);
} else {
  const pinned = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));
  if (!existsSync(pinned)) {
    process.stderr.write(`bookmaker needs Node 24 (found ${process.version}); run npm install first.\n`);
    process.exit(1);
  }
  // In a process group of its own, so that a Ctrl-C reaches it once, from here: serve takes a second signal as
  // "exit at once", and a terminal signals its whole foreground group.
  const child = spawn(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    detached: true,
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/** A package missing from node_modules is said in one line; any other failure to load keeps its stack (a bug). */
function missingPackages(error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
  process.stderr.write(`bookmaker: ${error.message.split('\n')[0]}: run npm install in ${root}, then try again.\n`);
  process.exit(1);
}

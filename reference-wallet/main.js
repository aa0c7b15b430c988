#!/usr/bin/env node
// Starts the reference partner wallet (main.ts) on the Node 24 that package.json pins: `npm run wallet`, or
// `node reference-wallet/main.js` with any Node. An older Node cannot even load a .ts file, so this launcher is
// plain JavaScript: on Node 24 or later it runs main.ts here; on an older one it runs it again on the pinned Node.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const major = Number(process.versions.node.split('.')[0]);
if (major >= 24) {
  await import('./main.ts');
} else {
  const pinned = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));
  if (!existsSync(pinned)) {
    process.stderr.write(
      `the reference wallet needs Node 24 (found ${process.version}): run npm install, then npm run wallet\n`,
    );
    process.exit(1);
  }
  // In a process group of its own, so that a Ctrl-C reaches it once, from here.
  const child = spawn(pinned, [fileURLToPath(new URL('main.ts', import.meta.url)), ...process.argv.slice(2)], {
    stdio: 'inherit',
    detached: true,
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/**
 * A process that holds the embedded database's lock as a long administrative command would (`node
 * test/helpers/hold-data-dir.ts DATA_DIR`): it prints "held" once it has the lock and lets it go when its standard
 * input closes.
 */
import { mkdirSync } from 'node:fs';
import { lockDataDir } from '../../src/platform/db/instance-lock.ts';

const dataDir = process.argv[2]!;
mkdirSync(dataDir, { recursive: true, mode: 0o700 });
const lock = await lockDataDir(dataDir, () => process.exit(1));
process.stdout.write('held\n');
process.stdin.resume();
process.stdin.on('end', () => void lock.release().then(() => process.exit(0)));

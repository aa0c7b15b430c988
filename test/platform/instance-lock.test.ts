import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { InstanceLockError, lockDataDir } from '../../src/platform/db/instance-lock.ts';

const LOCK_MODULE = join(import.meta.dirname, '..', '..', 'src', 'platform', 'db', 'instance-lock.ts');
const fresh = () => mkdtempSync(join(tmpdir(), 'bookmaker-lock-'));
const ignore = () => undefined;

/** Another process takes the lock, says so, and is then killed with SIGKILL: it never releases it. */
async function lockedByKilledProcess(dataDir: string): Promise<void> {
  const script = `import(${JSON.stringify(LOCK_MODULE)}).then((m) => m.lockDataDir(${JSON.stringify(dataDir)}, () => {})).then(() => { console.log('locked'); setInterval(() => {}, 1000); });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script]);
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => (chunk.toString().includes('locked') ? resolve() : undefined));
    child.on('exit', () => reject(new Error('the locking process exited early')));
  });
  child.removeAllListeners('exit');
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('the embedded database lock', () => {
  it('refuses a second holder while the first is alive', async () => {
    const dir = fresh();
    const lock = await lockDataDir(dir, ignore);
    await assert.rejects(lockDataDir(dir, ignore), InstanceLockError);
    await lock.release();
  });

  it('is taken over at once from a process killed on this machine', async () => {
    const dir = fresh();
    await lockedByKilledProcess(dir);
    const lock = await lockDataDir(dir, ignore);
    await lock.release();
  });

  it('is not taken over from a process that ran on another machine until it goes stale', async () => {
    const dir = fresh();
    await lockedByKilledProcess(dir);
    writeFileSync(join(dir, 'instance.owner'), JSON.stringify({ pid: 999_999, host: 'another-machine' }));
    await assert.rejects(lockDataDir(dir, ignore), InstanceLockError);
  });
});

// The service and the wallet in their processes: `bookmaker serve` killed with SIGKILL and started again on demand,
// and the calls to it that ride out its deaths.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  http,
  startServiceProcess,
  startWalletProcess,
  type HttpAnswer,
  type ServiceProcess,
  type WalletProcess,
} from '../soak-support.ts';
import { discrepancies, figures, hardStop } from './run-state.ts';

/** `bookmaker serve`, killed and started again on demand; every caller waits while it is down. */
class Service {
  readonly #env: Record<string, string>;
  #ready: Promise<ServiceProcess>;
  #expected = new WeakSet<object>();
  down = false;
  stopping = false;

  constructor(env: Record<string, string>) {
    this.#env = env;
    this.#ready = this.#watch(startServiceProcess(env));
  }

  ready(): Promise<ServiceProcess> {
    return this.#ready;
  }

  async #watch(starting: Promise<ServiceProcess>): Promise<ServiceProcess> {
    const running = await starting;
    void running.exited.then(() => {
      if (this.#expected.has(running.child) || this.stopping) return;
      figures.unexpectedExits += 1;
      discrepancies.push({ check: 'service_exited', detail: `bookmaker serve exited by itself:\n${running.output()}` });
      void this.#replace(running);
    });
    return running;
  }

  async #replace(old: ServiceProcess): Promise<void> {
    this.down = true;
    this.#expected.add(old.child);
    const next = (async () => {
      if (old.child.exitCode === null && old.child.signalCode === null) old.child.kill('SIGKILL');
      await old.exited;
      return startServiceProcess(this.#env);
    })();
    this.#ready = this.#watch(next);
    await this.#ready;
    this.down = false;
  }

  /** SIGKILL, then start again (on PGlite, once the dead process's lock has gone stale). */
  async kill(): Promise<void> {
    const old = await this.#ready;
    await this.#replace(old);
    figures.restarts += 1;
  }

  /** A graceful stop: SIGTERM drains the requests in flight and closes the database. */
  async stop(): Promise<void> {
    this.stopping = true;
    const process = await this.#ready.catch(() => undefined);
    if (!process || process.child.exitCode !== null) return;
    process.child.kill('SIGTERM');
    const timer = setTimeout(() => process.child.kill('SIGKILL'), 30_000);
    await process.exited;
    clearTimeout(timer);
  }
}

/** The run's service and wallet, once started: set only by startService and startWallet. */
export let service: Service;
export let wallet: WalletProcess;

/** The reference wallet, its ledger in `database` (PostgreSQL) or in a PGlite of its own. */
export async function startWallet(database: string | undefined): Promise<void> {
  wallet = await startWalletProcess(database);
}

/** `bookmaker serve`, once it answers. */
export async function startService(env: Record<string, string>): Promise<void> {
  service = new Service(env);
  await service.ready();
}

/** A call to the service that rides out its deaths: no answer, and it waits for the next process and asks again. */
export async function call(
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<HttpAnswer> {
  for (;;) {
    const { url } = await service.ready();
    try {
      return await http(url, method, path, options);
    } catch (error) {
      if (performance.now() > hardStop) throw new Error(`${method} ${path}: no answer (${String(error)})`);
      await sleep(50);
    }
  }
}

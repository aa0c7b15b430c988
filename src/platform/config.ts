import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ipaddr from 'ipaddr.js';
import { ensurePrivateDir, makePrivate } from './data-dir.ts';

type AppEnv = 'development' | 'staging' | 'production';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  appEnv: AppEnv;
  sportsbookUrl: string | undefined;
  /** Current AES-256-GCM key for secrets at rest, then older keys still accepted for decryption. */
  secretsKeys: Buffer[];
  logLevel: string;
  /** Whether this deployment offers the dedicated integration sandboxes that activation requires. */
  integrationSandboxes: boolean;
  /**
   * Which proxies in front of the service to believe about the client's address (X-Forwarded-For): none, a number
   * of hops, or their addresses and networks. The per-address budgets count what this yields.
   */
  trustProxy: false | number | string[];
}

/** A configuration problem; the message always names the variable. */
export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

type Env = Record<string, string | undefined>;

const APP_ENVS: readonly AppEnv[] = ['development', 'staging', 'production'];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const DEV_KEY_FILE = 'secrets.key';
/** `data/` of the project itself, wherever the command is run from, so every command finds the same database. */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../../data', import.meta.url));

/** Reads and validates the environment once; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const appEnv = parseAppEnv(env.APP_ENV);
  const dataDir = dataDirOf(env);
  return {
    port: parsePort(env.PORT),
    host: nonEmpty(env, 'HOST') ?? '127.0.0.1',
    databaseUrl: parseDatabaseUrl(env.DATABASE_URL),
    dataDir,
    appEnv,
    sportsbookUrl: parseSportsbookUrl(env.SPORTSBOOK_URL),
    secretsKeys: [secretsKey(env, appEnv, dataDir), ...previousKeys(env.SECRETS_KEY_PREVIOUS)],
    logLevel: parseLogLevel(env.LOG_LEVEL),
    integrationSandboxes: parseBoolean('INTEGRATION_SANDBOXES', env.INTEGRATION_SANDBOXES, true),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  };
}

/** DATA_DIR as an absolute path; also for saying where things are when the rest of the configuration is wrong. */
export function dataDirOf(env: Env = process.env): string {
  return resolve(nonEmpty(env, 'DATA_DIR') ?? DEFAULT_DATA_DIR);
}

function nonEmpty(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function parseAppEnv(raw: string | undefined): AppEnv {
  const value = raw?.trim() || 'development';
  if (!(APP_ENVS as readonly string[]).includes(value)) {
    throw new ConfigError('APP_ENV', `must be one of ${APP_ENVS.join(', ')}, got "${value}"`);
  }
  return value as AppEnv;
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 3000;
  if (!/^\d{1,5}$/.test(raw.trim()) || Number(raw) > 65535) {
    throw new ConfigError('PORT', `must be an integer from 0 to 65535, got "${raw}"`);
  }
  return Number(raw);
}

function parseDatabaseUrl(raw: string | undefined): string | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('DATABASE_URL', 'must be a postgres:// or postgresql:// URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError('DATABASE_URL', 'must be a postgres:// or postgresql:// URL');
  }
  return value;
}

function parseSportsbookUrl(raw: string | undefined): string | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('SPORTSBOOK_URL', `must be an absolute http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError('SPORTSBOOK_URL', `must be an absolute http(s) URL, got "${value}"`);
  }
  return url.origin;
}

function parseBoolean(variable: string, raw: string | undefined, fallback: boolean): boolean {
  const value = raw?.trim().toLowerCase();
  if (!value) return fallback;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw new ConfigError(variable, `must be true or false, got "${raw}"`);
}

function parseTrustProxy(raw: string | undefined): false | number | string[] {
  const value = raw?.trim();
  if (!value) return false;
  if (/^\d{1,2}$/.test(value) && Number(value) >= 1) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const valid = entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry);
    if (!valid) {
      throw new ConfigError(
        'TRUST_PROXY',
        `must be a number of proxy hops (1-99) or comma-separated proxy addresses or networks, got "${entry}"`,
      );
    }
  }
  return entries;
}

function parseLogLevel(raw: string | undefined): string {
  const value = raw?.trim() || 'info';
  if (!LOG_LEVELS.includes(value)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  }
  return value;
}

function decodeKey(variable: string, raw: string): Buffer {
  const key = Buffer.from(raw.trim(), 'base64');
  if (key.length !== 32 || key.toString('base64') !== raw.trim()) {
    throw new ConfigError(variable, 'must be 32 bytes encoded as base64 (44 characters)');
  }
  return key;
}

/**
 * Outside development the key must be given; in development one is generated once into DATA_DIR, which must be
 * private to this user (data-dir.ts), and the file 0600.
 */
function secretsKey(env: Env, appEnv: AppEnv, dataDir: string): Buffer {
  const raw = nonEmpty(env, 'SECRETS_KEY');
  if (raw) return decodeKey('SECRETS_KEY', raw);
  if (appEnv !== 'development') {
    throw new ConfigError('SECRETS_KEY', `is required when APP_ENV=${appEnv}`);
  }
  ensurePrivateDir(dataDir);
  const file = join(dataDir, DEV_KEY_FILE);
  if (existsSync(file)) {
    if (!statSync(file).isFile()) {
      throw new ConfigError(
        'SECRETS_KEY',
        `${file}, the development key, is not a file: put the key file back, or move this aside to have a new key ` +
          'made (what the old key encrypted can then no longer be read)',
      );
    }
    makePrivate(file);
    return decodeKey('SECRETS_KEY', readFileSync(file, 'utf8'));
  }
  const generated = randomBytes(32).toString('base64');
  writeFileSync(file, generated, { mode: 0o600, flag: 'wx' });
  return Buffer.from(generated, 'base64');
}

function previousKeys(raw: string | undefined): Buffer[] {
  if (!raw?.trim()) return [];
  return raw.split(',').map((part) => decodeKey('SECRETS_KEY_PREVIOUS', part));
}

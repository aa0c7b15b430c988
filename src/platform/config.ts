import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
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
  /** LOG_FORMAT as given; unset, the entry chooses: readable on a terminal, JSON lines otherwise. */
  logFormat: LogFormat | undefined;
  /** Whether this deployment offers the dedicated integration sandboxes that activation requires. */
  integrationSandboxes: boolean;
  /**
   * Which proxies in front of the service to believe about the client's address (X-Forwarded-For): none, a number
   * of hops, or their addresses and networks. The per-address budgets count what this yields.
   */
  trustProxy: false | number | string[];
  /** The Prometheus listener's port (0: any free one), or off: no listener, and nothing is recorded. */
  metricsPort: number | 'off';
  /** The address the metrics listener binds: loopback unless a scraper on another host must reach it. */
  metricsHost: string;
  /** Per-tenant labels on the wallet metrics; false collapses them to tenant="all" to bound cardinality. */
  metricsTenantLabels: boolean;
  /** The limits and timings of the players' change stream (src/stream/, docs/operations.md "The change stream"). */
  stream: StreamSettings;
  /** A feed producer silent this long is down: every open market it controls is suspended (src/feed/, docs/feed.md). */
  feedSilenceSeconds: number;
}

export interface StreamSettings {
  /** Open streams the instance holds at most; one more is refused with 503 `stream_capacity`. */
  maxConnections: number;
  /** Open streams per client address (as TRUST_PROXY yields it); one more is refused with 429. */
  maxPerAddress: number;
  /** Topics one stream may follow at once. */
  maxTopics: number;
  /** A comment line this often keeps proxies and the browser from closing a quiet stream. */
  heartbeatSeconds: number;
  /** A stream that follows no topic for this long is closed. */
  idleSeconds: number;
  /** A stream whose unsent bytes pass this is a slow consumer: closed, and it resumes or resyncs when it returns. */
  bufferBytes: number;
  /** The last messages kept for streams that resume with Last-Event-ID; older gaps get fresh snapshots. */
  replayMessages: number;
  /** What is watched is read again this often even without a notification, so a lost one loses nothing. */
  sweepSeconds: number;
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
/** json: one JSON object a line (pino), for collectors; pretty: the same events as readable lines. */
const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
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
    logFormat: parseLogFormat(env.LOG_FORMAT),
    integrationSandboxes: parseBoolean('INTEGRATION_SANDBOXES', env.INTEGRATION_SANDBOXES, true),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    metricsPort: parseMetricsPort(env.METRICS_PORT),
    metricsHost: parseMetricsHost(env.METRICS_HOST),
    metricsTenantLabels: parseBoolean('METRICS_TENANT_LABELS', env.METRICS_TENANT_LABELS, true),
    stream: parseStreamSettings(env),
    feedSilenceSeconds: parseBounded('FEED_SILENCE_SECONDS', env.FEED_SILENCE_SECONDS, 20, 2, 3_600),
  };
}

/** Each limit a whole number within bounds that keep the instance safe; the defaults are docs/operations.md's. */
function parseStreamSettings(env: Env): StreamSettings {
  const number = (variable: string, fallback: number, min: number, max: number) =>
    parseBounded(variable, env[variable], fallback, min, max);
  return {
    maxConnections: number('STREAM_MAX_CONNECTIONS', 20_000, 1, 1_000_000),
    maxPerAddress: number('STREAM_MAX_PER_ADDRESS', 500, 1, 1_000_000),
    maxTopics: number('STREAM_MAX_TOPICS', 20, 1, 100),
    heartbeatSeconds: number('STREAM_HEARTBEAT_SECONDS', 15, 1, 300),
    idleSeconds: number('STREAM_IDLE_SECONDS', 300, 1, 86_400),
    bufferBytes: number('STREAM_BUFFER_BYTES', 262_144, 4_096, 67_108_864),
    replayMessages: number('STREAM_REPLAY_MESSAGES', 20_000, 0, 1_000_000),
    sweepSeconds: number('STREAM_SWEEP_SECONDS', 5, 1, 3_600),
  };
}

function parseBounded(variable: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  const value = raw?.trim();
  if (!value) return fallback;
  if (!/^\d{1,10}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(variable, `must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(value);
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

/** 9464 by default: the port OpenTelemetry's Prometheus exporters serve, which scrapers are often set up for. */
function parseMetricsPort(raw: string | undefined): number | 'off' {
  const value = raw?.trim() ?? '';
  if (value === '') return 9464;
  if (value.toLowerCase() === 'off') return 'off';
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new ConfigError('METRICS_PORT', `must be an integer from 0 to 65535, or off, got "${raw}"`);
  }
  return Number(value);
}

/** An address to listen on, written out: an IPv4 or IPv6 address, or localhost. */
function parseMetricsHost(raw: string | undefined): string {
  const value = raw?.trim() ?? '';
  if (value === '') return '127.0.0.1';
  if (value !== 'localhost' && isIP(value) === 0) {
    throw new ConfigError(
      'METRICS_HOST',
      'must be an address to listen on: 127.0.0.1 (this machine only), 0.0.0.0 or :: (every interface), ' +
        `another IPv4 or IPv6 address of this machine, or localhost, got "${raw}"`,
    );
  }
  return value;
}

function parseDatabaseUrl(raw: string | undefined): string | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  let url: URL;
  const refused = () =>
    new ConfigError(
      'DATABASE_URL',
      `must be a postgres:// or postgresql:// URL (postgres://user:password@host:5432/database), got ` +
        `"${withoutPassword(value)}"`,
    );
  try {
    url = new URL(value);
  } catch {
    throw refused();
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw refused();
  return value;
}

/**
 * A database URL as it may be repeated: its password replaced, as a query parameter and in the user part (from the
 * user's colon to the last @, in case the password holds an unencoded @ or /). The URL may be the broken one, so
 * it is not parsed: anything between a colon and an @ after the scheme is taken for a password.
 */
function withoutPassword(url: string): string {
  const masked = url.replace(/([?&]password=)[^&#]*/gi, '$1***');
  const at = masked.lastIndexOf('@');
  const colon = masked.indexOf(':', /^[a-z][a-z0-9+.-]*:\/*/i.exec(masked)?.[0].length ?? 0);
  return colon === -1 || colon > at ? masked : `${masked.slice(0, colon + 1)}***${masked.slice(at)}`;
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
  throw new ConfigError(variable, `must be true or false (or 1 or 0), got "${raw}"`);
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
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  }
  return value;
}

function parseLogFormat(raw: string | undefined): LogFormat | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  if (!(LOG_FORMATS as readonly string[]).includes(value)) {
    throw new ConfigError(
      'LOG_FORMAT',
      `must be one of ${LOG_FORMATS.join(', ')} (unset: pretty on a terminal, json otherwise), got "${raw}"`,
    );
  }
  return value as LogFormat;
}

/** `which` names the key when the variable is not the whole story: the key file, or one of several keys. */
function decodeKey(variable: string, raw: string, which = ''): Buffer {
  const key = Buffer.from(raw.trim(), 'base64');
  if (key.length !== 32 || key.toString('base64') !== raw.trim()) {
    throw new ConfigError(
      variable,
      `${which}must be 32 bytes encoded as base64 (44 characters; openssl rand -base64 32 makes one), got ` +
        describeKey(raw.trim()),
    );
  }
  return key;
}

/** What was given instead of a key, without a character of it: a secret is never repeated, even a wrong one. */
function describeKey(text: string): string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return `${text.length} characters, not base64`;
  return `${text.length} characters of base64 (${Buffer.from(text, 'base64').length} bytes)`;
}

/**
 * Outside development the key must be given; in development one is generated once into DATA_DIR, which must be
 * private to this user (data-dir.ts), and the file 0600.
 */
function secretsKey(env: Env, appEnv: AppEnv, dataDir: string): Buffer {
  const raw = nonEmpty(env, 'SECRETS_KEY');
  if (raw) return decodeKey('SECRETS_KEY', raw);
  if (appEnv !== 'development') {
    throw new ConfigError(
      'SECRETS_KEY',
      `is required when APP_ENV=${appEnv} (32 bytes encoded as base64; openssl rand -base64 32 makes one)`,
    );
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
    return decodeKey('SECRETS_KEY', readFileSync(file, 'utf8'), `${file}, the development key, `);
  }
  const generated = randomBytes(32).toString('base64');
  writeFileSync(file, generated, { mode: 0o600, flag: 'wx' });
  return Buffer.from(generated, 'base64');
}

function previousKeys(raw: string | undefined): Buffer[] {
  if (!raw?.trim()) return [];
  const parts = raw.split(',');
  return parts.map((part, index) =>
    decodeKey('SECRETS_KEY_PREVIOUS', part, parts.length > 1 ? `key ${index + 1} of ${parts.length} ` : ''),
  );
}

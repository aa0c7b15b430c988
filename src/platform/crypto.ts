import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Readable prefixes so a leaked value can be recognised (and scanned for) by its kind. */
export const TOKEN_PREFIX = {
  staff: 'bm_staff_',
  aggregatorKey: 'bm_agg_',
  integrationKey: 'bm_int_',
  walletSecret: 'bm_whsec_',
  launch: 'bm_launch_',
  session: 'bm_sess_',
  feedKey: 'bm_feed_',
} as const;

export type TokenKind = keyof typeof TOKEN_PREFIX;

/** An opaque random token: prefix + 256 random bits, base64url. */
export function newToken(kind: TokenKind): string {
  return TOKEN_PREFIX[kind] + randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}

export function hmacSha256Hex(key: string | Buffer, message: string | Buffer): string {
  return createHmac('sha256', key).update(message).digest('hex');
}

/** Constant-time comparison of two strings; different lengths compare unequal without early exit on content. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}

const CIPHER = 'aes-256-gcm';
const FORMAT = 'v1';

export class DecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecryptionError';
  }
}

/**
 * AES-256-GCM for what must be used again (wallet secrets, TOTP secrets, replay bodies).
 * Ciphertext text: v1.<keyId>.<iv>.<tag>.<data>; the key id lets old rows decrypt after a key rotation.
 */
export class SecretBox {
  readonly #keys: Map<string, Buffer>;
  readonly #currentId: string;

  constructor(keys: Buffer[]) {
    const [current] = keys;
    if (!current) throw new Error('SecretBox needs at least one key');
    this.#keys = new Map(keys.map((key) => [keyId(key), key]));
    this.#currentId = keyId(current);
  }

  get currentKeyId(): string {
    return this.#currentId;
  }

  encrypt(plaintext: string, context = ''): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv(CIPHER, this.#keys.get(this.#currentId)!, iv);
    cipher.setAAD(Buffer.from(context));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [FORMAT, this.#currentId, iv, cipher.getAuthTag(), data]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** `context` must match the one used to encrypt: it binds a ciphertext to its row and purpose. */
  decrypt(sealed: string, context = ''): string {
    const [format, id, iv, tag, data] = sealed.split('.');
    if (format !== FORMAT || !id || iv === undefined || tag === undefined || data === undefined) {
      throw new DecryptionError('malformed ciphertext');
    }
    const key = this.#keys.get(id);
    if (!key) throw new DecryptionError(`unknown key id ${id}`);
    try {
      const decipher = createDecipheriv(CIPHER, key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new DecryptionError('ciphertext failed authentication');
    }
  }
}

function keyId(key: Buffer): string {
  return sha256Hex(key).slice(0, 8);
}

/** JSON with object keys sorted, so the same body sent with another key order hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

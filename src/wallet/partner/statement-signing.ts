import { createHash, createPrivateKey, createPublicKey, hkdfSync, sign, verify, type KeyObject } from 'node:crypto';

/**
 * The signatures of reconciliation statements: Ed25519 over the exact bytes served, so that a casino can prove to
 * anyone (an auditor, a regulator, a court) that a statement came from this platform and was not changed. An HMAC
 * with the tenant's wallet secret could not prove that: the casino holds the same secret and could have made it.
 *
 * The key pair is not stored anywhere: its private key is derived from the platform's secrets key (SECRETS_KEY,
 * HKDF-SHA256 with a label of its own, so it is independent of every other use of that key) and is as safe as that
 * key; each previous secrets key (SECRETS_KEY_PREVIOUS) gives the key pair of the statements it signed, so their
 * public keys stay published after a rotation. The public keys are served at GET /api/v1/integration/statement-keys.
 */

/** What a private key is derived with: changing it changes every key. */
const DERIVATION = { hash: 'sha256', salt: 'bookmaker', info: 'reconciliation statements / ed25519 / v1' } as const;
/** The DER of a PKCS#8 Ed25519 private key, before its 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface PublishedKey {
  keyId: string;
  algorithm: 'ed25519';
  /** SubjectPublicKeyInfo, PEM. */
  publicKey: string;
  /** The key new statements are signed with. */
  current: boolean;
}

interface SigningKey {
  keyId: string;
  privateKey: KeyObject;
  publicKey: string;
}

/** The platform's statement keys, the first one signing. */
export class StatementSigner {
  readonly #keys: SigningKey[];

  /** `secretsKeys`: the configured secrets keys, current first (config.secretsKeys). */
  constructor(secretsKeys: readonly Buffer[]) {
    if (secretsKeys.length === 0) throw new Error('StatementSigner needs at least one secrets key');
    this.#keys = secretsKeys.map(signingKey);
  }

  /** The id of the key new statements are signed with. */
  get keyId(): string {
    return this.#keys[0]!.keyId;
  }

  /** The Ed25519 signature of these exact bytes, base64. */
  sign(bytes: string | Buffer): string {
    return sign(
      null,
      typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes,
      this.#keys[0]!.privateKey,
    ).toString('base64');
  }

  published(): PublishedKey[] {
    const seen = new Set<string>();
    return this.#keys.flatMap(({ keyId, publicKey }, index) => {
      if (seen.has(keyId)) return [];
      seen.add(keyId);
      return [{ keyId, algorithm: 'ed25519' as const, publicKey, current: index === 0 }];
    });
  }
}

function signingKey(secretsKey: Buffer): SigningKey {
  const seed = Buffer.from(hkdfSync(DERIVATION.hash, secretsKey, DERIVATION.salt, DERIVATION.info, 32));
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = createPublicKey(privateKey);
  return {
    keyId: statementKeyId(publicKey),
    privateKey,
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** A key's id: `ed25519:` and the first 16 hex digits of the SHA-256 of its SubjectPublicKeyInfo (DER). */
export function statementKeyId(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return `ed25519:${createHash('sha256').update(der).digest('hex').slice(0, 16)}`;
}

/** An Ed25519 public key from its PEM text; throws when it is not one. */
export function statementPublicKey(pem: string): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error(`not an Ed25519 key (${key.asymmetricKeyType ?? 'unknown'})`);
  return key;
}

/** Whether `signature` (64 bytes) is the key's Ed25519 signature of these exact bytes. */
export function verifyStatement(bytes: Buffer, signature: Buffer, publicKey: KeyObject): boolean {
  if (signature.length !== 64) return false;
  return verify(null, bytes, publicKey, signature);
}

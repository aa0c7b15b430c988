import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  constantTimeEqual,
  DecryptionError,
  hmacSha256Hex,
  newToken,
  SecretBox,
  sha256Hex,
  TOKEN_PREFIX,
} from '../../src/platform/crypto.ts';

const keyA = Buffer.alloc(32, 1);
const keyB = Buffer.alloc(32, 2);

describe('opaque tokens', () => {
  it('carry the readable prefix of their kind and 256 random bits', () => {
    for (const kind of Object.keys(TOKEN_PREFIX) as (keyof typeof TOKEN_PREFIX)[]) {
      const token = newToken(kind);
      assert.ok(token.startsWith(TOKEN_PREFIX[kind]));
      assert.equal(Buffer.from(token.slice(TOKEN_PREFIX[kind].length), 'base64url').length, 32);
    }
    assert.notEqual(newToken('staff'), newToken('staff'));
  });
});

describe('hashing and signatures', () => {
  it('sha256Hex is the lowercase hex SHA-256', () => {
    assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hmacSha256Hex matches RFC 4231 test case 2', () => {
    assert.equal(
      hmacSha256Hex('Jefe', 'what do ya want for nothing?'),
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
    assert.equal(hmacSha256Hex('k', 'm'), createHmac('sha256', 'k').update('m').digest('hex'));
  });

  it('constantTimeEqual compares content and length', () => {
    assert.equal(constantTimeEqual('abc', 'abc'), true);
    assert.equal(constantTimeEqual('abc', 'abd'), false);
    assert.equal(constantTimeEqual('abc', 'abcd'), false);
    assert.equal(constantTimeEqual('', ''), true);
  });
});

describe('encryption at rest', () => {
  it('round-trips and never stores the plaintext', () => {
    const box = new SecretBox([keyA]);
    const sealed = box.encrypt('wallet secret ✓', 'tenant:t1');
    assert.ok(!sealed.includes('wallet secret'));
    assert.equal(box.decrypt(sealed, 'tenant:t1'), 'wallet secret ✓');
  });

  it('uses a fresh IV each time', () => {
    const box = new SecretBox([keyA]);
    assert.notEqual(box.encrypt('same'), box.encrypt('same'));
  });

  it('stores the key id beside the ciphertext', () => {
    const box = new SecretBox([keyA]);
    assert.equal(box.encrypt('x').split('.')[1], box.currentKeyId);
  });

  it('detects a tampered ciphertext, tag or IV', () => {
    const box = new SecretBox([keyA]);
    const parts = box.encrypt('top secret value').split('.');
    for (const index of [2, 3, 4]) {
      const tampered = [...parts];
      const bytes = Buffer.from(tampered[index]!, 'base64url');
      bytes[0] = bytes[0]! ^ 0x01;
      tampered[index] = bytes.toString('base64url');
      assert.throws(() => box.decrypt(tampered.join('.')), DecryptionError);
    }
  });

  it('refuses a ciphertext moved to another context (row or purpose)', () => {
    const box = new SecretBox([keyA]);
    const sealed = box.encrypt('secret', 'tenant:t1');
    assert.throws(() => box.decrypt(sealed, 'tenant:t2'), DecryptionError);
  });

  it('refuses malformed text and unknown key ids', () => {
    const box = new SecretBox([keyA]);
    assert.throws(() => box.decrypt('garbage'), DecryptionError);
    assert.throws(() => new SecretBox([keyB]).decrypt(box.encrypt('x')), /unknown key id/);
  });

  it('decrypts with a previous key after rotation and encrypts with the new one', () => {
    const old = new SecretBox([keyA]).encrypt('kept across rotation');
    const rotated = new SecretBox([keyB, keyA]);
    assert.equal(rotated.decrypt(old), 'kept across rotation');
    assert.equal(rotated.encrypt('new').split('.')[1], rotated.currentKeyId);
    assert.notEqual(rotated.currentKeyId, old.split('.')[1]);
  });
});

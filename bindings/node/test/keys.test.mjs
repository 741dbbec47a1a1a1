// SPDX-License-Identifier: Apache-2.0 OR MIT
// Keys in standard formats (RFC 9881) through the binding: every set, form and format
// round trip; files made by OpenSSL 3.5 (tests/data/openssl35) read; bad files refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import mldsa from '../index.js';

const data = (name) => readFileSync(new URL(`../../../tests/data/openssl35/${name}`, import.meta.url));
const hexFile = (name) => Buffer.from(data(name).toString().replace(/#.*\n/g, '').replace(/\s/g, ''), 'hex');
const SETS = { 44: mldsa.ml_dsa44, 65: mldsa.ml_dsa65, 87: mldsa.ml_dsa87 };
// id-ml-dsa-44/65/87: 2.16.840.1.101.3.4.3.17/18/19
const OID = { 44: '0609608648016503040311', 65: '0609608648016503040312', 87: '0609608648016503040313' };

test('every set, form and format: decode(encode(key)) is the key', () => {
  for (const [n, set] of Object.entries(SETS)) {
    const seed = randomBytes(32);
    const { publicKey, secretKey } = set.keygen(seed);
    const der = set.publicKeyToDer(publicKey);
    const pem = set.publicKeyToPem(publicKey);
    assert.match(pem, /^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=\n]+-----END PUBLIC KEY-----\n$/);
    assert.ok(der.toString('hex').includes(OID[n]), 'the OID of the set');
    for (const input of [der, pem, Buffer.from(pem)]) {
      const d = mldsa.decodePublicKey(input);
      assert.equal(d.algorithm, `ML-DSA-${n}`);
      assert.equal(d.set, set);
      assert.deepEqual(d.publicKey, publicKey);
    }
    const forms = [
      [{ seed }, true],
      [{ seed, form: 'seed' }, true],
      [{ form: 'expanded' }, false],
      [{ seed, form: 'both' }, true],
      [undefined, false],
    ];
    for (const [opts, hasSeed] of forms) {
      for (const enc of [set.privateKeyToDer, set.privateKeyToPem]) {
        const file = enc(opts?.form === 'seed' || (opts?.seed && !opts?.form) ? undefined : secretKey, opts);
        assert.ok(Buffer.isBuffer(file), 'a Buffer, to be wiped');
        const d = mldsa.decodePrivateKey(file);
        assert.equal(d.set, set);
        assert.deepEqual(d.secretKey, secretKey);
        assert.deepEqual(d.seed, hasSeed ? seed : undefined);
      }
    }
    // RFC 9881's seed form: 30 34 02 01 00 30 0b <oid> 04 22 80 20 <seed>
    assert.equal(set.privateKeyToDer(undefined, { seed }).toString('hex'),
      `3034020100300b${OID[n]}04228020${seed.toString('hex')}`);
  }
});

test('files made by OpenSSL 3.5: a certificate, its key in a pkcs12 dump, bare forms', () => {
  const cert = mldsa.certificatePublicKey(data('mldsa44-cert.pem'));
  assert.equal(cert.algorithm, 'ML-DSA-44');
  assert.deepEqual(mldsa.certificatePublicKey(hexFile('mldsa44-cert.der.hex')).publicKey,
    cert.publicKey);
  assert.deepEqual(mldsa.decodePublicKey(hexFile('mldsa44-pub.der.hex')).publicKey, cert.publicKey);
  const key = mldsa.decodePrivateKey(data('mldsa44-pkcs12-bag.pem').toString());
  assert.equal(key.set, mldsa.ml_dsa44);
  assert.deepEqual(key.set.getPublicKey(key.secretKey), cert.publicKey, 'the key of the cert');
  assert.deepEqual(key.set.keygen(key.seed).secretKey, key.secretKey);
  const bareSeed = mldsa.decodePrivateKey(hexFile('mldsa44-bare-seed.der.hex'));
  const barePriv = mldsa.decodePrivateKey(hexFile('mldsa44-bare-priv.der.hex'));
  assert.deepEqual(bareSeed.set.getPublicKey(bareSeed.secretKey),
    barePriv.set.getPublicKey(barePriv.secretKey));
  assert.throws(() => mldsa.certificatePublicKey(hexFile('ed25519-cert.der.hex')),
    { code: 'MLDSA_ERR_ENCODING' }, 'not an ML-DSA key');
});

test('bad key files and arguments', () => {
  const set = mldsa.ml_dsa65;
  const seed = randomBytes(32);
  const { publicKey, secretKey } = set.keygen(seed);
  const isEncoding = { name: 'Error', code: 'MLDSA_ERR_ENCODING' };
  for (const bad of [Buffer.alloc(0), randomBytes(100), 'not a key', set.publicKeyToDer(publicKey).subarray(1)]) {
    assert.throws(() => mldsa.decodePublicKey(bad), isEncoding);
    assert.throws(() => mldsa.decodePrivateKey(bad), isEncoding);
    assert.throws(() => mldsa.certificatePublicKey(bad), isEncoding);
  }
  assert.throws(() => mldsa.decodePrivateKey(set.publicKeyToPem(publicKey)), isEncoding);
  const der = set.privateKeyToDer(secretKey, { seed, form: 'both' });
  der[der.length - 1] ^= 1; // the expanded key no longer the seed's
  assert.throws(() => mldsa.decodePrivateKey(der), { code: 'MLDSA_ERR_KEY' });
  assert.throws(() => set.privateKeyToDer(secretKey, { seed: randomBytes(32), form: 'both' }),
    { code: 'MLDSA_ERR_KEY' }, 'seed and key disagree');
  assert.throws(() => set.privateKeyToDer(undefined, { form: 'seed' }), { name: 'TypeError' });
  assert.throws(() => set.privateKeyToDer(undefined, { form: 'expanded' }), { name: 'TypeError' });
  assert.throws(() => set.privateKeyToDer(secretKey, { form: 'both' }), { name: 'TypeError' });
  assert.throws(() => set.privateKeyToDer(secretKey, { form: 'raw' }), { name: 'RangeError' });
  assert.throws(() => set.privateKeyToDer(secretKey, { sed: seed }), { name: 'TypeError' });
  assert.throws(() => set.privateKeyToDer(secretKey.subarray(1)), { name: 'RangeError' });
  assert.throws(() => set.privateKeyToDer(undefined, { seed: seed.subarray(1) }), { name: 'RangeError' });
  assert.throws(() => set.publicKeyToDer(publicKey.subarray(1)), { name: 'RangeError' });
  assert.throws(() => set.publicKeyToPem('key'), { name: 'TypeError' });
  assert.throws(() => mldsa.decodePublicKey(42), { name: 'TypeError' });
});

// SPDX-License-Identifier: Apache-2.0 OR MIT
// Interoperability with @noble/post-quantum (pure JavaScript, the devDependency) for every
// parameter set, both ways: keys and signatures made by noble checked here and ours by
// noble, and where both sign deterministically (or with the same rnd) the same bytes.
// noble missing is a failure, not a skip: npm ci (make test-node) installs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, webcrypto } from 'node:crypto';
import * as noblePq from '@noble/post-quantum/ml-dsa.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { shake256_64 } from '@noble/hashes/sha3.js';
import mldsa from '../index.js';

// noble draws its randomness from globalThis.crypto, which Node.js 18 (Debian 12's) defines
// only with --experimental-global-webcrypto.
globalThis.crypto ??= webcrypto;

const SETS = ['ml_dsa44', 'ml_dsa65', 'ml_dsa87'];
const eq = (a, b, what) => assert.equal(Buffer.from(a).toString('hex'), Buffer.from(b).toString('hex'), what);
const flip = (a, i) => {
  const b = Uint8Array.from(a);
  b[i] ^= 1;
  return b;
};

for (const name of SETS) {
  const ours = mldsa[name];
  const noble = noblePq[name];

  test(`${name}: the same key pair from a seed, the same public key from a secret key`, () => {
    const seed = randomBytes(32);
    const a = ours.keygen(seed);
    const b = noble.keygen(seed);
    eq(a.publicKey, b.publicKey, 'publicKey');
    eq(a.secretKey, b.secretKey, 'secretKey');
    eq(ours.getPublicKey(b.secretKey), noble.getPublicKey(a.secretKey), 'getPublicKey');
    assert.deepEqual(ours.lengths, noble.lengths);
  });

  test(`${name}: noble's keys and signatures verified here, ours by noble`, () => {
    const msg = randomBytes(100);
    const context = randomBytes(17);
    const nk = noble.keygen(); // noble's own randomness
    const ok = ours.keygen(); // the library's
    const nsig = noble.sign(msg, nk.secretKey, { context });
    assert.equal(ours.verify(nsig, msg, nk.publicKey, { context }), true, 'noble sig, noble key');
    assert.equal(ours.verify(nsig, msg, nk.publicKey), false, 'without its context');
    assert.equal(ours.verify(flip(nsig, 5), msg, nk.publicKey, { context }), false, 'flipped');
    const osig = ours.sign(msg, ok.secretKey, { context });
    assert.equal(noble.verify(osig, msg, ok.publicKey, { context }), true, 'our sig, our key');
    assert.equal(noble.verify(flip(osig, 7), msg, ok.publicKey, { context }), false, 'flipped');
    // each signing with the other's key
    const xsig = ours.sign(msg, nk.secretKey, { context });
    assert.equal(noble.verify(xsig, msg, nk.publicKey, { context }), true, 'our sig, noble key');
    const ysig = noble.sign(msg, ok.secretKey);
    assert.equal(ours.verify(ysig, msg, ok.publicKey), true, 'noble sig, our key');
    assert.deepEqual(ours.verifyBatch([
      { publicKey: nk.publicKey, message: msg, signature: nsig, context },
      { publicKey: ok.publicKey, message: msg, signature: ysig },
      { publicKey: ok.publicKey, message: msg, signature: nsig, context },
    ]), [true, true, false]);
  });

  test(`${name}: deterministic and given-rnd signatures equal noble's`, () => {
    const { secretKey, publicKey } = noble.keygen(randomBytes(32));
    const msg = randomBytes(33);
    const context = randomBytes(255);
    const rnd = randomBytes(32);
    eq(ours.sign(msg, secretKey, { extraEntropy: false }),
      noble.sign(msg, secretKey, { extraEntropy: false }), 'deterministic');
    eq(ours.sign(msg, secretKey, { context, extraEntropy: rnd }),
      noble.sign(msg, secretKey, { context, extraEntropy: rnd }), 'given rnd, context');
    // pre-hash: by noble's hash function or by name, the same bytes as noble's
    for (const [hash, hashName] of [[sha512, 'SHA2-512'], [shake256_64, 'SHAKE-256']]) {
      const n = noble.prehash(hash).sign(msg, secretKey, { context, extraEntropy: false });
      eq(ours.prehash(hash).sign(msg, secretKey, { context, extraEntropy: false }), n, hashName);
      eq(ours.prehash(hashName).sign(msg, secretKey, { context, extraEntropy: false }), n, hashName);
      assert.equal(ours.prehash(hash).verify(n, msg, publicKey, { context }), true, hashName);
      const o = ours.prehash(hash).sign(msg, secretKey);
      assert.equal(noble.prehash(hash).verify(o, msg, publicKey), true, `${hashName} hedged`);
    }
    // internal (M' as given) and external mu
    eq(ours.internal.sign(msg, secretKey, { extraEntropy: rnd }),
      noble.internal.sign(msg, secretKey, { extraEntropy: rnd }), 'internal');
    const mu = ours.computeMu(publicKey, msg, { context });
    const nmu = noble.internal.sign(mu, secretKey, { externalMu: true, extraEntropy: false });
    eq(ours.internal.sign(mu, secretKey, { externalMu: true, extraEntropy: false }), nmu, 'mu');
    // and mu is pure ML-DSA's: the same signature as sign(msg, { context })
    eq(nmu, ours.sign(msg, secretKey, { context, extraEntropy: false }), 'mu is pure ML-DSA\'s');
    assert.equal(noble.internal.verify(nmu, mu, publicKey, { externalMu: true }), true);
    assert.equal(ours.internal.verify(nmu, mu, publicKey, { externalMu: true }), true);
    eq(ours.signMu(mu, secretKey, { extraEntropy: false }), nmu, 'signMu');
    assert.equal(ours.verifyMu(nmu, mu, publicKey), true);
    assert.equal(ours.verifyMu(nmu, ours.computeMu(publicKey, msg), publicKey), false, 'no ctx');
    assert.equal(noble.internal.verify(ours.signMu(mu, secretKey), mu, publicKey,
      { externalMu: true }), true, 'hedged signMu');
  });
}

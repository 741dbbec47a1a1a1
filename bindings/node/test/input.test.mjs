// SPDX-License-Identifier: Apache-2.0 OR MIT
// Bad input: a TypeError for anything that is not a Uint8Array (or an options object),
// a RangeError for a wrong length, an Error with .code MLDSA_ERR_KEY for a secret key
// that is not one, false from verify for a signature that does not verify (a wrong
// length included); and the results of good input in every form the API takes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import mldsa from '../index.js';

const native = createRequire(import.meta.url)('../build/mldsa.node');
const { ml_dsa44, ml_dsa65, ml_dsa87 } = mldsa;
const SETS = [ml_dsa44, ml_dsa65, ml_dsa87];
const NOT_BYTES = ['abc', [1, 2, 3], new ArrayBuffer(32), new Uint16Array(16),
  new Uint8ClampedArray(32), new DataView(new ArrayBuffer(32)), null, 42, {}];
const isType = { name: 'TypeError' };
const isRange = { name: 'RangeError' };

const k65 = ml_dsa65.keygen(new Uint8Array(32).fill(7));
const msg = Buffer.from('a message');
const sig65 = ml_dsa65.sign(msg, k65.secretKey);

test('not bytes: TypeError from every function', () => {
  for (const bad of NOT_BYTES) {
    if (bad !== null && bad !== 42) {
      // undefined is "no seed" for keygen; anything else must be bytes
      assert.throws(() => ml_dsa65.keygen(bad), isType);
    }
    assert.throws(() => ml_dsa65.getPublicKey(bad), isType);
    assert.throws(() => ml_dsa65.sign(bad, k65.secretKey), isType);
    assert.throws(() => ml_dsa65.sign(msg, bad), isType);
    assert.throws(() => ml_dsa65.sign(msg, k65.secretKey, { context: bad }), isType);
    assert.throws(() => ml_dsa65.verify(bad, msg, k65.publicKey), isType);
    assert.throws(() => ml_dsa65.verify(sig65, bad, k65.publicKey), isType);
    assert.throws(() => ml_dsa65.verify(sig65, msg, bad), isType);
    assert.throws(() => ml_dsa65.verify(sig65, msg, k65.publicKey, { context: bad }), isType);
    assert.throws(() => ml_dsa65.prehash('SHA2-256').sign(bad, k65.secretKey), isType);
    assert.throws(() => ml_dsa65.internal.sign(bad, k65.secretKey), isType);
    assert.throws(() => ml_dsa65.computeMu(bad, msg), isType);
  }
  assert.throws(() => ml_dsa65.keygen(null), isType);
  assert.throws(() => ml_dsa65.sign(msg, k65.secretKey, { extraEntropy: true }), isType);
  assert.throws(() => ml_dsa65.sign(msg, k65.secretKey, { extraEntropy: 'x'.repeat(32) }), isType);
  assert.throws(() => ml_dsa65.sign(msg), isType);
  assert.throws(() => ml_dsa65.verify(), isType);
});

test('wrong lengths: RangeError naming the argument', () => {
  for (const set of SETS) {
    const { publicKey, secretKey } = set.keygen();
    const sig = set.sign(msg, secretKey);
    for (const n of [0, 31, 33]) {
      assert.throws(() => set.keygen(new Uint8Array(n)), { name: 'RangeError', message: /seed/ });
      assert.throws(() => set.sign(msg, secretKey, { extraEntropy: new Uint8Array(n) }),
        { name: 'RangeError', message: /extraEntropy/ });
    }
    for (const d of [-1, 1]) {
      const sk = new Uint8Array(secretKey.length + d);
      const pk = new Uint8Array(publicKey.length + d);
      assert.throws(() => set.sign(msg, sk), { name: 'RangeError', message: /secretKey/ });
      assert.throws(() => set.getPublicKey(sk), { name: 'RangeError', message: /secretKey/ });
      assert.throws(() => set.verify(sig, msg, pk), { name: 'RangeError', message: /publicKey/ });
      assert.throws(() => set.computeMu(pk, msg), { name: 'RangeError', message: /publicKey/ });
      assert.throws(() => set.internal.sign(new Uint8Array(64 + d), secretKey,
        { externalMu: true }), { name: 'RangeError', message: /mu/ });
      assert.throws(() => set.internal.verify(sig, new Uint8Array(64 + d), publicKey,
        { externalMu: true }), { name: 'RangeError', message: /mu/ });
    }
    // a context of 255 bytes is the longest
    const ctx255 = new Uint8Array(255).fill(1);
    const s = set.sign(msg, secretKey, { context: ctx255 });
    assert.equal(set.verify(s, msg, publicKey, { context: ctx255 }), true);
    const ctx256 = new Uint8Array(256);
    assert.throws(() => set.sign(msg, secretKey, { context: ctx256 }), isRange);
    assert.throws(() => set.verify(s, msg, publicKey, { context: ctx256 }), isRange);
    assert.throws(() => set.prehash('SHA2-256').sign(msg, secretKey, { context: ctx256 }), isRange);
    assert.throws(() => set.computeMu(publicKey, msg, { context: ctx256 }), isRange);
  }
});

test('a signature that does not verify: false, whatever is wrong with it', () => {
  for (const set of SETS) {
    const { publicKey, secretKey } = set.keygen();
    const context = Buffer.from('ctx');
    const sig = set.sign(msg, secretKey, { context });
    assert.equal(set.verify(sig, msg, publicKey, { context }), true);
    assert.equal(set.verify(sig, msg, publicKey), false, 'no context');
    assert.equal(set.verify(sig, Buffer.from('another'), publicKey, { context }), false);
    assert.equal(set.verify(sig, msg, set.keygen().publicKey, { context }), false, 'other key');
    for (const i of [0, sig.length >> 1, sig.length - 1]) {
      const bad = Buffer.from(sig);
      bad[i] ^= 0x80;
      assert.equal(set.verify(bad, msg, publicKey, { context }), false, `byte ${i} flipped`);
    }
    for (const bad of [sig.subarray(1), Buffer.concat([sig, Buffer.alloc(1)]), new Uint8Array(0)]) {
      assert.equal(set.verify(bad, msg, publicKey, { context }), false, `${bad.length} bytes`);
      assert.equal(set.internal.verify(bad, msg, publicKey), false);
    }
  }
});

test('a secret key that is not one: Error with code MLDSA_ERR_KEY, no output', () => {
  const bad = Buffer.from(k65.secretKey);
  bad.fill(0xff, 128, 128 + 640); // s1 coefficients far outside [-eta, eta]
  const isKey = { name: 'Error', code: 'MLDSA_ERR_KEY' };
  assert.throws(() => ml_dsa65.sign(msg, bad), isKey);
  assert.throws(() => ml_dsa65.getPublicKey(bad), isKey);
  const tampered = Buffer.from(k65.secretKey);
  tampered[70] ^= 1; // tr is no longer H(pk)
  assert.throws(() => ml_dsa65.getPublicKey(tampered), isKey);
});

test('options as noble takes them: a plain object of known keys', () => {
  const sk = k65.secretKey;
  assert.throws(() => ml_dsa65.sign(msg, sk, { ctx: Buffer.from('x') }), isType);
  assert.throws(() => ml_dsa65.sign(msg, sk, null), isType);
  assert.throws(() => ml_dsa65.sign(msg, sk, 'context'), isType);
  assert.throws(() => ml_dsa65.verify(sig65, msg, k65.publicKey, { extraEntropy: false }), isType);
  assert.throws(() => ml_dsa65.internal.sign(msg, sk, { externalMu: 1 }), isType);
  assert.throws(() => ml_dsa65.internal.sign(msg, sk, { context: Buffer.alloc(1) }), isType);
  assert.throws(() => ml_dsa65.prehash('MD5'), isRange);
  assert.throws(() => ml_dsa65.prehash({ oid: new Uint8Array(11) }), isRange);
  assert.throws(() => ml_dsa65.prehash(42), isType);
  assert.throws(() => ml_dsa65.prehash(), isType);
});

test('the native functions check their own arguments', () => {
  const { secretKey, publicKey } = k65;
  for (const set of [0, 45, 64.5, -65, 2 ** 40, NaN]) {
    assert.throws(() => native.keygen(set), isRange);
  }
  assert.throws(() => native.keygen('65'), isType);
  assert.throws(() => native.sign(65, 4, msg, Buffer.alloc(0), 0, secretKey), isRange);
  assert.throws(() => native.sign(65, 1, msg, Buffer.alloc(0), 12, secretKey), isRange);
  // a digest of the wrong length for its hash (SHA2-256: 32 bytes)
  assert.throws(() => native.sign(65, 1, Buffer.alloc(31), Buffer.alloc(0), 1, secretKey),
    { name: 'RangeError', code: 'MLDSA_ERR_LENGTH' });
  assert.throws(() => native.verify(65, 0, msg, Buffer.alloc(0), 0, publicKey), isType);
  assert.throws(() => native.verifyBatch(65, {}), isType);
});

test('good input in every form: views at an offset, Buffers, and fresh outputs', () => {
  const big = new Uint8Array(64);
  big.set(msg, 13);
  const view = big.subarray(13, 13 + msg.length);
  assert.equal(ml_dsa65.verify(sig65, view, k65.publicKey), true, 'message at an offset');
  const skCopy = new Uint8Array(k65.secretKey.length + 5);
  skCopy.set(k65.secretKey, 5);
  const d1 = ml_dsa65.sign(msg, skCopy.subarray(5), { extraEntropy: false });
  const d2 = ml_dsa65.sign(view, k65.secretKey, { extraEntropy: false });
  assert.deepEqual(d1, d2, 'deterministic: the same bytes');
  assert.notDeepEqual(ml_dsa65.sign(msg, k65.secretKey), ml_dsa65.sign(msg, k65.secretKey),
    'hedged: fresh randomness each time');
  assert.ok(d1 instanceof Uint8Array && Buffer.isBuffer(d1));
  const a = ml_dsa65.keygen();
  const b = ml_dsa65.keygen();
  assert.notDeepEqual(a.publicKey, b.publicKey, 'keygen(): fresh seeds');
  assert.deepEqual(ml_dsa65.getPublicKey(a.secretKey), a.publicKey);
  // an empty message and context are messages like any other
  const e = ml_dsa65.sign(new Uint8Array(0), a.secretKey, { context: new Uint8Array(0) });
  assert.equal(ml_dsa65.verify(e, Buffer.alloc(0), a.publicKey), true);
});

test('verifyBatch: what verify says for each item', () => {
  assert.deepEqual(ml_dsa65.verifyBatch([]), []);
  assert.throws(() => ml_dsa65.verifyBatch(), isType);
  assert.throws(() => ml_dsa65.verifyBatch([null]), isType);
  assert.throws(() => ml_dsa65.verifyBatch([{ publicKey: k65.publicKey, message: 'm', signature: sig65 }]),
    { name: 'TypeError', message: /items\[0\]\.message/ });
  assert.throws(() => ml_dsa65.verifyBatch([
    { publicKey: k65.publicKey, message: msg, signature: sig65 },
    { publicKey: k65.publicKey.subarray(1), message: msg, signature: sig65 },
  ]), { name: 'RangeError', message: /items\[1\]\.publicKey/ });
  assert.throws(() => ml_dsa65.verifyBatch([{ publicKey: k65.publicKey, message: msg,
    signature: sig65, context: new Uint8Array(256) }]), isRange);
  for (const set of SETS) {
    const keys = [set.keygen(), set.keygen()];
    const items = [];
    for (let i = 0; i < 11; i++) {
      const k = keys[i % 2];
      const message = Buffer.from(`message ${i}`);
      const context = i % 3 ? Buffer.from(`ctx ${i}`) : undefined;
      let signature = set.sign(message, k.secretKey, { context });
      if (i === 3) signature = signature.subarray(2); // wrong length
      if (i === 5) signature[100] ^= 1;
      items.push({ publicKey: (i === 7 ? keys[0] : k).publicKey, message, signature, context });
    }
    const expected = items.map((it) => set.verify(it.signature, it.message, it.publicKey,
      { context: it.context }));
    assert.deepEqual(expected.map((v, i) => (v ? -1 : i)).filter((i) => i >= 0), [3, 5, 7]);
    assert.deepEqual(set.verifyBatch(items), expected);
  }
});

test('verifyBatch: a getter that detaches an array is read before any array is', () => {
  const message = Buffer.from(msg);
  let detach = () => {};
  const item = {
    publicKey: k65.publicKey,
    get message() { return message; },
    signature: sig65,
  };
  const later = {
    publicKey: k65.publicKey,
    message: new Uint8Array(msg),
    get signature() { detach(); return sig65; },
  };
  const moved = later.message;
  detach = () => structuredClone(moved, { transfer: [moved.buffer] });
  // the first item's arrays are taken after every getter ran: the detached one reads as
  // 0 bytes (a message that was not signed), nothing reads freed memory
  assert.deepEqual(ml_dsa65.verifyBatch([item, later]), [true, false]);
  assert.equal(moved.length, 0);
});

test('secret outputs own their memory: fill(0) wipes the only copy', () => {
  for (const set of SETS) {
    const { secretKey, publicKey } = set.keygen();
    for (const b of [secretKey, publicKey, set.sign(msg, secretKey)]) {
      assert.equal(b.byteOffset, 0);
      assert.equal(b.buffer.byteLength, b.length, 'not a slice of a shared pool');
    }
    const sk = Buffer.from(secretKey);
    secretKey.fill(0);
    assert.ok(secretKey.every((x) => x === 0));
    assert.equal(set.verify(set.sign(msg, sk), msg, publicKey), true);
  }
});

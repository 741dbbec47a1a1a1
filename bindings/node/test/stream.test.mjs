// SPDX-License-Identifier: Apache-2.0 OR MIT
// Streaming signer and verifier: any split of a message gives what sign and verify give
// for the whole; a finished stream is refused; a state is only this addon's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import mldsa from '../index.js';

const native = createRequire(import.meta.url)('../build/mldsa.node');

test('every split: the signature and verdict of the whole message', () => {
  for (const set of [mldsa.ml_dsa44, mldsa.ml_dsa65, mldsa.ml_dsa87]) {
    const { publicKey, secretKey } = set.keygen();
    const msg = randomBytes(1000);
    const context = randomBytes(9);
    const whole = set.sign(msg, secretKey, { context, extraEntropy: false });
    for (const cuts of [[], [0], [1, 999], [136, 137, 500], [1000]]) {
      const s = set.signer(secretKey, { context, extraEntropy: false });
      const v = set.verifier(publicKey, { context });
      let at = 0;
      for (const c of [...cuts, msg.length]) {
        s.update(msg.subarray(at, c));
        v.update(msg.subarray(at, c));
        at = c;
      }
      assert.deepEqual(s.finalize(), whole, `cuts ${cuts}`);
      assert.equal(v.finalize(whole), true, `cuts ${cuts}`);
    }
    // hedged, chained updates, verified whole
    const sig = set.signer(secretKey).update(msg.subarray(0, 10)).update(msg.subarray(10)).finalize();
    assert.equal(set.verify(sig, msg, publicKey), true);
    assert.equal(set.verifier(publicKey).update(msg).finalize(sig), true);
    assert.equal(set.verifier(publicKey).update(msg.subarray(1)).finalize(sig), false);
    assert.equal(set.verifier(publicKey, { context }).update(msg).finalize(sig), false);
    assert.equal(set.verifier(publicKey).update(msg).finalize(sig.subarray(1)), false);
  }
});

test('bad use: finished streams, wrong keys and states, bad arguments', () => {
  const set = mldsa.ml_dsa65;
  const { publicKey, secretKey } = set.keygen();
  const s = set.signer(secretKey);
  s.update(Buffer.from('x'));
  s.finalize();
  assert.throws(() => s.update(Buffer.from('y')), { code: 'ERR_MLDSA_FINALIZED' });
  assert.throws(() => s.finalize(), { code: 'ERR_MLDSA_FINALIZED' });
  assert.throws(() => set.signer(publicKey), { name: 'RangeError' });
  assert.throws(() => set.verifier(secretKey), { name: 'RangeError' });
  assert.throws(() => set.verifier(publicKey, { context: new Uint8Array(256) }), { name: 'RangeError' });
  assert.throws(() => set.verifier(publicKey, { extraEntropy: false }), { name: 'TypeError' });
  assert.throws(() => set.verifier(publicKey).update('text'), { name: 'TypeError' });
  assert.throws(() => set.verifier(publicKey).finalize('sig'), { name: 'TypeError' });
  // a state is an external tagged as this addon's: nothing else is taken for one
  for (const bad of [{}, Buffer.alloc(512), null, 1]) {
    assert.throws(() => native.muUpdate(bad, Buffer.alloc(1)), { name: 'TypeError' });
    assert.throws(() => native.muFinal(bad), { name: 'TypeError' });
  }
  assert.throws(() => native.muInit(65, publicKey, Buffer.alloc(0), 'no'), { name: 'TypeError' });
});

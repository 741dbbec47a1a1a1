// SPDX-License-Identifier: Apache-2.0 OR MIT
// The package as its users load it, by its name: named ES imports as from noble (also by
// noble's path, mldsa/ml-dsa.js), the default import and require give one API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import mldsa, { ml_dsa44, ml_dsa65, ml_dsa87, isa, version } from 'mldsa';
import * as nobleShaped from 'mldsa/ml-dsa.js';

const required = createRequire(import.meta.url)('mldsa');

test('import, import by noble\'s path and require: the same objects', () => {
  assert.equal(required, mldsa);
  for (const [name, set] of Object.entries({ ml_dsa44, ml_dsa65, ml_dsa87 })) {
    assert.equal(set, required[name]);
    assert.equal(nobleShaped[name], set);
    assert.equal(typeof set.sign, 'function');
  }
  assert.match(isa(), /^(avx512|avx2|sse2|neon|scalar)$/);
  assert.match(version, /^\d+\.\d+\.\d+$/);
  assert.ok(Object.isFrozen(ml_dsa65) && Object.isFrozen(ml_dsa65.lengths));
});

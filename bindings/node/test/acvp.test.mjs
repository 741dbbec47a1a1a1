// SPDX-License-Identifier: Apache-2.0 OR MIT
// The NIST ACVP vectors of the repository (vectors/acvp) through the binding: key
// generation, signing (pure, pre-hash, internal, external mu; deterministic and given
// rnd; expanded and seed keys) and verification, every test of every file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import mldsa from '../index.js';

const SETS = { 'ML-DSA-44': mldsa.ml_dsa44, 'ML-DSA-65': mldsa.ml_dsa65, 'ML-DSA-87': mldsa.ml_dsa87 };
const hex = (s) => Buffer.from(s ?? '', 'hex');
const load = (name) =>
  JSON.parse(gunzipSync(readFileSync(new URL(`../../../vectors/acvp/${name}`, import.meta.url))));

// Every test of a file, with its group, through fn; the count per kind of group.
function each(file, fn) {
  const counts = new Map();
  let total = 0;
  for (const g of file.testGroups) {
    const set = SETS[g.parameterSet];
    assert.ok(set, `unknown parameter set ${g.parameterSet}`);
    for (const t of g.tests) {
      const kind = fn(set, g, t);
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
      total++;
    }
  }
  return { counts, total };
}

function report(t, name, file, { counts, total }) {
  const expected = file.testGroups.reduce((n, g) => n + g.tests.length, 0);
  assert.equal(total, expected, `${name}: every test run`);
  assert.ok(total > 0, `${name}: no tests`);
  const parts = [...counts].map(([k, n]) => `${k} ${n}`).join(', ');
  t.diagnostic(`${name}: ${total} passed (${parts})`);
}

test('keyGen: the key pair of every seed', (t) => {
  const file = load('ML-DSA-keyGen-FIPS204.json.gz');
  report(t, 'keyGen', file, each(file, (set, g, c) => {
    const { publicKey, secretKey } = set.keygen(hex(c.seed));
    assert.equal(publicKey.toString('hex'), c.pk.toLowerCase(), `tcId ${c.tcId} pk`);
    assert.equal(secretKey.toString('hex'), c.sk.toLowerCase(), `tcId ${c.tcId} sk`);
    return g.parameterSet;
  }));
});

// The signature of one sigGen test, made the way its group says.
function signOne(set, g, c) {
  const secretKey = c.sk !== undefined ? hex(c.sk) : set.keygen(hex(c.seed)).secretKey;
  const extraEntropy = g.deterministic ? false : hex(c.rnd);
  let kind;
  let sig;
  if (g.signatureInterface === 'internal' && g.externalMu) {
    kind = 'external mu';
    sig = set.internal.sign(hex(c.mu), secretKey, { externalMu: true, extraEntropy });
  } else if (g.signatureInterface === 'internal') {
    kind = 'internal';
    sig = set.internal.sign(hex(c.message), secretKey, { extraEntropy });
  } else if (g.preHash === 'preHash') {
    kind = 'pre-hash';
    sig = set.prehash(c.hashAlg).sign(hex(c.message), secretKey, {
      context: hex(c.context), extraEntropy,
    });
  } else {
    assert.equal(g.preHash, 'pure');
    kind = 'pure';
    sig = set.sign(hex(c.message), secretKey, { context: hex(c.context), extraEntropy });
  }
  assert.equal(sig.toString('hex'), c.signature.toLowerCase(), `tcId ${c.tcId} signature`);
  return `${kind}${g.deterministic ? ' deterministic' : ' rnd'}`;
}

for (const name of ['ML-DSA-sigGen-FIPS204.json.gz', 'ML-DSA-sigGen-FIPS204-tr1.json.gz']) {
  test(`sigGen: every signature (${name})`, (t) => {
    const file = load(name);
    report(t, name.replace('.json.gz', ''), file, each(file, signOne));
  });
}

test('sigVer: every verdict', (t) => {
  const file = load('ML-DSA-sigVer-FIPS204.json.gz');
  let accepted = 0;
  const result = each(file, (set, g, c) => {
    const pk = hex(c.pk);
    const sig = hex(c.signature);
    let kind;
    let ok;
    if (g.signatureInterface === 'internal' && g.externalMu) {
      kind = 'external mu';
      ok = set.internal.verify(sig, hex(c.mu), pk, { externalMu: true });
    } else if (g.signatureInterface === 'internal') {
      kind = 'internal';
      ok = set.internal.verify(sig, hex(c.message), pk);
    } else if (g.preHash === 'preHash') {
      kind = 'pre-hash';
      ok = set.prehash(c.hashAlg).verify(sig, hex(c.message), pk, { context: hex(c.context) });
    } else {
      kind = 'pure';
      ok = set.verify(sig, hex(c.message), pk, { context: hex(c.context) });
    }
    assert.equal(ok, c.testPassed, `tcId ${c.tcId} (${c.reason})`);
    if (ok) accepted++;
    return kind;
  });
  report(t, 'sigVer', file, result);
  t.diagnostic(`sigVer: ${accepted} accepted, ${result.total - accepted} rejected, as expected`);
});

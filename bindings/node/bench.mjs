// SPDX-License-Identifier: Apache-2.0 OR MIT
// This binding beside @noble/post-quantum (pure JavaScript) in the same process: the
// median time of keygen, sign (hedged, 32-byte message) and verify per parameter set,
// and how many times faster the binding is. Times are the process's CPU time
// (process.cpuUsage), not wall time: on a machine shared with other work, preemption
// would lengthen noble's millisecond calls far more often than the binding's. `node bench.mjs [44] [65] [87]` (default:
// all three); `make bench-node`.
import { cpus } from 'node:os';
import { randomBytes, webcrypto } from 'node:crypto';
import * as noble from '@noble/post-quantum/ml-dsa.js';
import mldsa from './index.js';

// noble's randomness comes from globalThis.crypto, which Node.js 18 does not define.
globalThis.crypto ??= webcrypto;

const BUDGET_MS = 600; // of CPU time, per operation and implementation
const MIN_SAMPLES = 7;

// CPU nanoseconds used by this process so far.
function cpuNs() {
  const { user, system } = process.cpuUsage();
  return (user + system) * 1000;
}

// Median CPU nanoseconds per call of fn, each sample a run of enough calls to use >= 2 ms
// (the binding's calls are too short to time one by one).
function median(fn) {
  let reps = 1;
  for (;;) {
    const t0 = cpuNs();
    for (let i = 0; i < reps; i++) fn();
    if (cpuNs() - t0 >= 2e6) break;
    reps *= 2;
  }
  const samples = [];
  const end = cpuNs() + BUDGET_MS * 1e6;
  while (samples.length < MIN_SAMPLES || cpuNs() < end) {
    const t0 = cpuNs();
    for (let i = 0; i < reps; i++) fn();
    samples.push((cpuNs() - t0) / reps);
  }
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1];
}

function ops(impl) {
  const msg = randomBytes(32);
  const { publicKey, secretKey } = impl.keygen(randomBytes(32));
  const sig = impl.sign(msg, secretKey);
  if (!impl.verify(sig, msg, publicKey)) throw new Error('a signature that does not verify');
  return {
    keygen: () => impl.keygen(),
    sign: () => impl.sign(msg, secretKey),
    verify: () => impl.verify(sig, msg, publicKey),
  };
}

const us = (ns) => (ns / 1000).toFixed(1).padStart(10);
const sets = process.argv.slice(2).length ? process.argv.slice(2) : ['44', '65', '87'];
console.log(`CPU: ${cpus()[0].model}; node ${process.version}; libmldsa ${mldsa.version} (${mldsa.isa()})`);
console.log('median CPU microseconds per operation, @noble/post-quantum and this binding:');
console.log('set        op         noble       mldsa     ratio');
for (const set of sets) {
  const name = `ml_dsa${set}`;
  if (!mldsa[name]) throw new Error(`unknown set ${set}: 44, 65 or 87`);
  const a = ops(noble[name]);
  const b = ops(mldsa[name]);
  for (const op of ['keygen', 'sign', 'verify']) {
    const tn = median(a[op]);
    const tm = median(b[op]);
    console.log(`ML-DSA-${set}  ${op.padEnd(6)} ${us(tn)}  ${us(tm)}  ${(tn / tm).toFixed(1).padStart(7)}x`);
  }
}

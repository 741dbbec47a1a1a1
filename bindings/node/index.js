// SPDX-License-Identifier: Apache-2.0 OR MIT
// ML-DSA (FIPS 204) for Node.js over libmldsa: ml_dsa44, ml_dsa65 and ml_dsa87 in the
// shape of @noble/post-quantum's, synchronous, on Uint8Arrays (Buffers are Uint8Arrays).
// The native addon checks every argument itself; this file gives the calls their shape
// (options objects, pre-hashing) and checks the options.
'use strict';

const { createHash } = require('node:crypto');
const native = require('./build/mldsa.node');

// The message forms of the native sign and verify (src/ops.c).
const PURE = 0;
const PREHASH = 1;
const INTERNAL = 2;
const MU = 3;

const EMPTY = new Uint8Array(0);

// The pre-hash functions of FIPS 204 (mldsa_hash in mldsa.h, in its order), by the names
// ACVP and FIPS 204 use; `node` is node:crypto's name, `oid` the last arc of the OID
// 2.16.840.1.101.3.4.2.x that noble's hash functions carry.
const HASHES = [
  { name: 'SHA2-224', node: 'sha224', oid: 4 },
  { name: 'SHA2-256', node: 'sha256', oid: 1 },
  { name: 'SHA2-384', node: 'sha384', oid: 2 },
  { name: 'SHA2-512', node: 'sha512', oid: 3 },
  { name: 'SHA2-512/224', node: 'sha512-224', oid: 5 },
  { name: 'SHA2-512/256', node: 'sha512-256', oid: 6 },
  { name: 'SHA3-224', node: 'sha3-224', oid: 7 },
  { name: 'SHA3-256', node: 'sha3-256', oid: 8 },
  { name: 'SHA3-384', node: 'sha3-384', oid: 9 },
  { name: 'SHA3-512', node: 'sha3-512', oid: 10 },
  { name: 'SHAKE-128', node: 'shake128', oid: 11, outputLength: 32 },
  { name: 'SHAKE-256', node: 'shake256', oid: 12, outputLength: 64 },
];
// DER of 2.16.840.1.101.3.4.2 (NIST's hash algorithms), before the last arc.
const HASH_OID_PREFIX = [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02];

// The hash named by a string ('SHA2-512', 'sha512', 'SHAKE-256', ...) or by a noble hash
// function (its .oid), as its index in HASHES.
function hashIndex(hash) {
  if (typeof hash === 'string') {
    const i = HASHES.findIndex((h) => h.name === hash || h.node === hash.toLowerCase());
    if (i < 0) throw new RangeError(`mldsa: prehash: unknown hash ${JSON.stringify(hash)}`);
    return i;
  }
  const oid = hash !== null && (typeof hash === 'function' || typeof hash === 'object')
    ? hash.oid : undefined;
  if (!(oid instanceof Uint8Array)) {
    throw new TypeError('mldsa: prehash: hash must be a name or a hash function with an oid');
  }
  const i = HASHES.findIndex((h) => oid.length === HASH_OID_PREFIX.length + 1 &&
    HASH_OID_PREFIX.every((b, j) => oid[j] === b) && oid[oid.length - 1] === h.oid);
  if (i < 0) throw new RangeError('mldsa: prehash: not a hash of FIPS 204');
  return i;
}

function digest(index, msg) {
  if (!(msg instanceof Uint8Array)) {
    throw new TypeError('mldsa: message must be a Uint8Array or Buffer');
  }
  const h = HASHES[index];
  const opts = h.outputLength === undefined ? undefined : { outputLength: h.outputLength };
  return createHash(h.node, opts).update(msg).digest();
}

// An options object as noble takes it: undefined, or a plain object of known keys only
// (a misspelt key such as `ctx` would otherwise sign without the context it meant).
function options(opts, allowed, where) {
  if (opts === undefined) return {};
  if (opts === null || typeof opts !== 'object' || Array.isArray(opts)) {
    throw new TypeError(`mldsa: ${where}: options must be an object`);
  }
  for (const key of Object.keys(opts)) {
    if (!allowed.includes(key)) {
      throw new TypeError(`mldsa: ${where}: unknown option ${JSON.stringify(key)}`);
    }
  }
  return opts;
}

const contextOf = (o) => (o.context === undefined ? EMPTY : o.context);
// rnd of FIPS 204: undefined = hedged (fresh OS randomness, drawn by the library),
// false = deterministic (32 zero bytes), else the caller's 32 bytes.
const rndOf = (o) => (o.extraEntropy === false ? new Uint8Array(32) : o.extraEntropy);

function externalMuOf(o, where) {
  if (o.externalMu !== undefined && typeof o.externalMu !== 'boolean') {
    throw new TypeError(`mldsa: ${where}: externalMu must be a boolean`);
  }
  return o.externalMu === true;
}

const DER = 0;
const PEM = 1;
const SK_FORMS = { seed: 1, expanded: 2, both: 3 };

// A key file's bytes: a Uint8Array, or PEM text as a string.
const keyInput = (input) => (typeof input === 'string' ? Buffer.from(input, 'latin1') : input);

// privateKeyTo{Der,Pem}(secretKey, { seed, form }): form 'seed' (RFC 9881's
// recommendation), 'expanded' or 'both'; by default 'seed' when a seed is given, else
// 'expanded'. secretKey may be undefined for the seed form.
function privateKeyEncode(set, format, secretKey, opts) {
  const o = options(opts, ['seed', 'form'], 'privateKeyEncode');
  const formName = o.form ?? (o.seed !== undefined ? 'seed' : 'expanded');
  if (!Object.hasOwn(SK_FORMS, formName)) {
    throw new RangeError(`mldsa: privateKeyEncode: form must be 'seed', 'expanded' or 'both'`);
  }
  return native.privateKeyEncode(set, format, SK_FORMS[formName], o.seed,
    secretKey === null ? undefined : secretKey);
}

function makeSet(set) {
  const sizes = native.sizes(set);
  const lengths = Object.freeze({
    secretKey: sizes.secretKey,
    publicKey: sizes.publicKey,
    seed: 32,
    signature: sizes.signature,
    signRand: 32,
  });

  const keygen = (seed) => {
    const [publicKey, secretKey] = native.keygen(set, seed);
    return { secretKey, publicKey };
  };
  const getPublicKey = (secretKey) => native.publicKeyFromSecret(set, secretKey);

  const internal = Object.freeze({
    info: Object.freeze({ type: 'internal-ml-dsa' }),
    lengths,
    keygen,
    getPublicKey,
    // M' as given (FIPS 204 Alg. 7), or mu with { externalMu: true }.
    sign(msg, secretKey, opts) {
      const o = options(opts, ['extraEntropy', 'externalMu'], 'internal.sign');
      const form = externalMuOf(o, 'internal.sign') ? MU : INTERNAL;
      return native.sign(set, form, msg, EMPTY, 0, secretKey, rndOf(o));
    },
    verify(sig, msg, publicKey, opts) {
      const o = options(opts, ['externalMu'], 'internal.verify');
      const form = externalMuOf(o, 'internal.verify') ? MU : INTERNAL;
      return native.verify(set, form, msg, EMPTY, 0, publicKey, sig);
    },
  });

  const prehash = (hash) => {
    const index = hashIndex(hash);
    return Object.freeze({
      info: Object.freeze({ type: 'hashml-dsa' }),
      lengths,
      keygen,
      getPublicKey,
      sign(msg, secretKey, opts) {
        const o = options(opts, ['context', 'extraEntropy'], 'prehash.sign');
        return native.sign(set, PREHASH, digest(index, msg), contextOf(o), index, secretKey,
          rndOf(o));
      },
      verify(sig, msg, publicKey, opts) {
        const o = options(opts, ['context'], 'prehash.verify');
        return native.verify(set, PREHASH, digest(index, msg), contextOf(o), index, publicKey,
          sig);
      },
    });
  };

  return Object.freeze({
    info: Object.freeze({ type: 'ml-dsa' }),
    internal,
    securityLevel: { 44: 128, 65: 192, 87: 256 }[set],
    lengths,
    keygen,
    getPublicKey,
    sign(msg, secretKey, opts) {
      const o = options(opts, ['context', 'extraEntropy'], 'sign');
      return native.sign(set, PURE, msg, contextOf(o), 0, secretKey, rndOf(o));
    },
    verify(sig, msg, publicKey, opts) {
      const o = options(opts, ['context'], 'verify');
      return native.verify(set, PURE, msg, contextOf(o), 0, publicKey, sig);
    },
    prehash,
    // mu = H(tr || 0 || len(ctx) || ctx || msg), to sign or verify with
    // internal.sign / internal.verify and { externalMu: true }.
    computeMu(publicKey, msg, opts) {
      const o = options(opts, ['context'], 'computeMu');
      return native.computeMu(set, publicKey, msg, contextOf(o));
    },
    // Streaming: a message of any size in pieces, update(data) as often as needed, then
    // finalize(): the signature of the whole message, as sign(msg, secretKey, opts)
    // would make it. The signer keeps a reference to secretKey (no copy) until then.
    signer(secretKey, opts) {
      const o = options(opts, ['context', 'extraEntropy'], 'signer');
      const rnd = rndOf(o);
      const state = native.muInit(set, secretKey, contextOf(o), true);
      return Object.freeze({
        update(data) {
          native.muUpdate(state, data);
          return this;
        },
        finalize: () => native.sign(set, MU, native.muFinal(state), EMPTY, 0, secretKey, rnd),
      });
    },
    // ... and finalize(signature): what verify(signature, msg, publicKey, opts) says.
    verifier(publicKey, opts) {
      const o = options(opts, ['context'], 'verifier');
      const state = native.muInit(set, publicKey, contextOf(o), false);
      return Object.freeze({
        update(data) {
          native.muUpdate(state, data);
          return this;
        },
        finalize: (sig) => native.verify(set, MU, native.muFinal(state), EMPTY, 0, publicKey, sig),
      });
    },
    // Keys in standard formats (RFC 9881): SubjectPublicKeyInfo and PKCS#8, DER or PEM.
    // A private key's PEM is a Buffer of ASCII text, so that it can be wiped.
    publicKeyToDer: (publicKey) => native.publicKeyEncode(set, DER, publicKey),
    publicKeyToPem: (publicKey) => native.publicKeyEncode(set, PEM, publicKey).toString('latin1'),
    privateKeyToDer: (secretKey, opts) => privateKeyEncode(set, DER, secretKey, opts),
    privateKeyToPem: (secretKey, opts) => privateKeyEncode(set, PEM, secretKey, opts),
    // The same as internal.sign / internal.verify with { externalMu: true }.
    signMu(mu, secretKey, opts) {
      const o = options(opts, ['extraEntropy'], 'signMu');
      return native.sign(set, MU, mu, EMPTY, 0, secretKey, rndOf(o));
    },
    verifyMu: (sig, mu, publicKey) => native.verify(set, MU, mu, EMPTY, 0, publicKey, sig),
    // [{ publicKey, message, signature, context? }, ...] -> [boolean, ...], as verify
    // would answer each, in one call that shares the hashing between them.
    verifyBatch(items) {
      return native.verifyBatch(set, items);
    },
  });
}

const SETS = { 44: makeSet(44), 65: makeSet(65), 87: makeSet(87) };
const named = ([set, key]) => ({ algorithm: `ML-DSA-${set}`, set: SETS[set], key });

module.exports = Object.freeze({
  ml_dsa44: SETS[44],
  ml_dsa65: SETS[65],
  ml_dsa87: SETS[87],
  // Key files of any set, DER or PEM (told apart by their content), as
  // { algorithm: 'ML-DSA-65', set: ml_dsa65, publicKey } and
  // { algorithm, set, secretKey, seed? } (seed when the file holds one).
  decodePublicKey(input) {
    const { algorithm, set, key } = named(native.publicKeyDecode(keyInput(input)));
    return { algorithm, set, publicKey: key };
  },
  decodePrivateKey(input) {
    const r = native.privateKeyDecode(keyInput(input));
    const { algorithm, set, key } = named(r);
    return r[2] === undefined ? { algorithm, set, secretKey: key }
      : { algorithm, set, secretKey: key, seed: r[2] };
  },
  // The ML-DSA public key of an X.509 certificate (DER or PEM); the certificate itself
  // (signature, dates, chain) is not checked.
  certificatePublicKey(input) {
    const { algorithm, set, key } = named(native.certificatePublicKey(keyInput(input)));
    return { algorithm, set, publicKey: key };
  },
  // The arithmetic in use ('avx512', 'avx2', 'sse2', 'neon' or 'scalar') and the version
  // of the library the addon was built with.
  isa: native.isa,
  version: native.version(),
});

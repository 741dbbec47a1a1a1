/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* ExpandA, ExpandS and ExpandMask (FIPS 204 Alg. 32-34) on this ISA's batched SHAKE:
 * W = 1, 2, 4 or 8 streams per Keccak call. Every stream's bytes are exactly those of the
 * one-stream definition, so the result is the same on every ISA. */
#include <string.h>

#include "ct.h"
#include "expand.h"
#include "expand_model.h"
#include "fips202x.h"
#include "kernels.h"
#include "util.h"

#define W MLDSA_KECCAKX_W(MLDSA_ISA)
#define SHAKE128X_ABSORB KERNEL(shake128x_absorb)
#define SHAKE256X_ABSORB KERNEL(shake256x_absorb)
#define SHAKE128X_SQUEEZE KERNEL(shake128x_squeezeblocks)
#define SHAKE256X_SQUEEZE KERNEL(shake256x_squeezeblocks)

/* ExpandA alone: blocks squeezed up front, enough for almost every stream, then one
 * block at a time. */
#define A_BLOCKS 5    /* 840 bytes = 280 candidates for 256 coefficients (p = 0.999) */
/* ExpandMask: the blocks of one polynomial, squeezed at once. */
#define Y_BLOCKS MLDSA_MASK_BLOCKS

/* The samplers' inner loops are kernels of this ISA (kernels.h): RejNTTPoly's 23-bit
 * candidates (public), RejBoundedPoly's half-bytes for this set's eta (secret; only the
 * accept pattern may show). */
#define REJ_UNIFORM KERNEL(rej_uniform)
#if defined(MLDSA_CT_TESTING)
/* ci/ct (valgrind) can be told that the accept pattern is public only in C
 * (MLDSA_CT_PUBLIC in the scalar loop); how the assembly uses it is checked statically,
 * instruction by instruction, by ci/ct_static and its allow-list. */
#define REJ_ETA_ISA scalar
#else
#define REJ_ETA_ISA MLDSA_ISA
#endif
#if MLDSA_ETA == 2
#define REJ_ETA MLDSA_CAT3(mldsa_rej_eta2_, REJ_ETA_ISA, )
#else
#define REJ_ETA MLDSA_CAT3(mldsa_rej_eta4_, REJ_ETA_ISA, )
#endif

typedef unsigned (*rejection_fn)(int32_t *a, unsigned n, const uint8_t *buf, size_t len);
typedef void (*squeeze_fn)(uint8_t *const *out, size_t nblocks, mldsa_keccakx *st, unsigned n);

/* seed = prefix || two little-endian bytes (j, i) of FIPS 204's IntegerToBytes. */
static void make_seed(uint8_t *seed, const uint8_t *prefix, size_t len, unsigned lo,
                      unsigned hi) {
  memcpy(seed, prefix, len);
  seed[len] = (uint8_t)lo;
  seed[len + 1] = (uint8_t)hi;
}

/* Fill poly[0..n-1] by rejection sampling from the n streams of st: `blocks` blocks up
 * front, then one more block of every stream while any polynomial is short. Whether a
 * polynomial is full depends only on the accept pattern, which is public. */
static void rejection_sample(int32_t *const *poly, unsigned n, mldsa_keccakx *st,
                             uint8_t *const *out, size_t blocks, size_t rate,
                             squeeze_fn squeeze, rejection_fn rejection) {
  unsigned count[W], done = 1;
  squeeze(out, blocks, st, n);
  for (unsigned j = 0; j < n; ++j) {
    count[j] = rejection(poly[j], 0, out[j], blocks * rate);
    done &= count[j] == MLDSA_N;
  }
  while (!done) {
    squeeze(out, 1, st, n);
    done = 1;
    for (unsigned j = 0; j < n; ++j) {
      count[j] = rejection(poly[j], count[j], out[j], rate);
      done &= count[j] == MLDSA_N;
    }
  }
}

/* ExpandA's polynomials first .. end - 1 (in row order), W streams at a time with
 * A_BLOCKS squeezed at once: fewer instructions than the lane scheduler's block at a
 * time, wherever no other stream shares the batches (import, a prepared key, sign and
 * verify when ExpandA fills every lane, and the rounds before a hash's or ExpandS's). Not
 * inlined: its buffers in a frame of their own. */
static __attribute__((noinline)) void expand_a_bulk(mldsa_matrix *a,
                                                    const uint8_t rho[MLDSA_SEEDBYTES],
                                                    unsigned first, unsigned end) {
  mldsa_keccakx st;
  uint8_t seed[W][MLDSA_SEEDBYTES + 2], buf[W][A_BLOCKS * MLDSA_SHAKE128_RATE];
  const uint8_t *in[W];
  uint8_t *out[W];
  int32_t *poly[W];
  for (unsigned start = first; start < end; start += W) {
    unsigned n = end - start < W ? end - start : W;
    for (unsigned j = 0; j < n; ++j) {
      unsigned row = (start + j) / MLDSA_L, col = (start + j) % MLDSA_L;
      make_seed(seed[j], rho, MLDSA_SEEDBYTES, col, row);
      in[j] = seed[j];
      out[j] = buf[j];
      poly[j] = a->row[row].v[col].c;
    }
    SHAKE128X_ABSORB(&st, in, MLDSA_SEEDBYTES + 2, n);
    rejection_sample(poly, n, &st, out, A_BLOCKS, MLDSA_SHAKE128_RATE, SHAKE128X_SQUEEZE,
                     REJ_UNIFORM);
  }
}

void expand_a(mldsa_matrix *a, const uint8_t rho[MLDSA_SEEDBYTES], unsigned first,
              unsigned end) {
  expand_a_bulk(a, rho, first, end);
}

/* ExpandS alone, W streams at a time with S_BLOCKS squeezed at once (keygen where
 * ExpandA fills every lane of its batches). Not inlined, like expand_a: the two frames
 * one after the other, not one frame holding both (the stack wipe covers one). */
static __attribute__((noinline)) void expand_s(mldsa_polyvecl *s1, mldsa_polyveck *s2, const uint8_t rhoprime[MLDSA_CRHBYTES]) {
  mldsa_keccakx st;
  uint8_t seed[W][MLDSA_CRHBYTES + 2], buf[W][S_BLOCKS * MLDSA_SHAKE256_RATE];
  const uint8_t *in[W];
  uint8_t *out[W];
  int32_t *poly[W];
  for (unsigned start = 0; start < MLDSA_L + MLDSA_K; start += W) {
    unsigned n = MLDSA_L + MLDSA_K - start < W ? MLDSA_L + MLDSA_K - start : W;
    for (unsigned j = 0; j < n; ++j) {
      unsigned r = start + j;
      make_seed(seed[j], rhoprime, MLDSA_CRHBYTES, r & 0xFF, r >> 8);
      in[j] = seed[j];
      out[j] = buf[j];
      poly[j] = r < MLDSA_L ? s1->v[r].c : s2->v[r - MLDSA_L].c;
    }
    SHAKE256X_ABSORB(&st, in, MLDSA_CRHBYTES + 2, n);
    rejection_sample(poly, n, &st, out, S_BLOCKS, MLDSA_SHAKE256_RATE, SHAKE256X_SQUEEZE,
                     REJ_ETA);
  }
  mldsa_zeroize(&st, sizeof st);
  mldsa_zeroize(seed, sizeof seed);
  mldsa_zeroize(buf, sizeof buf);
}

/* ---- the lane scheduler ----
 *
 * The SHAKE streams of an operation that do not depend on each other share this ISA's
 * batched permutation: ExpandA's K L streams (SHAKE128), ExpandS's L + K (SHAKE256), and
 * hashes of any length beside them (tr = H(pk) in verify). Each lane runs one stream at a
 * time and takes the next pending one as soon as its stream is done, whatever its rate,
 * so lanes idle only at the very end. A stream is absorbed and squeezed one block at a
 * time in its own lane (its bytes are exactly those of the one-stream SHAKE), and each
 * squeezed block goes straight to its consumer: the rejection sampler of its polynomial
 * (168 bytes are 56 whole 3-byte candidates, 136 bytes 272 half-bytes, so sampling block
 * by block accepts exactly what sampling the concatenation does), or a hash's output.
 *
 * Which lane runs which stream, and when a stream ends, depend only on public data: the
 * order of the jobs and the accept pattern of the samplers (public, FIPS 204 section
 * 3.4). The state and the block buffer hold ExpandS's secret streams and are wiped. */

static void cursor_start(input_cursor *c, const mldsa_hash_input *in) {
  c->in = *in;
  c->piece = 0;
  c->off = 0;
  c->left = 0;
  for (unsigned i = 0; i < in->n; ++i) c->left += in->len[i];
}

/* The next n <= c->left bytes of input, copied into buf. */
static void cursor_copy(input_cursor *c, uint8_t *buf, size_t n) {
  c->left -= n;
  for (size_t got = 0; got < n;) {
    if (c->off == c->in.len[c->piece]) {
      ++c->piece;
      c->off = 0;
      continue;
    }
    size_t k = c->in.len[c->piece] - c->off;
    if (k > n - got) k = n - got;
    memcpy(buf + got, c->in.p[c->piece] + c->off, k);
    got += k;
    c->off += k;
  }
}

/* The next n <= c->left bytes of input: in place when they lie in one piece (a long
 * message), else gathered into buf. */
static const uint8_t *cursor_take(input_cursor *c, uint8_t *buf, size_t n) {
  while (c->piece < c->in.n && c->off == c->in.len[c->piece]) {
    ++c->piece;
    c->off = 0;
  }
  if (c->piece < c->in.n && c->in.len[c->piece] - c->off >= n) {
    const uint8_t *p = c->in.p[c->piece] + c->off;
    c->off += n;
    c->left -= n;
    return p;
  }
  cursor_copy(c, buf, n);
  return buf;
}

/* The rest of the input into a sponge. */
static void cursor_absorb(mldsa_keccak *sponge, input_cursor *c) {
  for (; c->piece < c->in.n; ++c->piece, c->off = 0)
    mldsa_shake_absorb(sponge, c->in.p[c->piece] + c->off, c->in.len[c->piece] - c->off);
  c->left = 0;
}

typedef struct {
  mldsa_hash_input in; /* the input */
  unsigned rate;
  /* a hash leaves the batch after this many blocks (0: never) and is finished on the
   * single-state permutation from *rest */
  size_t batch_blocks;
  hash_rest *rest;
  int32_t *poly; /* a sampler's polynomial (with rejection), or NULL for a hash */
  rejection_fn rejection;
  uint8_t *out; /* a hash's output, outlen <= rate bytes */
  size_t outlen;
} shake_job;

/* What a lane is doing: its job, where its input stands, whether the next permutation
 * gives output, and the sampler's count. */
typedef struct {
  shake_job job;
  uint8_t seed[MLDSA_CRHBYTES + 2]; /* the job's seed, when it has one */
  input_cursor cur;
  unsigned count, busy, squeezing;
  size_t blocks;
} lane_state;

/* The jobs of an operation, in order: the hash (tr = H(pk), mu = H(tr || M')) first, the
 * longest stream, then ExpandA's, then ExpandS's; any of them may be absent. */
typedef struct {
  unsigned n_hash, n_a, n_s, a_first; /* ExpandA's jobs are polynomials a_first .. */
  mldsa_hash_input hash_in;
  uint8_t *hash_out;
  size_t hash_outlen;
  size_t hash_batch_blocks;
  hash_rest *hash_rest;
  mldsa_matrix *a;
  const uint8_t *rho;
  mldsa_polyvecl *s1;
  mldsa_polyveck *s2;
  const uint8_t *rhoprime;
} job_list;

static void make_job(lane_state *ln, const job_list *jl, unsigned k) {
  shake_job *jb = &ln->job;
  memset(jb, 0, sizeof *jb);
  if (k < jl->n_hash) {
    jb->in = jl->hash_in;
    jb->rate = MLDSA_SHAKE256_RATE;
    jb->out = jl->hash_out;
    jb->outlen = jl->hash_outlen;
    jb->batch_blocks = jl->hash_batch_blocks;
    jb->rest = jl->hash_rest;
    return;
  }
  k -= jl->n_hash;
  if (k < jl->n_a) {
    unsigned row = (jl->a_first + k) / MLDSA_L, col = (jl->a_first + k) % MLDSA_L;
    make_seed(ln->seed, jl->rho, MLDSA_SEEDBYTES, col, row);
    jb->in.len[0] = MLDSA_SEEDBYTES + 2;
    jb->rate = MLDSA_SHAKE128_RATE;
    jb->poly = jl->a->row[row].v[col].c;
    jb->rejection = REJ_UNIFORM;
  } else {
    unsigned r = k - jl->n_a;
    make_seed(ln->seed, jl->rhoprime, MLDSA_CRHBYTES, r & 0xFF, r >> 8);
    jb->in.len[0] = MLDSA_CRHBYTES + 2;
    jb->rate = MLDSA_SHAKE256_RATE;
    jb->poly = r < MLDSA_L ? jl->s1->v[r].c : jl->s2->v[r - MLDSA_L].c;
    jb->rejection = REJ_ETA;
  }
  jb->in.p[0] = ln->seed;
  jb->in.n = 1;
}

/* Lane j's rate words (stride W in the state) XORed with, or stored to, bytes; the
 * two rates as constants, so that each loop is unrolled. */
static inline void lane_xor_words(uint64_t *s, const uint8_t *p, unsigned words) {
  for (unsigned i = 0; i < words; ++i) s[i * W] ^= mldsa_load64_le(p + 8 * i);
}
static inline void lane_store_words(uint8_t *p, const uint64_t *s, unsigned words) {
  for (unsigned i = 0; i < words; ++i) mldsa_store64_le(p + 8 * i, s[i * W]);
}
static void lane_xor_block(uint64_t *s, const uint8_t *p, unsigned rate) {
  if (rate == MLDSA_SHAKE128_RATE)
    lane_xor_words(s, p, MLDSA_SHAKE128_RATE / 8);
  else
    lane_xor_words(s, p, MLDSA_SHAKE256_RATE / 8);
}
static void lane_store_block(uint8_t *p, const uint64_t *s, unsigned rate) {
  if (rate == MLDSA_SHAKE128_RATE)
    lane_store_words(p, s, MLDSA_SHAKE128_RATE / 8);
  else
    lane_store_words(p, s, MLDSA_SHAKE256_RATE / 8);
}

/* XOR the lane's next input block into lane j, padded (SHAKE domain bits 1111, then
 * pad10*1) when the input ends in it; then the next permutation gives output. Returns 1
 * instead when a hash has had its blocks in the batch: its state leaves the lane for
 * jb->rest, where the single-state permutation finishes it (finish_hash). */
static int absorb_block(mldsa_keccakx *st, unsigned j, lane_state *ln, uint8_t *blk) {
  const shake_job *jb = &ln->job;
  uint64_t *s = st->s + j;
  if (jb->batch_blocks != 0 && ln->blocks == jb->batch_blocks) {
    hash_rest *r = jb->rest;
    for (unsigned i = 0; i < 25; ++i) r->sponge.s[i] = s[i * W];
    r->sponge.pos = 0;
    r->sponge.rate = jb->rate;
    r->sponge.perm = KERNEL(keccak_f1600_x1);
    r->rest = ln->cur;
    r->left = 1;
    return 1;
  }
  ++ln->blocks;
  const size_t left = ln->cur.left;
  if (left >= jb->rate) { /* a whole block of input */
    lane_xor_block(s, cursor_take(&ln->cur, blk, jb->rate), jb->rate);
    return 0;
  }
  /* the last block: the rest of the input and the padding, only the words it touches */
  const size_t words = left / 8 + 1;
  memset(blk, 0, 8 * words);
  cursor_copy(&ln->cur, blk, left);
  blk[left] = 0x1F;
  lane_xor_words(s, blk, (unsigned)words);
  s[(jb->rate / 8 - 1) * W] ^= (uint64_t)0x80 << 56;
  ln->squeezing = 1;
  return 0;
}

static void start_job(mldsa_keccakx *st, unsigned j, lane_state *ln, const job_list *jl,
                      unsigned k, uint8_t *blk) {
  make_job(ln, jl, k);
  cursor_start(&ln->cur, &ln->job.in);
  ln->count = ln->squeezing = 0;
  ln->blocks = 0;
  ln->busy = 1;
  for (unsigned i = 0; i < 25; ++i) st->s[i * W + j] = 0;
  (void)absorb_block(st, j, ln, blk); /* batch_blocks is never 0 here: nothing leaves */
}

/* Not inlined, like expand_a_bulk: a caller that runs both has them one after the other
 * on the stack, not in one frame. */
static __attribute__((noinline)) void run_jobs(const job_list *jl) {
  mldsa_keccakx st;
  lane_state ln[W];
  uint8_t blk[MLDSA_SHAKE128_RATE];
  const unsigned total = jl->n_hash + jl->n_a + jl->n_s;
  unsigned next = 0, busy = 0;
  memset(&st, 0, sizeof st);
  for (unsigned j = 0; j < W; ++j) {
    ln[j].busy = 0;
    if (next < total) {
      start_job(&st, j, &ln[j], jl, next++, blk);
      ++busy;
    }
  }
  while (busy) {
    KERNEL(keccakx_permute)(&st, busy);
    for (unsigned j = 0; j < W; ++j) {
      lane_state *l = &ln[j];
      if (!l->busy) continue;
      const shake_job *jb = &l->job;
      int done;
      if (!l->squeezing) { /* the next block in, or the hash leaves the batch */
        if (!absorb_block(&st, j, l, blk)) continue;
        done = 1;
      } else { /* a block out, to its consumer */
        lane_store_block(blk, st.s + j, jb->rate);
        if (jb->poly != NULL) {
          l->count = jb->rejection(jb->poly, l->count, blk, jb->rate);
          done = l->count == MLDSA_N;
        } else {
          memcpy(jb->out, blk, jb->outlen);
          done = 1;
        }
      }
      if (done) {
        l->busy = 0;
        --busy;
        if (next < total) {
          start_job(&st, j, l, jl, next++, blk);
          ++busy;
        }
      }
    }
  }
  mldsa_zeroize(&st, sizeof st);
  mldsa_zeroize(ln, sizeof ln);
  mldsa_zeroize(blk, sizeof blk);
}

/* A hash beside ExpandA: it takes one lane for ExpandA's last `stay` rounds
 * (expand_model.h), ExpandA's earlier rounds run in bulk, and the single-state
 * permutation finishes a hash longer than its stay, or one whose input is not all there
 * yet. */
static size_t hash_input_length(const mldsa_hash_input *in) {
  size_t inlen = 0;
  for (unsigned i = 0; i < in->n; ++i) inlen += in->len[i];
  return inlen;
}

void expand_a_hash_begin(mldsa_matrix *a, const uint8_t rho[MLDSA_SEEDBYTES], unsigned first,
                         uint8_t *out, size_t outlen, const mldsa_hash_input *in, size_t ready,
                         hash_rest *h) {
  const unsigned n_a = MLDSA_K * MLDSA_L - first, rounds = (n_a + W - 1) / W;
  const size_t inlen = hash_input_length(in);
  const unsigned stay = best_stay(n_a, inlen, ready, NULL);
  h->left = 1;
  if (stay == 0) { /* the hash alone, all of it on the single-state permutation */
    expand_a_bulk(a, rho, first, first + n_a);
    mldsa_shake256_init_with(&h->sponge, KERNEL(keccak_f1600_x1));
    cursor_start(&h->rest, in);
    return;
  }
  const unsigned bulk = (rounds - stay) * W;
  const size_t rides = (size_t)stay * A_ROUND_BLOCKS, rb = ready_blocks(inlen, ready);
  expand_a_bulk(a, rho, first, first + bulk);
  job_list jl = {0};
  jl.a_first = first + bulk;
  jl.n_a = n_a - bulk;
  jl.a = a;
  jl.rho = rho;
  jl.n_hash = 1;
  jl.hash_in = *in;
  jl.hash_out = out;
  jl.hash_outlen = outlen;
  jl.hash_batch_blocks = rides < rb ? rides : rb;
  jl.hash_rest = h;
  h->left = 0;
  run_jobs(&jl);
}

void hash_finish(hash_rest *h, uint8_t *out, size_t outlen) {
  if (!h->left) return; /* done in the batch */
  cursor_absorb(&h->sponge, &h->rest);
  mldsa_shake_finalize(&h->sponge);
  mldsa_shake_squeeze(&h->sponge, out, outlen);
  mldsa_zeroize(h, sizeof *h);
}

void expand_a_hash(mldsa_matrix *a, const uint8_t rho[MLDSA_SEEDBYTES], uint8_t *out,
                   size_t outlen, const mldsa_hash_input *in) {
  hash_rest h;
  expand_a_hash_begin(a, rho, 0, out, outlen, in, hash_input_length(in), &h);
  hash_finish(&h, out, outlen);
}

/* ExpandS beside ExpandA's polynomials 0 .. end - 1 where these leave lanes free in
 * their last round (ML-DSA-65 on 4 and 8 lanes, and keygen's first part, below): the
 * full rounds in bulk, then the last round and ExpandS through the lane scheduler. Where
 * they fill every lane, each alone in bulk: the scheduler's block at a time would cost
 * more than the lanes it could save (measured: the whole of ExpandA through it made
 * ML-DSA-65 keygen 6% slower on avx512). */
void expand_a_s(mldsa_matrix *a, const uint8_t rho[MLDSA_SEEDBYTES], unsigned end,
                mldsa_polyvecl *s1, mldsa_polyveck *s2, const uint8_t rhoprime[MLDSA_CRHBYTES]) {
  const unsigned full = end / W * W;
  if (full == end) {
    expand_a_bulk(a, rho, 0, end);
    expand_s(s1, s2, rhoprime);
    return;
  }
  expand_a_bulk(a, rho, 0, full);
  job_list jl = {0};
  jl.a_first = full;
  jl.n_a = end - full;
  jl.a = a;
  jl.rho = rho;
  jl.n_s = MLDSA_L + MLDSA_K;
  jl.s1 = s1;
  jl.s2 = s2;
  jl.rhoprime = rhoprime;
  run_jobs(&jl);
}

void mask_stream_init(mask_stream *ms) {
  ms->head = 0;
  ms->count = 0;
  ms->nonce = 0;
}

#define SLOTS MLDSA_MASK_SLOTS

/* Absorb the seeds of the stream's next n polynomials (nonces ms->nonce ..) into lanes
 * 0 .. n - 1 of a zeroed state, each padded: squeezing then starts with a permutation. */
static void absorb_mask_seeds(mldsa_keccakx *st, const mask_stream *ms, unsigned n,
                              const uint8_t rhoprime[MLDSA_CRHBYTES]) {
  uint8_t seed[W][MLDSA_CRHBYTES + 2];
  const uint8_t *in[W];
  for (unsigned j = 0; j < n; ++j) {
    uint16_t nonce = (uint16_t)(ms->nonce + j);
    make_seed(seed[j], rhoprime, MLDSA_CRHBYTES, nonce & 0xFF, nonce >> 8);
    in[j] = seed[j];
  }
  SHAKE256X_ABSORB(st, in, MLDSA_CRHBYTES + 2, n);
  mldsa_zeroize(seed, sizeof seed);
}

/* Refill the empty stream with the next W polynomials, squeezed straight into it. */
static void refill_mask(mask_stream *ms, const uint8_t rhoprime[MLDSA_CRHBYTES]) {
  mldsa_keccakx st;
  uint8_t *out[W];
  for (unsigned j = 0; j < W; ++j) out[j] = ms->buf[j];
  absorb_mask_seeds(&st, ms, W, rhoprime);
  SHAKE256X_SQUEEZE(out, Y_BLOCKS, &st, W);
  ms->nonce = (uint16_t)(ms->nonce + W);
  ms->head = 0;
  ms->count = W;
  mldsa_zeroize(&st, sizeof st);
}

void expand_mask(mldsa_polyvecl *y, mask_stream *ms, const uint8_t rhoprime[MLDSA_CRHBYTES]) {
  for (unsigned r = 0; r < MLDSA_L; ++r) {
    if (ms->count == 0) refill_mask(ms, rhoprime);
    /* y = gamma1 - BitUnpack(...): the encoding of z, so its decoder */
    KERNEL_G1(unpack_z)(y->v[r].c, ms->buf[ms->head]);
    ms->head = (ms->head + 1) % SLOTS;
    --ms->count;
  }
}

void hash_beside_mask(mask_stream *ms, const uint8_t rhoprime[MLDSA_CRHBYTES], uint8_t *out,
                      size_t outlen, const uint8_t *in, size_t inlen) {
  const unsigned free_slots = SLOTS - ms->count;
  const unsigned n = W - 1 < free_slots ? W - 1 : free_slots; /* lane n: the hash */
  mldsa_keccak sponge;
  mldsa_shake256_init_with(&sponge, KERNEL(keccak_f1600_x1));
  if (n > 0) {
    mldsa_keccakx st;
    uint8_t *y[W];
    for (unsigned t = 0; t < n; ++t) y[t] = ms->buf[(ms->head + ms->count + t) % SLOTS];
    absorb_mask_seeds(&st, ms, n, rhoprime); /* the hash's lane is zero */
    /* block b of the hash in before permutation b; block b of each polynomial out after it */
    for (unsigned b = 0; b < Y_BLOCKS; ++b) {
      lane_xor_words(st.s + n, in + b * MLDSA_SHAKE256_RATE, MLDSA_SHAKE256_RATE / 8);
      KERNEL(keccakx_permute)(&st, n + 1);
      for (unsigned t = 0; t < n; ++t)
        lane_store_block(y[t] + b * MLDSA_SHAKE256_RATE, st.s + t, MLDSA_SHAKE256_RATE);
    }
    for (unsigned i = 0; i < 25; ++i) sponge.s[i] = st.s[i * W + n];
    in += Y_BLOCKS * MLDSA_SHAKE256_RATE;
    inlen -= Y_BLOCKS * MLDSA_SHAKE256_RATE;
    ms->count += n;
    ms->nonce = (uint16_t)(ms->nonce + n);
    mldsa_zeroize(&st, sizeof st);
  }
  mldsa_shake_absorb(&sponge, in, inlen);
  mldsa_shake_finalize(&sponge);
  mldsa_shake_squeeze(&sponge, out, outlen);
  mldsa_zeroize(&sponge, sizeof sponge);
}

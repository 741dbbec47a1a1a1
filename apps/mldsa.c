/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* mldsa: the command-line tool.
 *   mldsa keygen --param 44|65|87 --pk FILE --sk FILE [--seed HEX64]
 *   mldsa sign   --param P --sk FILE --in FILE --sig FILE [--context TEXT] [--deterministic]
 *   mldsa verify --param P --pk FILE --in FILE --sig FILE [--context TEXT]
 *   mldsa isa    (prints the arithmetic backend in use)
 * Exit status 0 only on success; otherwise one line on stderr saying why. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mldsa.h"

typedef struct {
  const char *cmd, *pk, *sk, *in, *sig, *seed, *context;
  int param, deterministic;
} options;

static int fail(const char *fmt, const char *arg) {
  fprintf(stderr, "mldsa: ");
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  return 1;
}

static int usage(void) {
  fprintf(stderr,
          "usage: mldsa keygen --param 44|65|87 --pk FILE --sk FILE [--seed HEX64]\n"
          "       mldsa sign   --param P --sk FILE --in FILE --sig FILE [--context TEXT]"
          " [--deterministic]\n"
          "       mldsa verify --param P --pk FILE --in FILE --sig FILE [--context TEXT]\n"
          "       mldsa isa\n");
  return 2;
}

/* Read a whole file; NULL (with a message printed) on failure. */
static uint8_t *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    fail("cannot read %s", path);
    return NULL;
  }
  size_t cap = 4096, n = 0;
  uint8_t *buf = malloc(cap);
  while (buf != NULL) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    uint8_t *bigger = realloc(buf, cap *= 2);
    if (bigger == NULL) free(buf);
    buf = bigger;
  }
  int err = ferror(f);
  fclose(f);
  if (buf == NULL || err) {
    free(buf);
    fail("cannot read %s", path);
    return NULL;
  }
  *len = n;
  return buf;
}

static int write_file(const char *path, const uint8_t *buf, size_t len) {
  FILE *f = fopen(path, "wb");
  if (f == NULL) return fail("cannot write %s", path);
  int ok = fwrite(buf, 1, len, f) == len;
  ok &= fclose(f) == 0;
  return ok ? 0 : fail("cannot write %s", path);
}

static int parse_hex32(uint8_t out[32], const char *hex) {
  if (strlen(hex) != 64) return -1;
  for (int i = 0; i < 32; ++i) {
    unsigned v;
    if (sscanf(hex + 2 * i, "%2x", &v) != 1) return -1;
    out[i] = (uint8_t)v;
  }
  return 0;
}

static int parse_args(options *o, int argc, char **argv) {
  memset(o, 0, sizeof *o);
  if (argc < 2) return -1;
  o->cmd = argv[1];
  for (int i = 2; i < argc; ++i) {
    const char *a = argv[i];
    const char **slot = NULL;
    if (strcmp(a, "--deterministic") == 0) {
      o->deterministic = 1;
      continue;
    }
    if (i + 1 >= argc) return -1;
    if (strcmp(a, "--param") == 0) {
      o->param = atoi(argv[++i]);
      continue;
    }
    if (strcmp(a, "--pk") == 0) slot = &o->pk;
    else if (strcmp(a, "--sk") == 0) slot = &o->sk;
    else if (strcmp(a, "--in") == 0) slot = &o->in;
    else if (strcmp(a, "--sig") == 0) slot = &o->sig;
    else if (strcmp(a, "--seed") == 0) slot = &o->seed;
    else if (strcmp(a, "--context") == 0) slot = &o->context;
    else return -1;
    *slot = argv[++i];
  }
  return 0;
}

static int cmd_keygen(const options *o) {
  mldsa_param p = (mldsa_param)o->param;
  size_t pk_len = mldsa_public_key_bytes(p), sk_len = mldsa_secret_key_bytes(p);
  if (o->pk == NULL || o->sk == NULL) return usage();
  uint8_t *pk = malloc(pk_len + 1), *sk = malloc(sk_len + 1);
  int ret;
  if (pk == NULL || sk == NULL) {
    ret = MLDSA_ERR_NULL;
  } else if (o->seed != NULL) {
    uint8_t seed[32];
    if (parse_hex32(seed, o->seed) != 0) {
      free(pk);
      free(sk);
      return fail("--seed wants 64 hex digits, got %s", o->seed);
    }
    ret = mldsa_keygen_from_seed(p, pk, pk_len, sk, sk_len, seed);
  } else {
    ret = mldsa_keygen(p, pk, pk_len, sk, sk_len);
  }
  int status = ret != MLDSA_OK ? fail("keygen: %s", mldsa_strerror(ret))
                               : write_file(o->pk, pk, pk_len) || write_file(o->sk, sk, sk_len);
  if (sk != NULL) memset(sk, 0, sk_len);
  free(pk);
  free(sk);
  return status;
}

static int cmd_sign(const options *o) {
  mldsa_param p = (mldsa_param)o->param;
  if (o->sk == NULL || o->in == NULL || o->sig == NULL) return usage();
  size_t sk_len, msg_len, sig_len = mldsa_signature_bytes(p);
  const char *ctx = o->context ? o->context : "";
  uint8_t *sk = read_file(o->sk, &sk_len);
  uint8_t *msg = sk ? read_file(o->in, &msg_len) : NULL;
  uint8_t *sig = malloc(sig_len + 1);
  static const uint8_t zero_rnd[32];
  int status = 1;
  if (sk != NULL && msg != NULL && sig != NULL) {
    int ret = mldsa_sign(p, sig, sig_len, msg, msg_len, (const uint8_t *)ctx, strlen(ctx),
                         o->deterministic ? zero_rnd : NULL, sk, sk_len);
    status = ret != MLDSA_OK ? fail("sign: %s", mldsa_strerror(ret))
                             : write_file(o->sig, sig, sig_len);
  }
  if (sk != NULL) memset(sk, 0, sk_len);
  free(sk);
  free(msg);
  free(sig);
  return status;
}

static int cmd_verify(const options *o) {
  mldsa_param p = (mldsa_param)o->param;
  if (o->pk == NULL || o->in == NULL || o->sig == NULL) return usage();
  size_t pk_len, msg_len, sig_len;
  const char *ctx = o->context ? o->context : "";
  uint8_t *pk = read_file(o->pk, &pk_len);
  uint8_t *msg = pk ? read_file(o->in, &msg_len) : NULL;
  uint8_t *sig = msg ? read_file(o->sig, &sig_len) : NULL;
  int status = 1;
  if (sig != NULL) {
    int ret = mldsa_verify(p, sig, sig_len, msg, msg_len, (const uint8_t *)ctx, strlen(ctx),
                           pk, pk_len);
    if (ret == MLDSA_OK) {
      printf("signature OK\n");
      status = 0;
    } else {
      status = fail("verify: %s", mldsa_strerror(ret));
    }
  }
  free(pk);
  free(msg);
  free(sig);
  return status;
}

int main(int argc, char **argv) {
  options o;
  if (parse_args(&o, argc, argv) != 0) return usage();
  if (strcmp(o.cmd, "isa") == 0) {
    printf("%s\n", mldsa_isa());
    return 0;
  }
  if (o.param != 44 && o.param != 65 && o.param != 87)
    return fail("--param must be 44, 65 or 87%s", "");
  if (strcmp(o.cmd, "keygen") == 0) return cmd_keygen(&o);
  if (strcmp(o.cmd, "sign") == 0) return cmd_sign(&o);
  if (strcmp(o.cmd, "verify") == 0) return cmd_verify(&o);
  return usage();
}

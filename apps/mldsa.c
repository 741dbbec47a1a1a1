/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* mldsa: the command-line tool. Commands, options and help; the work is in cli_io.c (files
 * without stdio, wiped buffers), cli_keys.c (key files), cli_message.c (messages, streamed
 * through mu), cli_batch.c (verify --batch) and cli_os.c (what POSIX and Windows do
 * differently).
 *
 * Exit status: 0 success, 1 the signature does not verify, 2 anything else (with one line
 * on stderr naming the file or option and what was expected and found). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_crypto.h"
#include "cli_os.h"


typedef struct {
  const char *param, *out, *pubout, *form, *format, *seed_file, *in, *key, *pub, *sig, *context,
      *context_hex, *batch, *prehash, *passin, *passout;
  const char *deterministic, *force, *quiet, *mu; /* flags: non-NULL when given */
  int help; /* a bare -h or --help in option position */
} options;

typedef struct {
  const char *name, *short_name; /* short_name: NULL, or the one-letter form */
  size_t offset;                 /* in options */
  int takes_value;
} option_spec;

#define OPT(name, short_name, field, v) \
  { name, short_name, offsetof(options, field), v }
static const option_spec all_options[] = {
    OPT("--param", NULL, param, 1),
    OPT("--out", "-o", out, 1),
    OPT("--pubout", NULL, pubout, 1),
    OPT("--form", NULL, form, 1),
    OPT("--format", NULL, format, 1),
    OPT("--seed-file", NULL, seed_file, 1),
    OPT("--in", "-i", in, 1),
    OPT("--key", "-k", key, 1),
    OPT("--pub", "-p", pub, 1),
    OPT("--sig", "-s", sig, 1),
    OPT("--context", "-c", context, 1),
    OPT("--context-hex", NULL, context_hex, 1),
    OPT("--batch", NULL, batch, 1),
    OPT("--prehash", NULL, prehash, 1),
    OPT("--passin", NULL, passin, 1),
    OPT("--passout", NULL, passout, 1),
    OPT("--deterministic", "-d", deterministic, 0),
    OPT("--force", "-f", force, 0),
    OPT("--quiet", "-q", quiet, 0),
    OPT("--mu", NULL, mu, 0),
};

typedef struct {
  const char *name;
  int (*run)(const options *o);
  const char *allowed; /* the options it takes, space-separated */
  const char *help;
} command;

static const char exit_codes[] =
    "Exit status: 0 success; 1 the signature does not verify (verify only); 2 any other\n"
    "error (bad option, unreadable or malformed file, wrong key), with one line on stderr.\n";

/* ---- small parsers ---- */

static int parse_param(const char *s, mldsa_param *p) {
  *p = (mldsa_param)0;
  if (s == NULL) return CLI_OK;
  if (strncmp(s, "ML-DSA-", 7) == 0) s += 7;
  if (strcmp(s, "44") == 0)
    *p = MLDSA_44;
  else if (strcmp(s, "65") == 0)
    *p = MLDSA_65;
  else if (strcmp(s, "87") == 0)
    *p = MLDSA_87;
  else
    return cli_error("--param: \"%s\", expected 44, 65 or 87", s);
  return CLI_OK;
}

static int parse_format(const char *s, cli_format *f) {
  *f = CLI_FORMAT_PEM;
  if (s == NULL || strcmp(s, "pem") == 0) return CLI_OK;
  if (strcmp(s, "der") == 0)
    *f = CLI_FORMAT_DER;
  else if (strcmp(s, "raw") == 0)
    *f = CLI_FORMAT_RAW;
  else
    return cli_error("--format: \"%s\", expected pem, der or raw", s);
  return CLI_OK;
}

static int parse_form(const char *s, mldsa_sk_form *form) {
  *form = MLDSA_SK_SEED;
  if (s == NULL || strcmp(s, "seed") == 0) return CLI_OK;
  if (strcmp(s, "expanded") == 0)
    *form = MLDSA_SK_EXPANDED;
  else if (strcmp(s, "both") == 0)
    *form = MLDSA_SK_BOTH;
  else
    return cli_error("--form: \"%s\", expected seed, expanded or both", s);
  return CLI_OK;
}

/* The context from --context TEXT or --context-hex HEX (at most 255 bytes). */
static int parse_context(const options *o, uint8_t ctx[255], size_t *ctx_len) {
  *ctx_len = 0;
  if (o->context && o->context_hex)
    return cli_error("--context and --context-hex: give one of them, not both");
  if (o->context) {
    size_t n = strlen(o->context);
    if (n > 255) return cli_error("--context: %zu bytes, at most 255 allowed", n);
    memcpy(ctx, o->context, n);
    *ctx_len = n;
  } else if (o->context_hex) {
    long n = cli_parse_hex(o->context_hex, strlen(o->context_hex), ctx, 255, "--context-hex");
    if (n < 0) return CLI_ERROR;
    *ctx_len = (size_t)n;
  }
  return CLI_OK;
}

static int two_stdins(const char *a, const char *an, const char *b, const char *bn) {
  if (a && b && strcmp(a, "-") == 0 && strcmp(b, "-") == 0)
    return cli_error("%s and %s are both standard input; at most one can be", an, bn);
  return CLI_OK;
}

/* The seed of --seed-file: 32 raw bytes, or 64 hex digits and an optional line ending. */
static int read_seed_file(const char *path, uint8_t seed[32]) {
  cli_buf in;
  if (cli_read_all(path, 256, "--seed-file", &in) != CLI_OK) return CLI_ERROR;
  int ret = CLI_OK;
  size_t n = in.len;
  if (n == 32) {
    memcpy(seed, in.p, 32);
  } else {
    if (n >= 1 && in.p[n - 1] == '\n') --n;
    if (n >= 1 && in.p[n - 1] == '\r') --n;
    if (n != 64)
      ret = cli_error("--seed-file %s: %zu bytes, expected 32 raw bytes or 64 hex digits", path,
                      in.len);
    else if (cli_parse_hex((const char *)in.p, 64, seed, 32, "--seed-file") != 32)
      ret = CLI_ERROR;
  }
  cli_buf_free(&in);
  return ret;
}

/* ---- commands ---- */

/* The passphrase a private key is encrypted under (--passout), or none: pass NULL. */
static int passout(const options *o, char pass[CLI_PASS_MAX], size_t *len, const char **use) {
  *use = NULL;
  *len = 0;
  if (o->passout == NULL) return CLI_OK;
  if (cli_crypto_version() == NULL)
    return cli_error("--passout: this mldsa was built without OpenSSL's libcrypto, which "
                     "encrypts keys (PBES2); nothing written");
  if (cli_read_passphrase(o->passout, "--passout", "New passphrase: ", 1, pass, len) != CLI_OK)
    return CLI_ERROR;
  *use = pass;
  return CLI_OK;
}

static int cmd_keygen(const options *o) {
  mldsa_param p;
  cli_format f;
  mldsa_sk_form form;
  if (parse_param(o->param, &p) || parse_format(o->format, &f) || parse_form(o->form, &form))
    return CLI_ERROR;
  if (p == 0) p = MLDSA_65;
  const char *out = o->out ? o->out : "-";
  if (f == CLI_FORMAT_RAW && form == MLDSA_SK_BOTH)
    return cli_error("--format raw holds one form: use --form seed or --form expanded");
  if (f == CLI_FORMAT_RAW && o->passout)
    return cli_error("--passout: a raw key cannot be encrypted; use --format pem or der");
  if (o->pubout && strcmp(o->pubout, "-") == 0 && strcmp(out, "-") == 0)
    return cli_error("--out and --pubout are both standard output; at most one can be");
  const cli_file ins[] = {{o->seed_file, "--seed-file"}};
  const cli_file outs[] = {{out, "--out"}, {o->pubout, "--pubout"}};
  if (cli_distinct_files(ins, 1, outs, 2) != CLI_OK) return CLI_ERROR;
  cli_secret_key k = {.p = p, .has_seed = 1};
  cli_buf sk_file = {0};
  char pass[CLI_PASS_MAX];
  const char *use_pass;
  size_t pass_len;
  uint8_t pk[2592], pk_file[CLI_PUBLIC_KEY_FILE_MAX];
  size_t pk_file_len = 0;
  int ret = passout(o, pass, &pass_len, &use_pass);
  if (ret == CLI_OK && o->seed_file) ret = read_seed_file(o->seed_file, k.seed);
  if (ret == CLI_OK && !o->seed_file && mldsa_generate_seed(k.seed) != MLDSA_OK)
    ret = cli_error("keygen: the OS gave no randomness");
  if (ret == CLI_OK) {
    k.sk_len = mldsa_secret_key_bytes(p);
    k.sk = cli_secret_alloc(4896);
    if (k.sk == NULL) ret = CLI_ERROR;
  }
  if (ret == CLI_OK &&
      mldsa_keygen_from_seed(p, pk, mldsa_public_key_bytes(p), k.sk, k.sk_len, k.seed) != MLDSA_OK)
    ret = cli_error("keygen: key generation failed");
  if (ret == CLI_OK) ret = cli_encode_secret_key_as(&k, f, form, use_pass, pass_len, &sk_file);
  if (ret == CLI_OK && o->pubout)
    ret = cli_encode_public_key(p, pk, mldsa_public_key_bytes(p), f, pk_file, &pk_file_len);
  if (ret == CLI_OK) {
    /* both files or neither: written to temporary files, renamed when both are complete */
    const cli_output w[2] = {
        {.path = out,
         .what = "--out",
         .p = sk_file.p,
         .n = sk_file.len,
         .secret = 1,
         .force = o->force != NULL},
        {.path = o->pubout,
         .what = "--pubout",
         .p = pk_file,
         .n = pk_file_len,
         .force = o->force != NULL},
    };
    ret = cli_write_outputs(w, o->pubout ? 2 : 1);
  }
  mldsa_wipe(pass, sizeof pass);
  cli_buf_free(&sk_file);
  cli_secret_free(k.sk, 4896);
  mldsa_wipe(&k, sizeof k);
  return ret;
}

static int cmd_pubkey(const options *o) {
  mldsa_param want, p;
  cli_format f;
  if (parse_param(o->param, &want) || parse_format(o->format, &f)) return CLI_ERROR;
  if (o->in == NULL) return cli_error("pubkey: --in KEY is required");
  const char *out = o->out ? o->out : "-";
  const cli_file ins[] = {{o->in, "--in"}}, outs[] = {{out, "--out"}};
  if (cli_distinct_files(ins, 1, outs, 1) != CLI_OK) return CLI_ERROR;
  uint8_t pk[2592];
  size_t pk_len;
  if (cli_load_public_key(o->in, "--in", want, &p, pk, &pk_len) != CLI_OK) return CLI_ERROR;
  return cli_save_public_key(out, "--out", p, pk, pk_len, f, o->force != NULL);
}

/* What sign and verify apply to the message: the message itself (pure ML-DSA, streamed
 * through mu), its digest under --prehash (HashML-DSA), or, with --mu, the 64-byte mu
 * that --in holds (external mu, computed by the caller: FIPS 204 Alg. 7 line 6). */
typedef struct {
  int hashed, external_mu;
  mldsa_hash h;
  uint8_t value[64]; /* the digest or mu */
  size_t len;
} message_input;

static int read_message_input(const options *o, const char *in, message_input *m) {
  memset(m, 0, sizeof *m);
  if (o->mu && o->prehash)
    return cli_error("--mu and --prehash: give one of them (mu already covers the message)");
  if (o->mu && (o->context || o->context_hex))
    return cli_error("--mu: no --context (the context is part of mu)");
  if (o->prehash) {
    m->hashed = 1;
    if (cli_prehash_by_name(o->prehash, &m->h) != CLI_OK) return CLI_ERROR;
    return cli_digest_file(m->h, in, "--in", m->value, &m->len);
  }
  if (o->mu) {
    cli_buf b;
    m->external_mu = 1;
    if (cli_read_all(in, 64, "--in", &b) != CLI_OK) return CLI_ERROR;
    int ret = b.len == 64 ? CLI_OK
                          : cli_error("--in %s: %zu bytes, expected the 64 bytes of mu (--mu)",
                                      strcmp(in, "-") ? in : "(standard input)", b.len);
    if (ret == CLI_OK) memcpy(m->value, b.p, 64);
    m->len = 64;
    cli_buf_free(&b);
    return ret;
  }
  return CLI_OK;
}

/* FILE.sig for --in FILE; standard output for standard input. (heap or a literal) */
static char *default_sig_name(const char *in) {
  if (strcmp(in, "-") == 0) return NULL;
  size_t n = strlen(in);
  char *name = malloc(n + 5); /* a file name: not secret */
  if (name == NULL) return NULL;
  memcpy(name, in, n);
  memcpy(name + n, ".sig", 5);
  return name;
}

static int cmd_sign(const options *o) {
  mldsa_param want;
  uint8_t ctx[255], sig[4627];
  size_t ctx_len;
  if (parse_param(o->param, &want) || parse_context(o, ctx, &ctx_len)) return CLI_ERROR;
  if (o->key == NULL) return cli_error("sign: --key KEY is required");
  const char *in = o->in ? o->in : "-";
  if (two_stdins(o->key, "--key", in, "--in")) return CLI_ERROR;
  char *named = o->out ? NULL : default_sig_name(in);
  if (!o->out && strcmp(in, "-") != 0 && named == NULL) return cli_error("out of memory");
  const char *out = o->out ? o->out : named ? named : "-";
  const cli_file ins[] = {{o->key, "--key"}, {in, "--in"}}, outs[] = {{out, "--out"}};
  int ret = cli_distinct_files(ins, 2, outs, 1);
  if (ret == CLI_OK && strcmp(out, "-") == 0 && cli_os_is_terminal(STDOUT_FILENO))
    ret = cli_error("--out: standard output is a terminal; a signature is binary and is never "
                    "written to a terminal (use --out FILE)");
  message_input m;
  cli_secret_key k;
  if (ret == CLI_OK) ret = read_message_input(o, in, &m);
  if (ret == CLI_OK) ret = cli_load_secret_key(o->key, "--key", want, &k);
  if (ret != CLI_OK) {
    free(named);
    return CLI_ERROR;
  }
  static const uint8_t zero_rnd[32];
  const uint8_t *rnd = o->deterministic ? zero_rnd : NULL;
  size_t sig_len = mldsa_signature_bytes(k.p);
  if (m.hashed) {
    int rc = mldsa_sign_prehash(k.p, sig, sig_len, m.value, m.len, m.h, ctx, ctx_len, rnd, k.sk,
                                k.sk_len);
    if (rc != MLDSA_OK) ret = cli_error("sign --prehash %s: %s", o->prehash, mldsa_strerror(rc));
  } else if (m.external_mu) {
    int rc = mldsa_sign_mu(k.p, sig, sig_len, m.value, rnd, k.sk, k.sk_len);
    if (rc != MLDSA_OK) ret = cli_error("sign --mu: %s", mldsa_strerror(rc));
  } else {
    ret = cli_sign_file(&k, in, ctx, ctx_len, rnd, sig, sig_len);
  }
  cli_secret_key_free(&k);
  if (ret == CLI_OK) ret = cli_write_file(out, "--out", sig, sig_len, 0, o->force != NULL);
  free(named);
  return ret;
}

static int verify_single(const options *o, mldsa_param p, const uint8_t *pk, size_t pk_len,
                         const char *in, const char *sig_path, const uint8_t *ctx,
                         size_t ctx_len) {
  message_input m;
  cli_buf sig;
  if (read_message_input(o, in, &m) != CLI_OK) return CLI_ERROR;
  if (cli_read_all(sig_path, 8192, "--sig", &sig) != CLI_OK) return CLI_ERROR;
  int ret;
  if (sig.len != mldsa_signature_bytes(p)) {
    ret = cli_error("--sig %s: %zu bytes, expected %zu for an ML-DSA-%d signature", sig_path,
                    sig.len, mldsa_signature_bytes(p), p);
  } else if (m.hashed || m.external_mu) {
    int rc = m.hashed ? mldsa_verify_prehash(p, sig.p, sig.len, m.value, m.len, m.h, ctx, ctx_len,
                                             pk, pk_len)
                      : mldsa_verify_mu(p, sig.p, sig.len, m.value, pk, pk_len);
    ret = rc == MLDSA_OK           ? CLI_OK
          : rc == MLDSA_ERR_VERIFY ? CLI_BAD_SIGNATURE
                                   : cli_error("verify: %s", mldsa_strerror(rc));
  } else {
    ret = cli_verify_file(p, pk, pk_len, in, ctx, ctx_len, sig.p, sig.len);
  }
  cli_buf_free(&sig);
  return ret;
}

static int cmd_verify(const options *o) {
  mldsa_param want, p;
  uint8_t ctx[255], pk[2592];
  size_t ctx_len, pk_len;
  if (parse_param(o->param, &want) || parse_context(o, ctx, &ctx_len)) return CLI_ERROR;
  if (o->batch) {
    if (o->in || o->sig)
      return cli_error("verify: --batch LIST and %s exclude each other (the list names the files)",
                       o->in ? "--in" : "--sig");
    if (o->prehash || o->mu)
      return cli_error("verify: --batch verifies messages (pure ML-DSA), not with %s",
                       o->mu ? "--mu" : "--prehash");
    if (o->pub == NULL) return cli_error("verify: --pub KEY is required");
    if (two_stdins(o->pub, "--pub", o->batch, "--batch")) return CLI_ERROR;
    if (cli_load_public_key(o->pub, "--pub", want, &p, pk, &pk_len) != CLI_OK) return CLI_ERROR;
    return cli_verify_batch(p, pk, pk_len, o->batch, ctx, ctx_len);
  }
  const char *in = o->in ? o->in : "-";
  char *named = o->sig ? NULL : default_sig_name(in);
  const char *sig_path = o->sig ? o->sig : named;
  if (o->pub == NULL || sig_path == NULL) {
    free(named);
    return cli_error("verify: --pub KEY and --sig SIG (or --in FILE, whose signature is "
                     "FILE.sig; or --batch LIST) are required");
  }
  int ret = CLI_OK;
  if (two_stdins(o->pub, "--pub", in, "--in") || two_stdins(sig_path, "--sig", in, "--in") ||
      two_stdins(o->pub, "--pub", sig_path, "--sig") ||
      cli_load_public_key(o->pub, "--pub", want, &p, pk, &pk_len) != CLI_OK)
    ret = CLI_ERROR;
  if (ret == CLI_OK) ret = verify_single(o, p, pk, pk_len, in, sig_path, ctx, ctx_len);
  free(named);
  if (ret == CLI_OK && !cli_quiet) {
    static const char ok[] = "signature OK\n";
    if (write(STDOUT_FILENO, ok, sizeof ok - 1) != (ssize_t)(sizeof ok - 1))
      ret = cli_error(
          "verify: the signature verifies, but \"signature OK\" cannot be written "
          "to standard output: %s",
          strerror(errno));
  } else if (ret == CLI_BAD_SIGNATURE) {
    cli_error("verify: the signature does not verify (ML-DSA-%d, %zu-byte context%s)", p, ctx_len,
              o->prehash ? ", HashML-DSA" : o->mu ? ", external mu" : "");
  }
  return ret;
}

/* After printing to stdout with stdio: CLI_OK, or an error naming standard output. */
static int flush_stdout(void) {
  if (fflush(stdout) != 0 || ferror(stdout))
    return cli_error("cannot write to standard output: %s", strerror(errno));
  return CLI_OK;
}

static int cmd_isa(const options *o) {
  (void)o;
  printf("%s\n", mldsa_isa());
  return flush_stdout();
}

static const char *form_name(mldsa_sk_form f) {
  return f == MLDSA_SK_SEED ? "seed" : f == MLDSA_SK_EXPANDED ? "expanded" : "both";
}
static const char *format_name(cli_format f) {
  return f == CLI_FORMAT_PEM ? "PEM" : f == CLI_FORMAT_DER ? "DER" : "raw";
}

/* The SHA-256 of the key's DER SubjectPublicKeyInfo (what RFC 7469 pins and
 * `openssl pkey -pubin -outform DER | sha256sum` print), in hex; "" without libcrypto. */
static int fingerprint(mldsa_param p, const uint8_t *pk, size_t pk_len, char hex[65]) {
  uint8_t spki[CLI_PUBLIC_KEY_FILE_MAX], h[32];
  size_t n;
  hex[0] = 0;
  if (cli_crypto_version() == NULL) return CLI_OK;
  if (cli_encode_public_key(p, pk, pk_len, CLI_FORMAT_DER, spki, &n) != CLI_OK ||
      cli_sha256(spki, n, h) != CLI_OK)
    return CLI_ERROR;
  for (int i = 0; i < 32; ++i) snprintf(hex + 2 * i, 3, "%02x", h[i]);
  return CLI_OK;
}

static int cmd_info(const options *o) {
  mldsa_param want, p;
  if (parse_param(o->param, &want)) return CLI_ERROR;
  if (o->in == NULL) return cli_error("info: --in KEY is required");
  cli_buf in;
  if (cli_read_all(o->in, 65536, "--in", &in) != CLI_OK) return CLI_ERROR;
  int is_private = cli_holds_private_key(in.p, in.len) || cli_is_encrypted_pkcs8(in.p, in.len);
  cli_buf_free(&in);
  if (strcmp(o->in, "-") == 0 && is_private)
    return cli_error("info: --in -: give a private key as a file (it is read twice)");
  uint8_t pk[2592];
  size_t pk_len;
  cli_secret_key k = {0};
  if (is_private) {
    if (cli_load_secret_key(o->in, "--in", want, &k) != CLI_OK) return CLI_ERROR;
    p = k.p;
    pk_len = mldsa_public_key_bytes(p);
    int rc = mldsa_public_key_from_secret(p, pk, pk_len, k.sk, k.sk_len);
    if (rc != MLDSA_OK) {
      cli_secret_key_free(&k);
      return cli_error("--in %s: %s", o->in, mldsa_strerror(rc));
    }
  } else if (cli_load_public_key(o->in, "--in", want, &p, pk, &pk_len) != CLI_OK) {
    return CLI_ERROR;
  }
  char hex[65];
  int ret = fingerprint(p, pk, pk_len, hex);
  printf("file: %s\n", o->in);
  printf("set: ML-DSA-%d\n", p);
  if (is_private) {
    printf("type: private key\nform: %s\nencoding: %s%s\n", form_name(k.form),
           format_name(k.format), k.encrypted ? ", encrypted (PBES2)" : "");
  } else {
    printf("type: public key\nform: public\n");
  }
  if (hex[0])
    printf("fingerprint: SHA-256 of the DER SubjectPublicKeyInfo: %s\n", hex);
  else
    printf("fingerprint: none (built without libcrypto, which computes SHA-256)\n");
  printf("isa: %s\n", mldsa_isa());
  printf("libcrypto: %s\n", cli_crypto_version() ? cli_crypto_version() : "none");
  cli_secret_key_free(&k);
  int fr = flush_stdout();
  return ret != CLI_OK ? ret : fr;
}

static int cmd_convert(const options *o) {
  mldsa_param want;
  if (parse_param(o->param, &want)) return CLI_ERROR;
  if (o->in == NULL) return cli_error("convert: --in KEY is required");
  if (o->out == NULL) return cli_error("convert: --out FILE is required (- for standard output)");
  const cli_file ins[] = {{o->in, "--in"}}, outs[] = {{o->out, "--out"}};
  if (cli_distinct_files(ins, 1, outs, 1) != CLI_OK) return CLI_ERROR;
  cli_secret_key k;
  if (cli_load_secret_key(o->in, "--in", want, &k) != CLI_OK) return CLI_ERROR;
  /* defaults: the key's own format and form (an expanded key stays expanded) */
  cli_format f = k.format;
  mldsa_sk_form form = k.form;
  int ret = CLI_OK;
  if (o->format && parse_format(o->format, &f) != CLI_OK) ret = CLI_ERROR;
  if (ret == CLI_OK && o->form && parse_form(o->form, &form) != CLI_OK) ret = CLI_ERROR;
  if (ret == CLI_OK && f == CLI_FORMAT_RAW && form == MLDSA_SK_BOTH)
    ret = cli_error("--format raw holds one form: add --form seed or --form expanded");
  if (ret == CLI_OK && form != MLDSA_SK_EXPANDED && !k.has_seed)
    ret = cli_error("convert: %s holds the expanded key only; the seed cannot be recovered "
                    "from it, so --form %s is impossible (use --form expanded)",
                    o->in, form_name(form));
  char pass[CLI_PASS_MAX];
  size_t pass_len = 0;
  const char *use_pass = NULL;
  cli_buf enc = {0};
  if (ret == CLI_OK && f == CLI_FORMAT_RAW && o->passout)
    ret = cli_error("--passout: a raw key cannot be encrypted; use --format pem or der");
  if (ret == CLI_OK) ret = passout(o, pass, &pass_len, &use_pass);
  if (ret == CLI_OK) ret = cli_encode_secret_key_as(&k, f, form, use_pass, pass_len, &enc);
  if (ret == CLI_OK)
    ret = cli_write_file(o->out, "--out", enc.p, enc.len, 1, o->force != NULL);
  mldsa_wipe(pass, sizeof pass);
  cli_buf_free(&enc);
  cli_secret_key_free(&k);
  return ret;
}

static const command commands[] = {
    {"keygen", cmd_keygen,
     "--param --out --pubout --form --format --seed-file --force --passout --quiet",
     "usage: mldsa keygen [--param 44|65|87] [-o|--out FILE] [--pubout FILE]\n"
     "                    [--form seed|expanded|both] [--format pem|der|raw]\n"
     "                    [--seed-file FILE] [--passout SRC] [-f|--force] [-q|--quiet]\n"
     "Generates an ML-DSA key pair and writes the private key (PKCS#8, RFC 9881).\n"
     "  --param      parameter set (default 65)\n"
     "  -o, --out    private key file (default -, standard output, never a terminal);\n"
     "               created with mode 0600, an existing file is never replaced without\n"
     "               --force\n"
     "  --pubout     also write the public key (SubjectPublicKeyInfo) there; both files are\n"
     "               written or neither (temporary files, renamed when both are complete)\n"
     "  --form       what the private key holds: the 32-byte seed (default, as RFC 9881\n"
     "               recommends), the expanded key, or both (what OpenSSL 3.5 writes)\n"
     "  --format     pem (default), der, or raw (the bare seed or expanded key; raw public\n"
     "               key)\n"
     "  --seed-file  derive the key from this seed: 32 raw bytes or 64 hex digits (default:\n"
     "               fresh randomness from the OS); - reads it from standard input\n"
     "  --passout    encrypt the private key (ENCRYPTED PRIVATE KEY: PBES2, PBKDF2-HMAC-\n"
     "               SHA-256, AES-256-CBC, by libcrypto) under the passphrase from SRC:\n"
     "               fd:N, file:PATH or tty (asked twice, echo off)\n"
     "  -f, --force  replace existing outputs (regular files; a public key never replaces\n"
     "               a private key)\n"},
    {"pubkey", cmd_pubkey, "--param --in --out --format --force --passin --quiet",
     "usage: mldsa pubkey -i|--in KEY [-o|--out FILE] [--format pem|der|raw]\n"
     "                    [--param 44|65|87] [--passin SRC] [-f|--force]\n"
     "Writes the public key of KEY (a private or public key in any format).\n"
     "  -o, --out    output file (default -, standard output)\n"
     "  --format     pem (default), der, raw\n"
     "  --param      only a check: fail unless KEY is of this set\n"
     "  --passin     the passphrase of an encrypted KEY: fd:N, file:PATH or tty (default)\n"
     "  -f, --force  replace an existing output (never a file holding a private key)\n"},
    {"sign", cmd_sign,
     "--param --key --in --out --context --context-hex --deterministic --force --prehash --mu "
     "--passin --quiet",
     "usage: mldsa sign -k|--key KEY [-i|--in FILE] [-o|--out SIG]\n"
     "                  [-c|--context TEXT | --context-hex HEX] [--prehash HASH | --mu]\n"
     "                  [-d|--deterministic] [--param 44|65|87] [--passin SRC] [-f|--force]\n"
     "Signs FILE (ML-DSA, FIPS 204) and writes the raw signature.\n"
     "  -k, --key        private key: PEM or DER PKCS#8 (seed, expanded or both; encrypted\n"
     "                   too), or a raw expanded key; checked before anything is signed\n"
     "  -i, --in         message (default -, standard input)\n"
     "  -o, --out        signature file; default FILE.sig for --in FILE, standard output\n"
     "                   (never a terminal) for standard input; never replaces an existing\n"
     "                   file without --force, nor ever a private key\n"
     "  -c, --context    context string (0-255 bytes, default empty), or --context-hex\n"
     "  --prehash HASH   HashML-DSA: sign the HASH digest of FILE (computed by libcrypto):\n"
     "                   sha224 sha256 sha384 sha512 sha512-224 sha512-256 sha3-224\n"
     "                   sha3-256 sha3-384 sha3-512 shake128 shake256\n"
     "  --mu             FILE holds mu, the 64-byte message representative computed\n"
     "                   elsewhere (external mu); no --context\n"
     "  -d, --deterministic  deterministic signing (rnd = 0); default hedged\n"
     "  --param          only a check: fail unless KEY is of this set\n"
     "  --passin         the passphrase of an encrypted KEY: fd:N, file:PATH or tty\n"
     "Messages of any size are streamed (constant memory).\n"},
    {"verify", cmd_verify,
     "--param --pub --in --sig --context --context-hex --batch --prehash --mu --passin --quiet",
     "usage: mldsa verify -p|--pub KEY [-s|--sig SIG] [-i|--in FILE]\n"
     "                    [-c|--context TEXT | --context-hex HEX] [--prehash HASH | --mu]\n"
     "                    [--param 44|65|87] [-q|--quiet]\n"
     "       mldsa verify -p|--pub KEY --batch LIST [-c|--context TEXT | --context-hex HEX]\n"
     "                    [--param 44|65|87]\n"
     "Verifies the raw signature SIG of FILE; prints \"signature OK\" and exits 0, or exits 1.\n"
     "  -p, --pub   public key (PEM, DER or raw), an X.509 certificate (PEM or DER) whose\n"
     "              subject key is ML-DSA, or a private key\n"
     "  -s, --sig   signature (default FILE.sig for --in FILE)\n"
     "  -i, --in    message (default -, standard input)\n"
     "  -c, --context  context string, or --context-hex\n"
     "  --prehash   HashML-DSA with this hash (see mldsa sign --help); --mu: FILE holds mu\n"
     "  -q, --quiet no \"signature OK\" line (the exit status says it) and no warnings\n"
     "  --param     only a check: fail unless KEY is of this set\n"
     "  --batch     verify every pair listed in LIST under KEY (prepared once) and the one\n"
     "             context; not with --in or --sig. LIST is a text file of lines ending in\n"
     "             LF; empty lines and lines starting with # are skipped; every other line\n"
     "             is SIGNATURE-FILE MESSAGE-FILE: one space after the signature file (whose\n"
     "             name has no space), then the message file, the rest of the line (it may\n"
     "             hold spaces but neither begins nor ends with one). No control characters\n"
     "             (tab, CR), no \"-\"; names relative to the current directory. The whole\n"
     "             list is checked first: a malformed line is an error naming the list and\n"
     "             the line number (exit 2, nothing verified). Then one line per pair on\n"
     "             standard output, in the list's order:\n"
     "               OK MESSAGE-FILE\n"
     "               FAIL MESSAGE-FILE: the signature does not verify\n"
     "               ERROR MESSAGE-FILE: WHY      (unreadable file, wrong signature length)\n"
     "             Exit 0 when all verify; 1 when all were checked and some do not verify;\n"
     "             2 when any pair gives ERROR.\n"
     "Messages of any size are streamed (constant memory).\n"},
    {"info", cmd_info, "--in --param --passin --quiet",
     "usage: mldsa info -i|--in KEY [--param 44|65|87] [--passin SRC]\n"
     "Describes a key file: its set, type, form (seed, expanded, both, or public), encoding,\n"
     "the SHA-256 fingerprint of its DER SubjectPublicKeyInfo (libcrypto), and the\n"
     "arithmetic the library uses here (isa).\n"},
    {"convert", cmd_convert,
     "--in --out --format --form --param --passin --passout --force --quiet",
     "usage: mldsa convert -i|--in KEY -o|--out FILE [--format pem|der|raw]\n"
     "                     [--form seed|expanded|both] [--passin SRC] [--passout SRC]\n"
     "                     [-f|--force]\n"
     "Rewrites a private key: PEM, DER or raw; seed, expanded or both; encrypted or not.\n"
     "The defaults keep the key's format and form. A seed key can become any form; an\n"
     "expanded key stays expanded (its seed cannot be recovered: --form seed or both is an\n"
     "error). --passin decrypts KEY, --passout encrypts the output (see keygen).\n"
     "  -o, --out    created 0600; never replaces an existing file without --force\n"},
    {"isa", cmd_isa, "",
     "usage: mldsa isa\nPrints the arithmetic in use: scalar, sse2, avx2 or avx512.\n"},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void print_help(void) {
  printf(
      "usage: mldsa <command> [options]     ML-DSA (FIPS 204) signatures, libmldsa %s\n"
      "\n"
      "  keygen   generate a key pair (PKCS#8 / SubjectPublicKeyInfo, PEM by default)\n"
      "  pubkey   write the public key of a key file\n"
      "  sign     sign a file (ML-DSA, HashML-DSA, or external mu)\n"
      "  verify   verify a signature, or a batch of them under one key\n"
      "  info     describe a key file: set, form, fingerprint\n"
      "  convert  rewrite a private key in another format, form or encryption\n"
      "  isa      print the arithmetic in use\n"
      "\n"
      "mldsa <command> --help (or -h, where an option may stand; never an option's value)\n"
      "describes a command; mldsa --version prints the version.\n"
      "Key files are detected: PEM, DER (RFC 9881 formats, as OpenSSL 3.5 writes them) or\n"
      "raw by their exact length; the parameter set comes from the key (--param is then a\n"
      "check). A file name of - means standard input or output. An output is never the\n"
      "same file as an input or another output; files are written whole or not at all.\n"
      "\n%s",
      mldsa_version(), exit_codes);
}

static int allowed(const command *c, const char *name) {
  size_t n = strlen(name);
  for (const char *a = c->allowed; (a = strstr(a, name)) != NULL; a += n)
    if ((a == c->allowed || a[-1] == ' ') && (a[n] == ' ' || a[n] == 0)) return 1;
  return 0;
}

static int parse_options(const command *c, int argc, char **argv, options *o) {
  memset(o, 0, sizeof *o);
  for (int i = 0; i < argc; ++i) {
    const char *arg = argv[i], *value = NULL;
    /* help only in option position: an option's value (--in -h) is always its value */
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      o->help = 1;
      return CLI_OK;
    }
    char name[32];
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    const option_spec *spec = NULL;
    if (arg[0] == '-' && arg[1] != '-' && arg[1] != 0 && arg[2] == 0) { /* -k VALUE */
      for (size_t j = 0; j < sizeof all_options / sizeof all_options[0]; ++j)
        if (all_options[j].short_name && strcmp(all_options[j].short_name, arg) == 0)
          spec = &all_options[j];
      if (spec == NULL || !allowed(c, spec->name))
        return cli_error("%s: unknown option %s (see mldsa %s --help)", c->name, arg, c->name);
      eq = NULL;
    } else {
      if (strncmp(arg, "--", 2) != 0 || len >= sizeof name)
        return cli_error("%s: unexpected argument \"%s\" (see mldsa %s --help)", c->name, arg,
                         c->name);
      memcpy(name, arg, len);
      name[len] = 0;
      for (size_t j = 0; j < sizeof all_options / sizeof all_options[0]; ++j)
        if (strcmp(all_options[j].name, name) == 0) spec = &all_options[j];
      if (spec == NULL || !allowed(c, name))
        return cli_error("%s: unknown option %s (see mldsa %s --help)", c->name, name, c->name);
    }
    const char **slot = (const char **)((char *)o + spec->offset);
    if (*slot != NULL) return cli_error("%s: %s given twice", c->name, spec->name);
    if (spec->takes_value) {
      if (eq)
        value = eq + 1;
      else if (i + 1 < argc)
        value = argv[++i];
      else
        return cli_error("%s: %s needs a value", c->name, spec->name);
    } else {
      if (eq) return cli_error("%s: %s takes no value", c->name, spec->name);
      value = "";
    }
    *slot = value;
  }
  return CLI_OK;
}

static const command *find_command(const char *name) {
  for (size_t i = 0; i < N_COMMANDS; ++i)
    if (strcmp(name, commands[i].name) == 0) return &commands[i];
  return NULL;
}

static int command_help(const command *c) {
  printf("%s\n%s", c->help, exit_codes);
  return flush_stdout();
}

int main(int argc, char **argv) {
  /* A standard descriptor that is closed (mldsa ... >&-) is opened on the null device in
   * the direction that fails: every write to a closed standard output then fails and is
   * reported, and no file this run opens takes its number. A closed pipe is an error with
   * a message (EPIPE), not a silent death by SIGPIPE that would leave temporary files
   * behind. On Windows, standard input and output in binary mode. */
  cli_os_init();
  if (argc < 2) {
    print_help();
    flush_stdout();
    return CLI_ERROR;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    if (argc == 2) {
      print_help();
      return flush_stdout();
    }
    const command *c = find_command(argv[2]);
    if (argc == 3 && c != NULL) return command_help(c);
    return cli_error("%s: unexpected argument \"%s\" (mldsa %s [COMMAND])", cmd, argv[2], cmd);
  }
  if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
    if (argc > 2) return cli_error("%s: unexpected argument \"%s\"", cmd, argv[2]);
    const char *crypto = cli_crypto_version();
    printf("mldsa (libmldsa) %s\nlibcrypto: %s\n", mldsa_version(),
           crypto ? crypto : "none (no --prehash, encrypted keys or fingerprints)");
    return flush_stdout();
  }
  const command *c = find_command(cmd);
  if (c == NULL)
    return cli_error(
        "unknown command \"%s\" (commands: keygen, pubkey, sign, verify, info, convert, isa; "
        "see mldsa --help)",
        cmd);
  options o;
  if (parse_options(c, argc - 2, argv + 2, &o) != CLI_OK) return CLI_ERROR;
  if (o.help) return command_help(c);
  cli_quiet = o.quiet != NULL;
  cli_passin = o.passin;
  return c->run(&o);
}

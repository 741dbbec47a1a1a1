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
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_os.h"


typedef struct {
  const char *param, *out, *pubout, *form, *format, *seed_file, *in, *key, *pub, *sig, *context,
      *context_hex, *batch;
  const char *deterministic, *force; /* flags: non-NULL when given */
  int help;                          /* a bare -h or --help in option position */
} options;

typedef struct {
  const char *name;
  size_t offset; /* in options */
  int takes_value;
} option_spec;

#define OPT(name, field, v) \
  { name, offsetof(options, field), v }
static const option_spec all_options[] = {
    OPT("--param", param, 1),
    OPT("--out", out, 1),
    OPT("--pubout", pubout, 1),
    OPT("--form", form, 1),
    OPT("--format", format, 1),
    OPT("--seed-file", seed_file, 1),
    OPT("--in", in, 1),
    OPT("--key", key, 1),
    OPT("--pub", pub, 1),
    OPT("--sig", sig, 1),
    OPT("--context", context, 1),
    OPT("--context-hex", context_hex, 1),
    OPT("--batch", batch, 1),
    OPT("--deterministic", deterministic, 0),
    OPT("--force", force, 0),
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
  if (o->pubout && strcmp(o->pubout, "-") == 0 && strcmp(out, "-") == 0)
    return cli_error("--out and --pubout are both standard output; at most one can be");
  const cli_file ins[] = {{o->seed_file, "--seed-file"}};
  const cli_file outs[] = {{out, "--out"}, {o->pubout, "--pubout"}};
  if (cli_distinct_files(ins, 1, outs, 2) != CLI_OK) return CLI_ERROR;
  cli_secret_key k = {.p = p, .has_seed = 1};
  cli_buf sk_file = {0};
  uint8_t pk[2592], pk_file[CLI_PUBLIC_KEY_FILE_MAX];
  size_t pk_file_len = 0;
  int ret = o->seed_file ? read_seed_file(o->seed_file, k.seed) : CLI_OK;
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
  if (ret == CLI_OK) ret = cli_encode_secret_key(&k, f, form, &sk_file);
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
        {.path = o->pubout, .what = "--pubout", .p = pk_file, .n = pk_file_len},
    };
    ret = cli_write_outputs(w, o->pubout ? 2 : 1);
  }
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
  return cli_save_public_key(out, "--out", p, pk, pk_len, f);
}

static int cmd_sign(const options *o) {
  mldsa_param want;
  uint8_t ctx[255], sig[4627];
  size_t ctx_len;
  if (parse_param(o->param, &want) || parse_context(o, ctx, &ctx_len)) return CLI_ERROR;
  if (o->key == NULL) return cli_error("sign: --key KEY is required");
  const char *in = o->in ? o->in : "-";
  if (two_stdins(o->key, "--key", in, "--in")) return CLI_ERROR;
  const char *out = o->out ? o->out : "-";
  const cli_file ins[] = {{o->key, "--key"}, {in, "--in"}}, outs[] = {{out, "--out"}};
  if (cli_distinct_files(ins, 2, outs, 1) != CLI_OK) return CLI_ERROR;
  cli_secret_key k;
  if (cli_load_secret_key(o->key, "--key", want, &k) != CLI_OK) return CLI_ERROR;
  static const uint8_t zero_rnd[32];
  size_t sig_len = mldsa_signature_bytes(k.p);
  int ret = cli_sign_file(&k, in, ctx, ctx_len, o->deterministic ? zero_rnd : NULL, sig, sig_len);
  cli_secret_key_free(&k);
  if (ret == CLI_OK) ret = cli_write_file(out, "--out", sig, sig_len, 0, 0);
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
    if (o->pub == NULL) return cli_error("verify: --pub KEY is required");
    if (two_stdins(o->pub, "--pub", o->batch, "--batch")) return CLI_ERROR;
    if (cli_load_public_key(o->pub, "--pub", want, &p, pk, &pk_len) != CLI_OK) return CLI_ERROR;
    return cli_verify_batch(p, pk, pk_len, o->batch, ctx, ctx_len);
  }
  if (o->pub == NULL || o->sig == NULL)
    return cli_error("verify: --pub KEY and --sig SIG (or --batch LIST) are required");
  const char *in = o->in ? o->in : "-";
  if (two_stdins(o->pub, "--pub", in, "--in") || two_stdins(o->sig, "--sig", in, "--in") ||
      two_stdins(o->pub, "--pub", o->sig, "--sig"))
    return CLI_ERROR;
  if (cli_load_public_key(o->pub, "--pub", want, &p, pk, &pk_len) != CLI_OK) return CLI_ERROR;
  cli_buf sig;
  if (cli_read_all(o->sig, 8192, "--sig", &sig) != CLI_OK) return CLI_ERROR;
  int ret;
  if (sig.len != mldsa_signature_bytes(p))
    ret = cli_error("--sig %s: %zu bytes, expected %zu for an ML-DSA-%d signature", o->sig, sig.len,
                    mldsa_signature_bytes(p), p);
  else
    ret = cli_verify_file(p, pk, pk_len, in, ctx, ctx_len, sig.p, sig.len);
  cli_buf_free(&sig);
  if (ret == CLI_OK) {
    static const char ok[] = "signature OK\n";
    if (write(STDOUT_FILENO, ok, sizeof ok - 1) != (ssize_t)(sizeof ok - 1))
      ret = cli_error(
          "verify: the signature verifies, but \"signature OK\" cannot be written "
          "to standard output: %s",
          strerror(errno));
  } else if (ret == CLI_BAD_SIGNATURE) {
    cli_error("verify: the signature does not verify (ML-DSA-%d, %zu-byte context)", p, ctx_len);
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

static const command commands[] = {
    {"keygen", cmd_keygen, "--param --out --pubout --form --format --seed-file --force",
     "usage: mldsa keygen [--param 44|65|87] [--out FILE] [--pubout FILE]\n"
     "                    [--form seed|expanded|both] [--format pem|der|raw]\n"
     "                    [--seed-file FILE] [--force]\n"
     "Generates an ML-DSA key pair and writes the private key (PKCS#8, RFC 9881).\n"
     "  --param      parameter set (default 65)\n"
     "  --out        private key file (default -, standard output, never a terminal);\n"
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
     "  --force      replace an existing --out (a regular file only)\n"},
    {"pubkey", cmd_pubkey, "--param --in --out --format",
     "usage: mldsa pubkey --in KEY [--out FILE] [--format pem|der|raw] [--param 44|65|87]\n"
     "Writes the public key of KEY (a private or public key in any format).\n"
     "  --out     output file (default -, standard output)\n"
     "  --format  pem (default), der, raw\n"
     "  --param   only a check: fail unless KEY is of this set\n"},
    {"sign", cmd_sign, "--param --key --in --out --context --context-hex --deterministic",
     "usage: mldsa sign --key KEY [--in FILE] [--out SIG] [--context TEXT | --context-hex HEX]\n"
     "                  [--deterministic] [--param 44|65|87]\n"
     "Signs FILE (ML-DSA, FIPS 204 pure mode) and writes the raw signature.\n"
     "  --key            private key: PEM or DER PKCS#8 (seed, expanded or both), or a raw\n"
     "                   expanded key; checked before anything is signed\n"
     "  --in, --out      message and signature files (default -: standard input/output)\n"
     "  --context        context string (0-255 bytes, default empty), or --context-hex\n"
     "  --deterministic  deterministic signing (rnd = 0); default hedged (fresh randomness)\n"
     "  --param          only a check: fail unless KEY is of this set\n"
     "Messages of any size are streamed (constant memory).\n"},
    {"verify", cmd_verify, "--param --pub --in --sig --context --context-hex --batch",
     "usage: mldsa verify --pub KEY --sig SIG [--in FILE] [--context TEXT | --context-hex HEX]\n"
     "                    [--param 44|65|87]\n"
     "       mldsa verify --pub KEY --batch LIST [--context TEXT | --context-hex HEX]\n"
     "                    [--param 44|65|87]\n"
     "Verifies the raw signature SIG of FILE; prints \"signature OK\" and exits 0, or exits 1.\n"
     "  --pub      public key (PEM, DER or raw; a private key is accepted too)\n"
     "  --in       message (default -, standard input)\n"
     "  --context  context string, or --context-hex\n"
     "  --param    only a check: fail unless KEY is of this set\n"
     "  --batch    verify every pair listed in LIST under KEY (prepared once) and the one\n"
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
      "  sign     sign a file\n"
      "  verify   verify a signature, or a batch of them under one key\n"
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
    if (strncmp(arg, "--", 2) != 0 || len >= sizeof name)
      return cli_error("%s: unexpected argument \"%s\" (see mldsa %s --help)", c->name, arg,
                       c->name);
    memcpy(name, arg, len);
    name[len] = 0;
    const option_spec *spec = NULL;
    for (size_t j = 0; j < sizeof all_options / sizeof all_options[0]; ++j)
      if (strcmp(all_options[j].name, name) == 0) spec = &all_options[j];
    if (spec == NULL || !allowed(c, name))
      return cli_error("%s: unknown option %s (see mldsa %s --help)", c->name, name, c->name);
    const char **slot = (const char **)((char *)o + spec->offset);
    if (*slot != NULL) return cli_error("%s: %s given twice", c->name, name);
    if (spec->takes_value) {
      if (eq)
        value = eq + 1;
      else if (i + 1 < argc)
        value = argv[++i];
      else
        return cli_error("%s: %s needs a value", c->name, name);
    } else {
      if (eq) return cli_error("%s: %s takes no value", c->name, name);
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
    printf("mldsa (libmldsa) %s\n", mldsa_version());
    return flush_stdout();
  }
  const command *c = find_command(cmd);
  if (c == NULL)
    return cli_error(
        "unknown command \"%s\" (commands: keygen, pubkey, sign, verify, isa; "
        "see mldsa --help)",
        cmd);
  options o;
  if (parse_options(c, argc - 2, argv + 2, &o) != CLI_OK) return CLI_ERROR;
  if (o.help) return command_help(c);
  return c->run(&o);
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* A qemu TCG plugin counting the guest instructions a program executes, for
 * bench/aarch64/run.sh (no Arm machine here: instructions executed stand in for time).
 *
 *   qemu-aarch64 -plugin ./insn_count.so,out=FILE prog ...   total into FILE
 *   qemu-aarch64 -plugin ./insn_count.so prog ...            total on stderr
 *
 * When a block is translated we learn how many guest instructions it holds and ask
 * qemu to add that number to one counter each time the block runs (an inline add in
 * the generated code, no callback: the count costs next to nothing). A block left
 * early (a fault, a syscall in its middle) is counted whole; that constant overhead is
 * the same in a run with N operations and one with none, and cancels in the difference.
 * The counter is not atomic: the counted programs run one thread.
 *
 * Debian packages qemu's plugin loader but not its header (qemu-plugin.h), so the few
 * declarations used are written out here, as the plugin API version 1 of qemu 7.2
 * defines them: the loader refuses a plugin whose exported qemu_plugin_version it does
 * not support. */
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct qemu_info_t qemu_info_t; /* only passed through */

/* enum qemu_plugin_op: the inline operations; ADD_U64 is the only one (0) */
#define COUNT_INLINE_ADD_U64 0

typedef void (*tb_trans_cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*udata_cb)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, int op, void *ptr,
                                              uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb cb, void *userdata);

#define COUNT_EXPORT __attribute__((visibility("default")))

COUNT_EXPORT extern int qemu_plugin_version;
COUNT_EXPORT int qemu_plugin_version = 1;

COUNT_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                     char **argv);

static uint64_t executed;
static char out_path[4096];

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  qemu_plugin_register_vcpu_tb_exec_inline(tb, COUNT_INLINE_ADD_U64, &executed,
                                           qemu_plugin_tb_n_insns(tb));
}

static void on_exit_report(qemu_plugin_id_t id, void *userdata) {
  (void)id;
  (void)userdata;
  FILE *f = out_path[0] ? fopen(out_path, "w") : NULL;
  fprintf(f ? f : stderr, "insns %" PRIu64 "\n", executed);
  if (f) fclose(f);
}

int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv) {
  (void)info;
  for (int i = 0; i < argc; i++) {
    /* out=FILE (qemu 7.2 also passes the older "arg=out=FILE" form through as out=FILE) */
    if (strncmp(argv[i], "out=", 4) == 0 && strlen(argv[i] + 4) < sizeof out_path) {
      strcpy(out_path, argv[i] + 4);
    } else {
      fprintf(stderr, "insn_count: unknown argument %s (out=FILE)\n", argv[i]);
      return -1;
    }
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_atexit_cb(id, on_exit_report, NULL);
  return 0;
}

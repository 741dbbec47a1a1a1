/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Replays inputs through a fuzz target built as a plain program (no libFuzzer): every
 * file named on the command line, or found in a directory named there, is passed to
 * LLVMFuzzerTestOneInput once. A broken property aborts (the test fails). */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size); /* the target's */

static unsigned replayed;

static void replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    exit(EXIT_FAILURE);
  }
  size_t cap = 1 << 16, len = 0;
  uint8_t *buf = malloc(cap);
  size_t n;
  while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
    len += n;
    if (len == cap) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  if (buf == NULL) exit(EXIT_FAILURE);
  printf("replay: %s (%zu bytes)\n", path, len);
  fflush(stdout);
  LLVMFuzzerTestOneInput(buf, len);
  free(buf);
  ++replayed;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void replay_path(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "replay: no such file or directory: %s\n", path);
    exit(EXIT_FAILURE);
  }
  if (!S_ISDIR(st.st_mode)) {
    replay_file(path);
    return;
  }
  DIR *d = opendir(path);
  struct dirent *e;
  char **names = NULL;
  size_t count = 0;
  if (d == NULL) {
    fprintf(stderr, "replay: cannot read the directory %s: %s\n", path, strerror(errno));
    exit(EXIT_FAILURE);
  }
  /* readdir's end and its failure (EOVERFLOW: a 32-bit program without the large-file
   * interfaces) are told apart by errno */
  while ((errno = 0, e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    names = realloc(names, (count + 1) * sizeof *names);
    size_t len = strlen(path) + strlen(e->d_name) + 2;
    names[count] = malloc(len);
    snprintf(names[count++], len, "%s/%s", path, e->d_name);
  }
  if (errno != 0) {
    fprintf(stderr, "replay: cannot read the directory %s: %s\n", path, strerror(errno));
    exit(EXIT_FAILURE);
  }
  closedir(d);
  if (count) qsort(names, count, sizeof *names, by_name);
  for (size_t i = 0; i < count; ++i) {
    replay_path(names[i]);
    free(names[i]);
  }
  free(names);
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) replay_path(argv[i]);
  printf("replay: %u passed, 0 failed\n", replayed);
  return replayed ? EXIT_SUCCESS : EXIT_FAILURE;
}

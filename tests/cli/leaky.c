/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The free-scan shim's self-test: reads a file into the heap and frees it unwiped, as the
 * old CLI did; the shim must report it. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  FILE *f = fopen(argv[1], "rb");
  if (f == NULL) return 2;
  unsigned char *buf = malloc(65536);
  size_t n = buf ? fread(buf, 1, 65536, f) : 0;
  fclose(f);
  printf("leaky: read %zu bytes, freeing them unwiped\n", n);
  free(buf);
  return 0;
}

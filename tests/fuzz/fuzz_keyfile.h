/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Shared by the key-file fuzz targets (fuzz_privkey.c, fuzz_pubkey.c): their input.
 *
 * Byte 0 chooses the mode. Even: the rest of the input is the file, as is. Odd: a template
 * mutated: template (byte0 >> 1) % count is a valid encoding made here (a fixed seed per
 * parameter set, every form and format), and the rest of the input is a list of
 * mutations, 3 bytes each: a 16-bit little-endian position (mod the template's length) and
 * a byte XORed in there; a position of 0xFFFF truncates the template at the next byte's
 * percentage instead. Both modes reach every byte of the decoders: raw inputs find the
 * framing, templates the checks behind a valid frame. */
#ifndef MLDSA_FUZZ_KEYFILE_H
#define MLDSA_FUZZ_KEYFILE_H

#include "fuzz_common.h"

#define FUZZ_FILE_MAX 16384

typedef struct {
  uint8_t bytes[FUZZ_FILE_MAX];
  size_t len;
} fuzz_file;

/* The file to decode, in f: the raw rest of the input, or a mutated template. */
static inline void fuzz_keyfile_input(const uint8_t *data, size_t size, const fuzz_file *templates,
                                      size_t count, fuzz_file *f) {
  fuzz_input in = {data, size, 0};
  uint8_t mode = fuzz_byte(&in);
  size_t rest_len;
  const uint8_t *rest = fuzz_rest(&in, &rest_len);
  if ((mode & 1) == 0) {
    f->len = rest_len < FUZZ_FILE_MAX ? rest_len : FUZZ_FILE_MAX;
    memcpy(f->bytes, rest, f->len);
    return;
  }
  *f = templates[(mode >> 1) % count];
  for (size_t i = 0; i + 3 <= rest_len && f->len; i += 3) {
    size_t pos = (size_t)rest[i] | (size_t)rest[i + 1] << 8;
    if (pos == 0xFFFF)
      f->len = f->len * rest[i + 2] / 255;
    else
      f->bytes[pos % f->len] ^= rest[i + 2];
  }
}

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Strict DER reading and DER writing (see der.h for the rules). */
#include "der.h"

int mldsa_der_peek(const mldsa_der *r) { return r->len ? r->p[0] : -1; }

int mldsa_der_get(mldsa_der *r, uint8_t tag, mldsa_der *body) {
  /* Tag numbers 31 and above use more than one byte: none of ours do. */
  if (r->len < 2 || r->p[0] != tag || (tag & 0x1F) == 0x1F) return -1;
  size_t pos = 2, len = r->p[1];
  if (len & 0x80) {
    size_t n = len & 0x7F;
    /* 0x80 is the indefinite form (BER only); more than 4 length bytes is never needed. */
    if (n == 0 || n > 4 || r->len - 2 < n) return -1;
    if (r->p[2] == 0) return -1; /* a leading zero byte: not minimal */
    len = 0;
    for (size_t i = 0; i < n; ++i) len = (len << 8) | r->p[2 + i];
    if (len < 0x80) return -1; /* fits the short form: not minimal */
    pos += n;
  }
  if (r->len - pos < len) return -1;
  body->p = r->p + pos;
  body->len = len;
  r->p += pos + len;
  r->len -= pos + len;
  return 0;
}

int mldsa_der_get_any(mldsa_der *r, uint8_t *tag, mldsa_der *body) {
  if (r->len == 0) return -1;
  *tag = r->p[0];
  return mldsa_der_get(r, *tag, body);
}

size_t mldsa_der_header_len(size_t len) {
  size_t n = 2;
  for (size_t rest = len; len >= 0x80 && rest; rest >>= 8) ++n;
  return n;
}

uint8_t *mldsa_der_put_header(uint8_t *out, uint8_t tag, size_t len) {
  size_t n = mldsa_der_header_len(len) - 2; /* bytes of the long-form length */
  *out++ = tag;
  if (n == 0) {
    *out++ = (uint8_t)len;
    return out;
  }
  *out++ = (uint8_t)(0x80 | n);
  for (size_t i = n; i-- > 0;) *out++ = (uint8_t)(len >> (8 * i));
  return out;
}

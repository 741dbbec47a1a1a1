/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* PEM reading and writing with constant-time base64 (rules in pem.h). */
#include "pem.h"

#include <string.h>

#include "ct.h"

#define LINE_CHARS 64
static const char begin_prefix[] = "-----BEGIN ", end_prefix[] = "-----END ", dashes[] = "-----";

/* -1 (all ones) when lo <= x <= hi, else 0, for 0 <= x <= 255; no branch. */
static int in_range(int x, int lo, int hi) { return ((lo - 1 - x) & (x - (hi + 1))) >> 8; }

/* The value 0..63 of a base64 digit, or -1 for any other byte; no branch, no table. */
static int b64_value(uint8_t c) {
  int x = c, v = -1;
  v += in_range(x, 'A', 'Z') & (x - 'A' + 1);
  v += in_range(x, 'a', 'z') & (x - 'a' + 27);
  v += in_range(x, '0', '9') & (x - '0' + 53);
  v += in_range(x, '+', '+') & 63;
  v += in_range(x, '/', '/') & 64;
  return v;
}

/* The base64 digit of v (0..63); no branch, no table. */
static uint8_t b64_digit(unsigned v) {
  int x = (int)v, c = x + 'A';
  c += ((25 - x) >> 8) & ('a' - 26 - 'A');        /* 26..51: a..z */
  c += ((51 - x) >> 8) & ('0' - 52 - ('a' - 26)); /* 52..61: 0..9 */
  c += ((61 - x) >> 8) & ('+' - 62 - ('0' - 52)); /* 62: + */
  c += ((62 - x) >> 8) & ('/' - 63 - ('+' - 62)); /* 63: / */
  return (uint8_t)c;
}

int mldsa_pem_detect(const uint8_t *in, size_t in_len) {
  size_t n = sizeof begin_prefix - 1;
  return in_len >= n && memcmp(in, begin_prefix, n) == 0;
}

size_t mldsa_pem_len(const char *label, size_t der_len) {
  size_t chars = (der_len + 2) / 3 * 4, lines = (chars + LINE_CHARS - 1) / LINE_CHARS;
  size_t label_len = strlen(label);
  return (sizeof begin_prefix - 1) + label_len + 5 + 1 + chars + lines + (sizeof end_prefix - 1) +
         label_len + 5 + 1;
}

static uint8_t *put_text(uint8_t *out, const char *s) {
  size_t n = strlen(s);
  memcpy(out, s, n);
  return out + n;
}

void mldsa_pem_write(uint8_t *out, const char *label, const uint8_t *der, size_t der_len) {
  out = put_text(out, begin_prefix);
  out = put_text(out, label);
  out = put_text(out, dashes);
  *out++ = '\n';
  size_t col = 0;
  for (size_t i = 0; i < der_len; i += 3) {
    size_t n = der_len - i < 3 ? der_len - i : 3;
    uint32_t w = (uint32_t)der[i] << 16;
    if (n > 1) w |= (uint32_t)der[i + 1] << 8;
    if (n > 2) w |= der[i + 2];
    for (size_t k = 0; k < 4; ++k) {
      *out++ = k <= n ? b64_digit((w >> (18 - 6 * k)) & 63) : '=';
      if (++col == LINE_CHARS) {
        *out++ = '\n';
        col = 0;
      }
    }
  }
  if (col) *out++ = '\n';
  out = put_text(out, end_prefix);
  out = put_text(out, label);
  out = put_text(out, dashes);
  *out = '\n';
}

/* The length of the line ending at in[pos..]: 1 (LF), 2 (CRLF) or 0 (none). Line endings
 * are structure, treated as public. */
static size_t eol_at(const uint8_t *in, size_t in_len, size_t pos) {
  if (pos < in_len && MLDSA_CT_PUBLIC(in[pos] == '\n')) return 1;
  if (in_len - pos >= 2 && MLDSA_CT_PUBLIC(in[pos] == '\r') && MLDSA_CT_PUBLIC(in[pos + 1] == '\n'))
    return 2;
  return 0;
}

/* Matches "<prefix><label>-----" at in[*pos..] and moves past it; 0 or -1. */
static int match_boundary(const uint8_t *in, size_t in_len, size_t *pos, const char *prefix,
                          const char *label) {
  const char *parts[3] = {prefix, label, dashes};
  size_t p = *pos;
  for (int i = 0; i < 3; ++i) {
    size_t n = strlen(parts[i]);
    if (in_len - p < n || memcmp(in + p, parts[i], n) != 0) return -1;
    p += n;
  }
  *pos = p;
  return 0;
}

int mldsa_pem_read(const uint8_t *in, size_t in_len, const char *label, uint8_t *der, size_t cap,
                   size_t *der_len) {
  size_t pos = 0, out = 0, chars = 0, pad = 0, eol;
  uint32_t acc = 0;
  int bad = 0; /* accumulated, so that no branch depends on which digit was invalid */
  if (match_boundary(in, in_len, &pos, begin_prefix, label) != 0) return -1;
  if ((eol = eol_at(in, in_len, pos)) == 0) return -1;
  pos += eol;
  for (;;) {
    if (pos == in_len) return -1; /* no END line */
    /* A base64 line never starts with '-': a line that does is the END line. */
    if (MLDSA_CT_PUBLIC(in[pos] == '-')) break;
    size_t start = pos;
    while (pos < in_len && (eol = eol_at(in, in_len, pos)) == 0) {
      uint8_t c = in[pos++];
      int v = b64_value(c), is_pad = MLDSA_CT_PUBLIC(c == '=');
      if (is_pad) {
        ++pad;
        v = 0;
      } else {
        bad |= pad != 0;   /* a digit after padding */
        bad |= v >> 8 & 1; /* v == -1: not a base64 digit */
        v &= 63;
      }
      acc = acc << 6 | (uint32_t)v;
      if (++chars % 4 == 0) {
        if (out + 3 > cap) {
          acc = 0;
          return -1;
        }
        der[out++] = (uint8_t)(acc >> 16);
        der[out++] = (uint8_t)(acc >> 8);
        der[out++] = (uint8_t)acc;
        acc = 0;
      }
    }
    if (pos == start || eol == 0) return -1; /* an empty line, or text ends inside a line */
    pos += eol;
  }
  if (MLDSA_CT_PUBLIC(bad) || chars % 4 != 0 || pad > 2 || chars == 0) return -1;
  /* The padding drops the low bits of the last group: they must be zero (canonical). */
  uint8_t dropped = pad == 2 ? der[out - 2] | der[out - 1] : pad == 1 ? der[out - 1] : 0;
  if (MLDSA_CT_PUBLIC(dropped != 0)) return -1;
  out -= pad;
  if (match_boundary(in, in_len, &pos, end_prefix, label) != 0) return -1;
  pos += eol_at(in, in_len, pos);
  if (pos != in_len) return -1; /* anything after the END line */
  *der_len = out;
  return 0;
}

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* PEM reading and writing with constant-time base64 (rules in pem.h). */
#include "pem.h"

#include <string.h>

#include "ct.h"
#include "der.h"

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

/* RFC 7468 whitespace (WSP, CR, LF, and the VT and FF that OpenSSL also skips). A base64
 * digit is never whitespace, so the branch on it tells nothing about a valid key's digits:
 * only where the layout puts its spaces and line breaks. */
static int is_space(uint8_t c) {
  /* bitwise |, not ||: no branch before the verdict is declared public */
  return MLDSA_CT_PUBLIC((c == ' ') | (c == '\t') | (c == '\r') | (c == '\n') | (c == '\v') |
                         (c == '\f'));
}

/* 1 if in[pos..] starts with the n bytes of s. The text may be a private key's: the bytes
 * are compared without a branch and only the verdict is public (a boundary is never made
 * of base64 digits alone, so it says nothing about a valid key's digits). */
static int starts_with(const uint8_t *in, size_t in_len, size_t pos, const char *s, size_t n) {
  if (pos > in_len || in_len - pos < n) return 0;
  uint8_t diff = 0;
  for (size_t i = 0; i < n; ++i) diff |= (uint8_t)(in[pos + i] ^ (uint8_t)s[i]);
  return MLDSA_CT_PUBLIC(diff == 0);
}

/* 1 if c is a space or a tab (public, as is_space). */
static int is_blank(uint8_t c) { return MLDSA_CT_PUBLIC((c == ' ') | (c == '\t')); }

/* 1 if "<prefix><label>-----" is at in[pos..] (label of label_len bytes). */
static int boundary_at(const uint8_t *in, size_t in_len, size_t pos, const char *prefix,
                       const char *label, size_t label_len) {
  size_t n = strlen(prefix);
  return starts_with(in, in_len, pos, prefix, n) &&
         starts_with(in, in_len, pos + n, label, label_len) &&
         starts_with(in, in_len, pos + n + label_len, dashes, sizeof dashes - 1);
}

/* The position just after the first BEGIN line with this label, or in_len + 1 for none.
 * A BEGIN line starts a line (after optional spaces or tabs) and may end with spaces or
 * tabs before its line ending; every other line is explanatory text or another block,
 * skipped. */
static size_t find_begin(const uint8_t *in, size_t in_len, const char *label) {
  size_t label_len = strlen(label), bp = sizeof begin_prefix - 1;
  size_t line = 0;
  while (line < in_len) {
    size_t pos = line;
    while (pos < in_len && is_blank(in[pos])) ++pos;
    if (boundary_at(in, in_len, pos, begin_prefix, label, label_len)) {
      size_t end = pos + bp + label_len + sizeof dashes - 1;
      while (end < in_len && is_blank(in[end])) ++end;
      if (end < in_len && MLDSA_CT_PUBLIC((in[end] == '\n') | (in[end] == '\r'))) return end;
    }
    while (line < in_len && !MLDSA_CT_PUBLIC(in[line] == '\n')) ++line;
    ++line; /* past the LF (or past the end: the loop stops) */
  }
  return in_len + 1;
}

int mldsa_pem_read(const uint8_t *in, size_t in_len, const char *label, uint8_t *der, size_t cap,
                   size_t *der_len) {
  size_t pos = find_begin(in, in_len, label), out = 0, chars = 0, pad = 0;
  uint32_t acc = 0;
  int bad = 0; /* accumulated, so that no branch depends on which digit was invalid */
  if (pos > in_len) return MLDSA_PEM_NO_BEGIN;
  /* The base64 text: digits and padding, whitespace anywhere, up to the first '-' (a
   * digit is never '-': that is where the END line starts). */
  for (;; ++pos) {
    if (pos == in_len) return MLDSA_PEM_NO_END;
    uint8_t c = in[pos];
    if (is_space(c)) continue;
    if (MLDSA_CT_PUBLIC(c == '-')) break;
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
        return MLDSA_PEM_TOO_LONG;
      }
      der[out++] = (uint8_t)(acc >> 16);
      der[out++] = (uint8_t)(acc >> 8);
      der[out++] = (uint8_t)acc;
      acc = 0;
    }
  }
  acc = 0;
  size_t ep = sizeof end_prefix - 1, label_len = strlen(label);
  if (!starts_with(in, in_len, pos, end_prefix, ep))
    /* "-----" of another boundary (a BEGIN: this block's END is missing), else a lone '-' */
    return starts_with(in, in_len, pos, dashes, sizeof dashes - 1) ? MLDSA_PEM_NO_END
                                                                   : MLDSA_PEM_BAD_BASE64;
  if (!boundary_at(in, in_len, pos, end_prefix, label, label_len)) return MLDSA_PEM_END_LABEL;
  if (MLDSA_CT_PUBLIC(bad) || pad > 2) return MLDSA_PEM_BAD_BASE64;
  if (chars % 4 != 0) return MLDSA_PEM_BAD_LENGTH;
  if (chars == 0) return MLDSA_PEM_EMPTY;
  /* The padding drops the low bits of the last group: they must be zero (canonical). */
  uint8_t dropped = pad == 2 ? der[out - 2] | der[out - 1] : pad == 1 ? der[out - 1] : 0;
  if (MLDSA_CT_PUBLIC(dropped != 0)) return MLDSA_PEM_BAD_PADDING;
  *der_len = out - pad;
  return MLDSA_PEM_OK; /* anything after the END line is text outside the block */
}

const char *mldsa_pem_error(int code) {
  switch (code) {
    case MLDSA_PEM_OK:
      return "PEM: well-formed";
    case MLDSA_PEM_NO_BEGIN:
      return "PEM: no BEGIN line with the expected label";
    case MLDSA_PEM_NO_END:
      return "PEM: no END line after the BEGIN line";
    case MLDSA_PEM_END_LABEL:
      return "PEM: the END line's label differs from the BEGIN line's";
    case MLDSA_PEM_BAD_BASE64:
      return "PEM: a character that is not base64 (or one after the padding, or more than two '=')";
    case MLDSA_PEM_BAD_LENGTH:
      return "PEM: the base64 text is not a multiple of 4 characters";
    case MLDSA_PEM_BAD_PADDING:
      return "PEM: the bits dropped by the base64 padding are not zero";
    case MLDSA_PEM_EMPTY:
      return "PEM: no base64 text between BEGIN and END";
    case MLDSA_PEM_TOO_LONG:
      return "PEM: the encoded data is longer than any accepted key";
    default:
      return "PEM: unknown error";
  }
}

/* 1 if in is one DER element that fills it exactly (a DER file, never PEM text: its first
 * byte would have to be a tag and its length the rest of the text). */
static int is_one_der_element(const uint8_t *in, size_t in_len) {
  mldsa_der r = {in, in_len}, body;
  uint8_t tag;
  return mldsa_der_get_any(&r, &tag, &body) == 0 && r.len == 0;
}

int mldsa_pem_detect(const uint8_t *in, size_t in_len) {
  if (is_one_der_element(in, in_len)) return 0;
  size_t n = sizeof begin_prefix - 1;
  for (size_t i = 0; i + n <= in_len; ++i)
    if (MLDSA_CT_PUBLIC(in[i] == '-') && starts_with(in, in_len, i, begin_prefix, n)) return 1;
  return 0;
}

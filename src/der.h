/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* A strict DER reader and a DER writer, for the few structures of RFC 9881 (X.509 and
 * PKCS#8 ML-DSA keys).
 *
 * Reader: one-byte tags only (no high tag numbers), definite lengths in their minimal
 * form (short form below 128; long form with no leading zero byte and never for a length
 * below 128; at most 4 length bytes), and every element within the bytes it was given:
 * nothing is ever read past the end of the input. The reader never copies data; it hands
 * out views into the input.
 *
 * Writer: the caller computes the sizes first (mldsa_der_header_len) and writes the
 * elements in order into a buffer known to be large enough. */
#ifndef MLDSA_DER_H
#define MLDSA_DER_H

#include <stddef.h>
#include <stdint.h>

#define MLDSA_DER_INTEGER 0x02
#define MLDSA_DER_BIT_STRING 0x03
#define MLDSA_DER_OCTET_STRING 0x04
#define MLDSA_DER_OID 0x06
#define MLDSA_DER_SEQUENCE 0x30
#define MLDSA_DER_SET 0x31
#define MLDSA_DER_CONTEXT_0 0x80      /* [0] IMPLICIT, primitive */
#define MLDSA_DER_CONTEXT_1 0x81      /* [1] IMPLICIT, primitive */
#define MLDSA_DER_CONTEXT_CONS_0 0xA0 /* [0] IMPLICIT, constructed */

/* The bytes not yet read: [p, p + len). */
typedef struct {
  const uint8_t *p;
  size_t len;
} mldsa_der;

/* The tag of the next element, or -1 at the end of the input. */
int mldsa_der_peek(const mldsa_der *r);

/* Reads one element with the given tag: its contents become *body and r moves past it.
 * 0 on success; -1 (r unchanged) on a different tag, a malformed or non-minimal length,
 * or contents that run past the end. */
int mldsa_der_get(mldsa_der *r, uint8_t tag, mldsa_der *body);

/* Reads one element whatever its tag (stored in *tag); 0 or -1 as mldsa_der_get. */
int mldsa_der_get_any(mldsa_der *r, uint8_t *tag, mldsa_der *body);

/* Bytes of the tag and length octets of an element with len bytes of contents. */
size_t mldsa_der_header_len(size_t len);

/* Writes the tag and length octets at out; returns the position after them. */
uint8_t *mldsa_der_put_header(uint8_t *out, uint8_t tag, size_t len);

#endif

/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* PEM (RFC 7468 textual encoding) with constant-time base64, for keys.
 *
 * Written: "-----BEGIN <label>-----", base64 lines of 64 characters, "-----END
 * <label>-----", each line ended by LF (the strict form of RFC 7468, section 3).
 *
 * Read strictly: the input is exactly the BEGIN line with the expected label, base64
 * lines of any length (at least one character each), the END line with the same label,
 * and nothing after it but one optional line ending. Lines end with LF or CRLF. Padding
 * ('=') only at the very end, at most two, the total a multiple of 4 characters, and the
 * bits the padding drops equal to zero (one text per DER encoding). No whitespace, no
 * explanatory text, no headers. Anything else is an error.
 *
 * The base64 digits are decoded without tables or branches on their value (the text of
 * a private key is secret); only the line structure (where the line endings and the END
 * line are) and the validity of the whole are treated as public. */
#ifndef MLDSA_PEM_H
#define MLDSA_PEM_H

#include <stddef.h>
#include <stdint.h>

/* 1 if in starts like PEM ("-----BEGIN "), else 0. */
int mldsa_pem_detect(const uint8_t *in, size_t in_len);

/* Bytes of the PEM text of der_len bytes of DER under this label. */
size_t mldsa_pem_len(const char *label, size_t der_len);

/* Writes the PEM text (mldsa_pem_len bytes, no terminating NUL) at out. */
void mldsa_pem_write(uint8_t *out, const char *label, const uint8_t *der, size_t der_len);

/* Decodes the PEM text in[0..in_len) that must carry this label into der (at most cap
 * bytes), setting *der_len. 0 on success, -1 on anything malformed or longer than cap;
 * der may then hold part of the decoded bytes, which the caller wipes. */
int mldsa_pem_read(const uint8_t *in, size_t in_len, const char *label, uint8_t *der, size_t cap,
                   size_t *der_len);

#endif

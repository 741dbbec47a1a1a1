/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* PEM (RFC 7468 textual encoding) with constant-time base64, for keys.
 *
 * Written: "-----BEGIN <label>-----", base64 lines of 64 characters, "-----END
 * <label>-----", each line ended by LF (the strict form of RFC 7468, section 3).
 *
 * Read as RFC 7468's lax grammar (section 3, laxtextualmsg) and as OpenSSL reads: text
 * before the BEGIN line and after the END line is ignored (pkcs12 writes "Bag Attributes"
 * there; a file may hold a key and a certificate), and so is every block with another
 * label: the first BEGIN line with the expected label is used. That line starts a line
 * (spaces or tabs before it allowed) and ends with a line ending (spaces or tabs before
 * it allowed). Whitespace (space, tab, CR, LF, VT, FF) anywhere in the base64 text is
 * skipped. The text ends at the first '-', which must start the END line with the same
 * label. Padding ('=') only at the very end, at most two, the total a multiple of 4
 * characters, and the bits the padding drops equal to zero. No RFC 1421 headers
 * (encrypted PEM is not read). Each failure has its own code, named by mldsa_pem_error.
 *
 * The base64 digits are decoded without tables or branches on their value (the text of
 * a private key is secret); only the layout (where the whitespace and the END line are)
 * and the validity of the whole are treated as public. */
#ifndef MLDSA_PEM_H
#define MLDSA_PEM_H

#include <stddef.h>
#include <stdint.h>

/* 1 if the key decoders read in as PEM: it is not one DER element filling it exactly and
 * holds "-----BEGIN " somewhere (text may precede the block); else 0 (DER, read strictly).
 * For callers that explain a failure (the CLI): then mldsa_pem_read and mldsa_pem_error
 * say what in the PEM is wrong. */
int mldsa_pem_detect(const uint8_t *in, size_t in_len);

/* Bytes of the PEM text of der_len bytes of DER under this label. */
size_t mldsa_pem_len(const char *label, size_t der_len);

/* Writes the PEM text (mldsa_pem_len bytes, no terminating NUL) at out. */
void mldsa_pem_write(uint8_t *out, const char *label, const uint8_t *der, size_t der_len);

/* The results of mldsa_pem_read: what in the PEM is wrong. */
enum {
  MLDSA_PEM_OK = 0,
  MLDSA_PEM_NO_BEGIN = -1,    /* no BEGIN line with the expected label */
  MLDSA_PEM_NO_END = -2,      /* no END line after it */
  MLDSA_PEM_END_LABEL = -3,   /* an END line with another label */
  MLDSA_PEM_BAD_BASE64 = -4,  /* a byte neither base64 nor whitespace, or bad padding */
  MLDSA_PEM_BAD_LENGTH = -5,  /* base64 text not a multiple of 4 characters */
  MLDSA_PEM_BAD_PADDING = -6, /* non-zero bits dropped by the padding */
  MLDSA_PEM_EMPTY = -7,       /* nothing between BEGIN and END */
  MLDSA_PEM_TOO_LONG = -8     /* more than cap bytes of data */
};

/* A sentence for a result of mldsa_pem_read. */
const char *mldsa_pem_error(int code);

/* Decodes the first block of the PEM text in[0..in_len) that carries this label into der
 * (at most cap bytes), setting *der_len. MLDSA_PEM_OK, or the first thing found wrong;
 * der may then hold part of the decoded bytes, which the caller wipes. */
int mldsa_pem_read(const uint8_t *in, size_t in_len, const char *label, uint8_t *der, size_t cap,
                   size_t *der_len);

#endif

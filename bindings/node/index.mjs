// SPDX-License-Identifier: Apache-2.0 OR MIT
// The ES module face of index.js: named imports as from noble
// (import { ml_dsa65 } from 'mldsa', or from 'mldsa/ml-dsa.js' as noble's path).
import mldsa from './index.js';

export const {
  ml_dsa44, ml_dsa65, ml_dsa87, decodePublicKey, decodePrivateKey, certificatePublicKey, isa,
  version,
} = mldsa;
export default mldsa;

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>
typedef struct { int32_t c[256]; } poly;
void sib_old(poly *c, const uint8_t *ct, void (*perm)(uint64_t *));
void sib_new(poly *c, const uint8_t *ct, void (*perm)(uint64_t *));
void mldsa_keccak_f1600_x1_avx2(uint64_t *s);
static int cmpu(const void *a, const void *b){uint64_t x=*(uint64_t*)a,y=*(uint64_t*)b;return x<y?-1:x>y;}
int main(void){ static uint64_t t[4001]; uint8_t ct[48]; poly c;
 for (int r=0;r<3;r++) for (int v=0; v<2; v++) {
  for(int i=0;i<4001;i++){ for(int k=0;k<48;k++) ct[k]=(uint8_t)(i*31+k*7+r); uint64_t a=__rdtsc(); (v?sib_new:sib_old)(&c, ct, mldsa_keccak_f1600_x1_avx2); t[i]=__rdtsc()-a; }
  qsort(t,4001,8,cmpu); printf("%s %lu\n", v?"new":"old", (unsigned long)t[2000]); }
}

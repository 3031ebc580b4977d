/* Point encodings (encode.h): encode_tmpl.h instantiated for G1 and G2. */
#include <string.h>
#include "curve/encode.h"
#include "field/mont.h"

#if SP_CURVE_BN254
/* arkworks flag bits (SWFlags), in the last byte. */
enum { ARK_NEG = 0x80, ARK_INF = 0x40 };
#else
/* zcash flag bits, in the first byte. */
enum { FLAG_C = 0x80, FLAG_INF = 0x40, FLAG_SIGN = 0x20 };
#endif

#define G g1
#define FIELD fp
#define NC 1
#define COMP(a, i) (a)
#include "curve/encode_tmpl.h"
#undef G
#undef FIELD
#undef NC
#undef COMP

#define G g2
#define FIELD fp2
#define NC 2
#define COMP(a, i) ((i) ? &(a)->c1 : &(a)->c0)
#include "curve/encode_tmpl.h"

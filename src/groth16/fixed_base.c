/* Fixed-base multiplication for G1 and G2 (see fixed_base.h). */
#define G g1
#define FB_UNITS 1
#include "groth16/fixed_base_tmpl.h"
#undef G
#undef FB_UNITS
#define G g2
#define FB_UNITS SP_FB_G2_UNITS
#include "groth16/fixed_base_tmpl.h"

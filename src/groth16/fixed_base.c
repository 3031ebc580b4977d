/* Fixed-base multiplication for G1 and G2 (see fixed_base.h). */
#define G g1
#include "groth16/fixed_base_tmpl.h"
#undef G
#define G g2
#include "groth16/fixed_base_tmpl.h"

/* The MSM for G1 (see msm_tmpl.h). */
#define G g1
#define FIELD fp
#define MSM_GROUP 1
#define COFACTOR_ONE SP_G1_COFACTOR_ONE
#include "msm/msm_tmpl.h"

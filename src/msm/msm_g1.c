/* The MSM for G1 (see msm_tmpl.h). */
#define G g1
#define FIELD fp
#define MSM_GROUP 1
#define COFACTOR_ONE SP_G1_COFACTOR_ONE
#define ENDO sp_g1_endo /* acts as glv.c's lambda */
#include "msm/msm_tmpl.h"

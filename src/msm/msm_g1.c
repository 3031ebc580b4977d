/* The MSM for G1 (see msm_tmpl.h). */
#define G g1
#define FIELD fp
#define MSM_GROUP 1
#include "msm/msm_tmpl.h"

/* The MSM for G2 (see msm_tmpl.h). */
#include "field/fp2.h"
#define G g2
#define FIELD fp2
#define MSM_GROUP 2
#define COFACTOR_ONE 0
#include "msm/msm_tmpl.h"

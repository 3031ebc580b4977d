/* The MSM for G2 (see msm_tmpl.h). */
#include "curve/curve.h"
#include "field/fp2.h"
#define G g2
#define FIELD fp2
#define MSM_GROUP 2
#define COFACTOR_ONE 0

/* The endomorphism of the split (glv.c): psi, acting as p = 6x^2 mod r, on
 * BN254; psi^2, acting as p^2 = z^2 mod r, on BLS12-381 (psi acts as -z,
 * too short alone). */
static void g2_endo(sp_g2_affine *r, const sp_g2_affine *p)
{
    sp_g2_psi(r, p);
#if !SP_CURVE_BN254
    sp_g2_psi(r, r);
#endif
}
#define ENDO g2_endo
#include "msm/msm_tmpl.h"

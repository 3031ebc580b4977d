/*
 * Name builders shared by the curve templates (curve_tmpl.h, encode_tmpl.h)
 * and the curve tests. With G (g1 or g2) and FIELD (fp or fp2) defined by
 * the includer: FN(dbl) is sp_G_dbl, FEF(mul) is sp_FIELD_mul, FE the field
 * type, AFF / JAC / XYZZ the point types. G and FIELD are read where the
 * names are used, so one include serves every instantiation in a file.
 */
#ifndef SP_CURVE_NAMES_H
#define SP_CURVE_NAMES_H

#define SP_CAT2(a, b) a##b
#define SP_CAT(a, b) SP_CAT2(a, b)
#define FN(name) SP_CAT(SP_CAT(sp_, G), SP_CAT(_, name))
#define FE SP_CAT(sp_, FIELD)
#define FEF(name) SP_CAT(SP_CAT(sp_, FIELD), SP_CAT(_, name))
#define AFF SP_CAT(SP_CAT(sp_, G), _affine)
#define JAC SP_CAT(SP_CAT(sp_, G), _jac)
#define XYZZ SP_CAT(SP_CAT(sp_, G), _xyzz)

#endif

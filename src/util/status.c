#include "snarkpipe.h"

const char *sp_status_str(sp_status s)
{
    switch (s) {
    case SP_OK: return "ok";
    case SP_ERR_INVALID_ARG: return "invalid argument";
    case SP_ERR_NOT_CANONICAL: return "field element not below the modulus";
    case SP_ERR_BAD_ENCODING: return "malformed encoding";
    case SP_ERR_NOT_ON_CURVE: return "point not on the curve";
    case SP_ERR_NOT_IN_SUBGROUP: return "point not in the prime-order subgroup";
    case SP_ERR_NO_SQRT: return "no curve point with this x coordinate";
    case SP_ERR_TRUNCATED: return "input truncated";
    case SP_ERR_FORMAT: return "malformed file structure";
    case SP_ERR_IO: return "I/O error";
    case SP_ERR_NOMEM: return "out of memory";
    case SP_ERR_UNSATISFIED: return "witness does not satisfy the circuit";
    case SP_ERR_GPU: return "GPU error";
    case SP_ERR_CANCELLED: return "cancelled";
    case SP_ERR_UNSUPPORTED: return "unsupported";
    }
    return "unknown status";
}

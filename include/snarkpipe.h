/*
 * snarkpipe public header: status codes shared by every layer.
 *
 * Three kinds of failure are kept apart (ARCHITECTURE.md, "Errors"):
 *   - caller misuse (NULL, impossible sizes): asserted in debug builds;
 *   - bad data or an unavailable resource: an sp_status other than SP_OK;
 *   - "this proof does not verify": a plain 0/1 result, not an error.
 */
#ifndef SNARKPIPE_H
#define SNARKPIPE_H

#define SP_VERSION_STRING "0.1.0"

typedef enum {
    SP_OK = 0,
    SP_ERR_INVALID_ARG,      /* argument outside its documented domain */
    SP_ERR_NOT_CANONICAL,    /* field element encoding >= modulus */
    SP_ERR_BAD_ENCODING,     /* wrong length, bad flag bits, bad characters */
    SP_ERR_NOT_ON_CURVE,     /* decoded point does not satisfy the curve equation */
    SP_ERR_NOT_IN_SUBGROUP,  /* point on the curve but not of order r */
    SP_ERR_NO_SQRT,          /* compressed x has no matching y */
    SP_ERR_TRUNCATED,        /* input ended early */
    SP_ERR_FORMAT,           /* structural problem in a file (magic, version, sections) */
    SP_ERR_IO,               /* operating-system I/O failure */
    SP_ERR_NOMEM,            /* allocation failed */
    SP_ERR_UNSATISFIED,      /* witness does not satisfy the circuit */
    SP_ERR_GPU,              /* device call failed */
    SP_ERR_CANCELLED,        /* job or partition cancelled */
    SP_ERR_UNSUPPORTED       /* valid request this build cannot serve */
} sp_status;

/* Size of the char err[SP_ERR_LEN] buffers that readers and other
 * functions fill with a precise, NUL-terminated message when they fail. */
#define SP_ERR_LEN 256

/* Returns a static, human-readable description of s (never NULL). */
const char *sp_status_str(sp_status s);

#if defined(__GNUC__)
#define SP_WARN_UNUSED __attribute__((warn_unused_result))
#else
#define SP_WARN_UNUSED
#endif

#endif

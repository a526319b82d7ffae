/* The unary elementwise loops and the fast forms of pow (x ** 2, x ** 0.5,
 * ...), stamped from ew_ops.h's lists (see ew_loops.h). */
#include "ew_loops.h"

UNARY_LIST(U_GROUP)
POW_FAST_LIST(P_GROUP)

/* the narrow floats' loops over the float32 kernels above (ew_narrow.h) */
UNARY_LIST(UN_GROUP)
POW_FAST_LIST(PN_GROUP)

/* The unary elementwise loops and the fast forms of pow (x ** 2, x ** 0.5,
 * ...), stamped from ew_ops.h's lists (see ew_loops.h). */
#include "ew_loops.h"

UNARY_LIST(U_GROUP)
POW_FAST_LIST(P_GROUP)

/* The binary elementwise loops of floating and complex dtypes, stamped from
 * ew_ops.h's BINARY_LIST (its bool and integer rows: ew_binary_int.c). */
#include "ew_loops.h"

#define B_ONLY_G_B(...)
#define B_ONLY_G_I(...)
#define B_ONLY_G_U(...)
#define B_ONLY_G_F G_F
#define B_ONLY_G_FW G_FW
#define B_ONLY_G_C G_C
#define B_GROUP(OP, G, OUT, S, COST) B_ONLY_##G(B_STAMP, OP, OUT, S, COST)
BINARY_LIST(B_GROUP)

/* the narrow floats' loops over the float32 kernels above (ew_narrow.h) */
BINARY_LIST(BN_GROUP)

/* The binary elementwise loops of bool and integer dtypes, stamped from
 * ew_ops.h's BINARY_LIST (its floating and complex rows: ew_binary_float.c). */
#include "ew_loops.h"

#define B_ONLY_G_B G_B
#define B_ONLY_G_I G_I
#define B_ONLY_G_U G_U
#define B_ONLY_G_F(...)
#define B_ONLY_G_FW(...)
#define B_ONLY_G_C(...)
#define B_GROUP(OP, G, OUT, S, COST) B_ONLY_##G(B_STAMP, OP, OUT, S, COST)
BINARY_LIST(B_GROUP)

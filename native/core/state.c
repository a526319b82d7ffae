/* arrstride._core: the state every part shares, set once by the setup functions
 * (module.c's setup and bind, buffer.c's setup_buffers and setup_blocks,
 * exchange.c's setup_exchange) and read by all (see core.h). Kept apart so that
 * no part's functions and another's state call each other in a circle. */
#include "core.h"

/* ---- the module (setup, bind) ------------------------------------------------------------------------ */

int ready;
int fast_paths = 1;
PyTypeObject *ArrayType;
PyTypeObject *LayoutType, *StorageType;
PyObject *DTYPES;
dinfo DINFO[NCODES];
Py_ssize_t off_shape, off_strides, off_offset, off_size;
Py_ssize_t off_ptr, off_nbytes, off_readonly, off_external, off_owner, off_why;
Py_ssize_t off_cdata;
PyTypeObject *CDataBase;
PyObject *CONTIG;
PyObject *contiguous_of;
PyObject *allocate_large;
PyObject *check_status;
Py_ssize_t small_block;
binary_nd_fn k_binary;
unary_nd_fn k_unary;
unary_fn k_unary_flat;
binary_fn k_binary_flat;
reduce_fn k_reduce;
finish_fn k_finish;
cast_fn k_cast;
conv_fn k_ewise_conv;
where_fn k_where;
clip_fn k_clip;
isin_fn k_isin;
lane_fn k_lane;
norm_fn k_norm;
search_fn k_search;
sort_fn k_sort;
count_true_fn k_count_true;
compress_fn k_compress;
take_fn k_take;
nonzero_fn k_nonzero;
matmul_fn k_matmul;
PyObject *ensure_blas;
int blas_ready;
PyObject *FALLBACK[F_COUNT];
const char *FALLBACK_NAMES[F_COUNT] = {
    "getitem", "setitem", "float", "int", "bool", "complex", "index", "T", "mT", "iter"};

/* ---- memory from outside and large blocks (setup_buffers, setup_blocks) ---------------- */

owner_t *(*k_owner_new)(int, void *);
void (*k_owner_release)(owner_t *);
const char *owner_capsule_name;
PyCapsule_Destructor owner_destructor;
PyObject *foreign_ptr;                   /* address -> cffi char* */
int buffers_ready;
void *(*k_alloc)(int64_t);               /* ars_alloc: blocks from small_block on */
void (*k_free_block)(void *);            /* ars_free */

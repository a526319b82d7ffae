/* arrstride's C kernel library: the declarations cffi's cdef reads.
 *
 * Only types, enums and function declarations live here (no #include, no #if,
 * no function-like macros), so that cffi can parse the file as it is.
 * Sizes, strides and offsets are int64_t; strides are signed byte strides.
 * Every function returns 0 on success or an ARS_ERR_* code.
 */

typedef enum {
    ARS_BOOL = 0,
    ARS_INT8, ARS_INT16, ARS_INT32, ARS_INT64,
    ARS_UINT8, ARS_UINT16, ARS_UINT32, ARS_UINT64,
    ARS_FLOAT32, ARS_FLOAT64,
    ARS_COMPLEX64, ARS_COMPLEX128,
    ARS_FLOAT16,   /* a storage dtype: computed in float32 (see ars_internal.h) */
    ARS_BFLOAT16,  /* a storage dtype: the top 16 bits of a float32 */
    ARS_NDTYPES
} ars_dtype;

enum {
    ARS_OK = 0,
    ARS_ERR_NOMEM = 1,
    ARS_ERR_NDIM = 2,
    ARS_ERR_DTYPE = 3,
    ARS_ERR_ARG = 4,
    ARS_ERR_SIZE = 5   /* an element count or byte size does not fit in int64 */
};

enum { ARS_MAX_DIMS = 64, ARS_MAX_OPS = 8 };

/* ---- memory: 64-byte aligned blocks, with a bounded cache of large freed blocks
 * (parked blocks unused for a second are freed; see memory.c) */
void *ars_alloc(int64_t nbytes);
void *ars_alloc_zeroed(int64_t nbytes);
void ars_free(void *ptr);
int64_t ars_cache_bytes(void);
void ars_cache_clear(void);
int64_t ars_cache_limit(void);
void ars_cache_set_limit(int64_t nbytes);
/* Blocks from this size on are cached; smaller ones are best left to malloc
 * (Python's Storage takes them from cffi's allocator). */
int64_t ars_cache_min_block(void);

/* ---- owners of memory (owner.c): the one object that gives memory back, once.
 * Each is held by a PyCapsule (not tracked by the garbage collector) whose
 * destructor is ars_owner_capsule_destructor. ars_pybuffer has the layout of
 * Python's Py_buffer (stable ABI since 3.11); PyObject_GetBuffer fills it. */
typedef struct {
    void *buf;
    void *obj;
    int64_t len;
    int64_t itemsize;
    int readonly;
    int ndim;
    char *format;
    int64_t *shape;
    int64_t *strides;
    int64_t *suboffsets;
    void *internal;
} ars_pybuffer;
enum { ARS_OWN_BLOCK = 0, ARS_OWN_BUFFER = 1, ARS_OWN_DLPACK = 2, ARS_OWN_DLPACK_VERSIONED = 3 };
typedef struct {
    int kind;
    void *ptr;          /* the block, or the DLPack managed tensor */
    ars_pybuffer view;  /* ARS_OWN_BUFFER: the export */
} ars_owner;
ars_owner *ars_owner_new(int kind, void *ptr);
/* Give the memory back and free the owner (takes the GIL itself). */
void ars_owner_release(ars_owner *o);
const char *ars_owner_capsule_name(void);
void ars_owner_capsule_destructor(void *capsule);
/* The Python C-API entry points C calls (PyGILState_Ensure/Release,
 * PyErr_Fetch/Restore, PyCapsule_GetPointer, PyBuffer_Release), handed over once
 * from ctypes.pythonapi, since the extension is built without Python.h. */
void ars_set_python_api(void *gil_ensure, void *gil_release, void *err_fetch, void *err_restore,
                        void *capsule_get_pointer, void *buffer_release);

/* ---- SIMD level (native/src/platform.h): returns the level the kernels run
 * at (0 baseline, 1 AVX2 = x86-64-v3, 2 AVX-512 = x86-64-v4) and stores the
 * highest level compiled in, the CPU's highest, and what ARRSTRIDE_CPU asked
 * for (-1 unset or "native", -2 a value it does not name, else a level). */
int ars_cpu_info(int *compiled, int *cpu, int *requested);

/* ---- threads */
int ars_set_num_threads(int n);
/* The count set_num_threads(0) means (1 to 256): arrstride/_cpus.py works it
 * out from the CPU affinity mask and the cgroup quota. */
int ars_set_default_threads(int n);
/* The worker threads arrstride's own pool has running. */
int ars_parallel_own_workers(void);
int ars_get_num_threads(void);
/* Ctrl-C: Python's main thread arms itself around a long kernel (begin
 * returns 1 when a SIGINT would stop the kernel early) and disarms after it
 * (end returns 1 when one did: the output is then unspecified). */
int ars_interrupt_begin(void);
int ars_interrupt_end(void);

/* ---- the shared strided iterator, exposed for tests: prepares `nop` operands
 * (strides given row-major, op by op: strides[op * ndim + d]) and writes the
 * prepared layout (innermost dim first) and the byte offset each operand's
 * base moves by after flipping negative dims. Returns the prepared ndim in
 * *out_ndim (-1 when the iteration space is empty). */
int ars_iter_describe(int ndim, const int64_t *shape, int nop, const int64_t *strides,
                      int *out_ndim, int64_t *out_shape, int64_t *out_strides,
                      int64_t *out_offsets);

/* ---- copy, cast, fill over strided layouts */
int ars_copy(int ndim, const int64_t *shape,
             char *dst, const int64_t *dst_strides,
             const char *src, const int64_t *src_strides, int64_t itemsize);
int ars_cast(int ndim, const int64_t *shape,
             char *dst, const int64_t *dst_strides, int dst_dtype,
             const char *src, const int64_t *src_strides, int src_dtype);
int ars_fill(int ndim, const int64_t *shape,
             char *dst, const int64_t *dst_strides, int64_t itemsize,
             const void *value);

/* ---- creation kernels */
int ars_arange(char *dst, int64_t n, int dtype, double start, double step,
               int64_t istart, int64_t istep);
int ars_linspace(char *dst, int64_t n, int dtype, double start_re, double start_im,
                 double stop_re, double stop_im, int endpoint);

/* ---- indexing kernels (byte strides; element offsets where named so) */
int ars_count_true(int ndim, const int64_t *shape, const char *data, const int64_t *strides,
                   int64_t *count);
/* Coordinates of the true elements of a bool array, in C order of the logical
 * indices: out[d * count + j] is the d-th coordinate of the j-th true element. */
int ars_nonzero_bool(int ndim, const int64_t *shape, const char *data, const int64_t *strides,
                     int64_t *out, int64_t count);
/* offsets[j] += idx[j] * dim_stride for the int64 index array idx (negative
 * indices wrap once); an index outside [-dim_size, dim_size) stops the call
 * with ARS_ERR_ARG and its value in *bad. offsets is contiguous. */
int ars_index_accumulate(int ndim, const int64_t *shape, int64_t *offsets,
                         const char *idx, const int64_t *idx_strides,
                         int64_t dim_size, int64_t dim_stride, int64_t *bad);
/* dst[b, rest...] = src[offsets[b] elements + rest...] for b < nb. */
int ars_gather(int64_t nb, const int64_t *offsets, const char *src, char *dst,
               int64_t dst_b_stride, int rest_ndim, const int64_t *rest_shape,
               const int64_t *src_rest_strides, const int64_t *dst_rest_strides,
               int64_t itemsize);
/* dst[offsets[b] elements + rest...] = src[b, rest...] for b < nb, in order. */
int ars_scatter(int64_t nb, const int64_t *offsets, char *dst, const char *src,
                int64_t src_b_stride, int rest_ndim, const int64_t *rest_shape,
                const int64_t *dst_rest_strides, const int64_t *src_rest_strides,
                int64_t itemsize);
/* Zero the elements of the last two dims above (lower = 1: j - i > k) or
 * below (lower = 0: j - i < k) the k-th diagonal. ndim >= 2. */
int ars_tri_zero(int ndim, const int64_t *shape, char *dst, const int64_t *strides,
                 int64_t itemsize, int64_t k, int lower);

/* ---- discrete Fourier transforms (fft.c) */
enum { ARS_FFT_C2C = 0, ARS_FFT_R2C = 1, ARS_FFT_C2R = 2 };
/* One-dimensional transforms of length n along `axis`, for every index of the
 * other axes of `shape` (shape[axis] is not read). dtype is ARS_COMPLEX64 or
 * ARS_COMPLEX128 and names the precision; the real side of R2C (input) and
 * C2R (output) has the matching real dtype.
 *   C2C: the first min(src_len, n) inputs, zero-padded to n -> n outputs;
 *   R2C: real inputs likewise -> the n/2+1 non-negative frequencies;
 *   C2R: the first min(src_len, n/2+1) inputs, zero-padded, read as the
 *        non-negative half of a Hermitian spectrum -> n real outputs.
 * sign is -1 (forward, e^-2pi i jk/n) or +1 (backward); every output is
 * multiplied by scale. dst_len is n (n/2+1 for R2C); src and dst must not overlap.
 * src_dtype is src's dtype: the matching real dtype for R2C, dtype or the
 * matching real dtype (read as complex with imaginary parts +0) for C2C and
 * C2R; with ARS_COMPLEX64 a real src may also be ARS_FLOAT16 or ARS_BFLOAT16
 * (read exactly as float32, line by line). */
int ars_fft(int kind, int dtype, int src_dtype, int ndim, const int64_t *shape, int axis,
            const char *src, const int64_t *src_strides, int64_t src_len,
            char *dst, const int64_t *dst_strides, int64_t dst_len,
            int64_t n, int sign, double scale);
/* Drop every cached FFT plan not in use. */
void ars_fft_cache_clear(void);
/* dst[k] = f_k / (n d), f = 0, 1, ..., then negative frequencies (rfft = 0:
 * the n/2+1 non-negative ones only). dtype ARS_FLOAT32 or ARS_FLOAT64. */
int ars_fftfreq(char *dst, int64_t n, int dtype, double d, int rfft);

/* ---- elementwise functions (elementwise.c) ------------------------------------
 * One call per operation over any strided layout. `dims` packs, for ndim dims,
 * the shape followed by each operand's byte strides (output first):
 *   dims[0:ndim] = shape, dims[(1 + k) * ndim + d] = byte stride of operand k
 * (operand 0 is the output). Every input of ars_binary has the dtype `dtype`;
 * the output dtype is the one ars_unary_out / ars_binary_out give. */
enum {
    ARS_OP_ABS = 0, ARS_OP_ACOS, ARS_OP_ACOSH, ARS_OP_ASIN, ARS_OP_ASINH, ARS_OP_ATAN,
    ARS_OP_ATANH, ARS_OP_BITWISE_INVERT, ARS_OP_CEIL, ARS_OP_CONJ, ARS_OP_COS, ARS_OP_COSH,
    ARS_OP_EXP, ARS_OP_EXPM1, ARS_OP_FLOOR, ARS_OP_ISFINITE, ARS_OP_ISINF, ARS_OP_ISNAN,
    ARS_OP_LOG, ARS_OP_LOG10, ARS_OP_LOG1P, ARS_OP_LOG2, ARS_OP_LOGICAL_NOT, ARS_OP_NEGATIVE,
    ARS_OP_POSITIVE, ARS_OP_RECIPROCAL, ARS_OP_ROUND, ARS_OP_SIGN, ARS_OP_SIGNBIT, ARS_OP_SIN,
    ARS_OP_SINH, ARS_OP_SQRT, ARS_OP_SQUARE, ARS_OP_TAN, ARS_OP_TANH, ARS_OP_TRUNC,
    ARS_NUNARY
};
enum {
    ARS_OP_ADD = 0, ARS_OP_ATAN2, ARS_OP_BITWISE_AND, ARS_OP_BITWISE_LEFT_SHIFT,
    ARS_OP_BITWISE_OR, ARS_OP_BITWISE_RIGHT_SHIFT, ARS_OP_BITWISE_XOR, ARS_OP_COPYSIGN,
    ARS_OP_DIVIDE, ARS_OP_EQUAL, ARS_OP_FLOOR_DIVIDE, ARS_OP_GREATER, ARS_OP_GREATER_EQUAL,
    ARS_OP_HYPOT, ARS_OP_LESS, ARS_OP_LESS_EQUAL, ARS_OP_LOGADDEXP, ARS_OP_LOGICAL_AND,
    ARS_OP_LOGICAL_OR, ARS_OP_LOGICAL_XOR, ARS_OP_MAXIMUM, ARS_OP_MINIMUM, ARS_OP_MULTIPLY,
    ARS_OP_NEXTAFTER, ARS_OP_NOT_EQUAL, ARS_OP_POW, ARS_OP_REMAINDER, ARS_OP_SUBTRACT,
    ARS_NBINARY
};
/* The output dtype of an operation on `dtype`, or -1 when it has no kernel. */
int ars_unary_out(int op, int dtype);
int ars_binary_out(int op, int dtype);
int ars_unary(int op, int dtype, int ndim, const int64_t *dims, char *out, const char *x);
int ars_binary(int op, int dtype, int ndim, const int64_t *dims, char *out,
               const char *x1, const char *x2);
/* The same over one flat dim of n elements: a contiguous output and inputs of
 * byte stride xs / s1 / s2 (the item size, or 0 for a broadcast scalar). */
int ars_unary_flat(int op, int dtype, int64_t n, char *out, const char *x, int64_t xs);
int ars_binary_flat(int op, int dtype, int64_t n, char *out, const char *x1, int64_t s1,
                    const char *x2, int64_t s2);
/* ars_unary (nin 1) or ars_binary (nin 2) of op in `dtype`, or (nin 3)
 * ars_where (op ARS_CONV_WHERE: x1 the bool condition, out_dtype = dtype)
 * or ars_clip (op ARS_CONV_CLIP), on inputs of the dtypes in_dtypes, into an
 * output of out_dtype: each input of another dtype is cast into `dtype` and
 * the kernel's result into out_dtype, block by block (the casts of
 * ars_cast). dims: shape, then the byte strides of the output and of each
 * input. */
enum { ARS_CONV_WHERE = 0, ARS_CONV_CLIP = 1 };
int ars_ewise_conv(int op, int nin, int dtype, int out_dtype, const int *in_dtypes, int ndim,
                   const int64_t *dims, char *out, const char *x1, const char *x2, const char *x3);
/* out = cond ? x1 : x2 (cond is bool; x1, x2 and out share one item size). */
int ars_where(int64_t itemsize, int ndim, const int64_t *dims, char *out, const char *cond,
              const char *x1, const char *x2);
/* out = min(max(x, lo), hi) with NaN propagating; real dtypes. */
int ars_clip(int dtype, int ndim, const int64_t *dims, char *out, const char *x,
             const char *lo, const char *hi);
/* out = (x in set) != invert. `set` holds m contiguous elements of `dtype`
 * and is sorted in place; x holds elements of x_dtype, cast into dtype as
 * ars_cast casts. dims: shape, out strides, x strides. */
int ars_isin(int dtype, int x_dtype, int ndim, const int64_t *dims, char *out, const char *x,
             char *set, int64_t m, int invert);
/* ==== statistics, searching, sorting, sets, take ==================== */

/* Reductions. `acc` is a contiguous buffer of acc_size elements of acc_dtype;
 * acc_strides give its byte strides over the full iteration `shape`, 0 on the
 * reduced dims. The call initializes acc. Accumulator dtypes:
 *   SUM, PROD: int64, uint64, float32, float64, complex64, complex128
 *              (from bool, int, uint, and from floats into floats/complex);
 *   MIN, MAX: the input's own (real) dtype;  ALL, ANY: bool;  COUNT: int64. */
enum {
    ARS_RED_SUM = 0, ARS_RED_PROD, ARS_RED_MIN, ARS_RED_MAX,
    ARS_RED_ALL, ARS_RED_ANY, ARS_RED_COUNT, ARS_RED_NOPS
};
int ars_reduce(int op, int ndim, const int64_t *shape,
               const char *in, const int64_t *in_strides, int in_dtype,
               char *acc, const int64_t *acc_strides, int64_t acc_size, int acc_dtype);

/* In place over n contiguous elements of acc: MEAN divides by count; VAR
 * divides by count - correction (NaN when that is <= 0); STD is VAR's root. */
enum { ARS_FIN_MEAN = 0, ARS_FIN_VAR, ARS_FIN_STD };
int ars_reduce_finish(int kind, char *acc, int64_t n, int acc_dtype,
                      double count, double correction);

/* The sum of |x - mean|^2 over the reduced dims (m2_strides 0 there), into
 * m2, a contiguous float64 buffer of m2_size elements: one pass over the
 * input, of any dtype, in float64. */
int ars_var(int ndim, const int64_t *shape, const char *in, const int64_t *in_strides,
            int in_dtype, double *m2, const int64_t *m2_strides, int64_t m2_size);

/* Lane kernels: one lane of `in` (in_len elements, byte step in_step) per
 * element of the batch iteration (ndim, shape; strides per operand), writing
 * one lane of `out` (out_step).
 *   ARGMAX/ARGMIN: out is one int64 (first occurrence; the first NaN wins).
 *   CUMSUM/CUMPROD: out dtype is a SUM accumulator dtype; flag = include_initial.
 *   DIFF: out[i] = in[i+1] - in[i] in the input dtype (bool: !=). */
enum { ARS_LANE_ARGMAX = 0, ARS_LANE_ARGMIN, ARS_LANE_CUMSUM, ARS_LANE_CUMPROD, ARS_LANE_DIFF };
int ars_lane(int op, int ndim, const int64_t *shape,
             const char *in, const int64_t *in_strides, int in_dtype,
             int64_t in_len, int64_t in_step,
             char *out, const int64_t *out_strides, int out_dtype, int64_t out_step,
             int flag);

/* Sort every lane (n elements along byte step in_step) of a real array:
 * values into out (same dtype) or, with argsort, int64 indices. NaNs last
 * (first when descending); -0.0 and 0.0 compare equal. Stable (MSD radix on
 * order-preserving keys) when stable is nonzero; otherwise equal elements
 * may come in any order (a vector quicksort where the CPU and dtype allow). */
int ars_sort(int ndim, const int64_t *shape,
             const char *in, const int64_t *in_strides, int dtype, int64_t n, int64_t in_step,
             char *out, const int64_t *out_strides, int64_t out_step,
             int argsort, int descending, int stable);

/* Partition every lane (n elements along byte step in_step) of a real array:
 * the element that sorted order puts at each of the nkth positions kth
 * (strictly increasing, in [0, n); else ARS_ERR_ARG) is moved there, those
 * before it are <= and those after >= (NaNs largest, -0.0 == 0.0), as values
 * into out (same dtype) or, with ARS_SELECT_ARG, their int64 indices.
 * ARS_SELECT_PORTABLE keeps to the portable introselect (no vector code, no
 * counting of 1- and 2-byte values). */
enum { ARS_SELECT_ARG = 1, ARS_SELECT_PORTABLE = 2 };
int ars_select(int ndim, const int64_t *shape,
               const char *in, const int64_t *in_strides, int dtype, int64_t n, int64_t in_step,
               char *out, const int64_t *out_strides, int64_t out_step,
               const int64_t *kth, int64_t nkth, int flags);

/* Unique elements of n elements of x (byte stride), sorted, each NaN distinct.
 * values (n slots, x's dtype) receives the k unique values; index, inverse,
 * counts (int64, n slots each) may be NULL. *k receives the count. */
int ars_unique(const char *x, int64_t n, int64_t stride, int dtype,
               char *values, int64_t *index, int64_t *inverse, int64_t *counts, int64_t *k);

/* For every element of x2 (ndim, shape, strides), the insertion point into the
 * sorted real lane x1 (n1 elements, byte stride s1, same dtype) into out (int64). */
int ars_searchsorted(const char *x1, int64_t n1, int64_t s1, int dtype, int right,
                     int ndim, const int64_t *shape,
                     const char *x2, const int64_t *x2_strides,
                     char *out, const int64_t *out_strides);

/* out[i...] = src[i... with the axis coordinate replaced by idx[i...]] where
 * src_strides has 0 on the axis and axis_stride is its byte stride; idx is
 * int64 (negative wraps once). An index outside [-axis_len, axis_len) gives
 * ARS_ERR_ARG with its value in *bad. */
int ars_take(int ndim, const int64_t *shape,
             char *out, const int64_t *out_strides,
             const char *idx, const int64_t *idx_strides,
             const char *src, const int64_t *src_strides,
             int64_t axis_len, int64_t axis_stride, int64_t itemsize, int64_t *bad);

/* Counting (count.c). ars_int64_range: min and max of n int64 (byte stride sx;
 * INT64_MAX and INT64_MIN when n is 0). ars_bincount: out (nbins int64, or
 * float64 sums of the float64 weights w when w is not NULL) counts the n int64
 * values of x; a value outside [0, nbins) gives ARS_ERR_ARG. ars_histogram:
 * the same over nbins equal-width bins whose nbins + 1 float64 edges are given,
 * of n float64 values (NaNs and values outside the edges are skipped). */
int ars_int64_range(const char *x, int64_t n, int64_t sx, int64_t *lo, int64_t *hi);
int ars_bincount(const char *x, int64_t n, int64_t sx, const char *w, int64_t sw,
                 char *out, int64_t nbins);
int ars_histogram(const char *x, int64_t n, int64_t sx, const char *w, int64_t sw,
                  const double *edges, int64_t nbins, char *out);

/* out (sum(repeats) int64) = each j < n repeated repeats[j] times. */
int ars_repeat_index(const int64_t *repeats, int64_t n, int64_t *out);

/* Elements of src where mask is true, in C order, into contiguous dst
 * (count elements, as counted beforehand). */
int ars_compress(int ndim, const int64_t *shape,
                 const char *src, const int64_t *src_strides,
                 const char *mask, const int64_t *mask_strides,
                 char *dst, int64_t itemsize, int64_t count);

/* ---- linalg: BLAS/LAPACK (scipy-openblas64, ILP64) -------------------------------
 * The library is loaded at import time by arrstride/_blas.py, which looks up each
 * routine named by ars_blas_symbol(i) (unmangled, e.g. "cblas_dgemm",
 * "LAPACKE_dgesdd") and hands its address to ars_blas_set(i, fn). */
int ars_blas_nsyms(void);
const char *ars_blas_symbol(int i);
int ars_blas_set(int i, void *fn);
int ars_blas_ready(void);

/* C[b] = A[b] @ B[b] over nbatch batch dims; a_strides / b_strides hold the
 * nbatch batch strides then the row and column strides (bytes, any sign);
 * c is a contiguous (batch..., m, n) block. Floating dtypes go to gemm;
 * integers and bool use a blocked kernel of our own (wrapping). */
int ars_matmul(int dtype, int nbatch, const int64_t *batch_shape, int64_t m, int64_t n,
               int64_t k, const char *a, const int64_t *a_strides, const char *b,
               const int64_t *b_strides, char *c);
/* ars_matmul, with col_major choosing the layout of the float32 tiles a
 * float16 or bfloat16 matrix is converted into (bit 1: A's, bit 2: B's are
 * column-major, else row-major): that of a float32 copy whose product should
 * be reproduced bit for bit (BLAS sums in another order for a transposed
 * operand). Other dtypes ignore it. */
int ars_matmul_ex(int dtype, int nbatch, const int64_t *batch_shape, int64_t m, int64_t n,
                  int64_t k, const char *a, const int64_t *a_strides, const char *b,
                  const int64_t *b_strides, char *c, int col_major);

/* Batched LAPACK drivers: f = 0 float32, 1 float64, 2 complex64, 3 complex128.
 * Inputs are contiguous stacks of column-major matrices, overwritten; outputs
 * are contiguous column-major stacks; info[b] is LAPACK's status
 * (< 0: the input held NaN and the outputs are NaN). */
int ars_la_det(int f, int64_t nb, int64_t n, char *a, char *sign, char *logabs, char *det,
               int64_t *info);
int ars_la_solve(int f, int64_t nb, int64_t n, int64_t nrhs, char *a, char *b, int identity,
                 int64_t *info);
int ars_la_cholesky(int f, int64_t nb, int64_t n, char *a, int upper, int64_t *info);
int ars_la_eigh(int f, int64_t nb, int64_t n, char *a, char *w, int vectors, int64_t *info);
int ars_la_eig(int f, int64_t nb, int64_t n, char *a, char *w, char *v, int64_t *info);
int ars_la_svd(int f, int64_t nb, int64_t m, int64_t n, char *a, char *s, char *u, char *vt,
               char jobz, int64_t *info);
int ars_la_svd_rows(int f, int64_t m, int64_t n, const char *x, char *s, char *u, char *vt,
                    char jobz, int *done);
int ars_la_pinv(int f, int64_t nb, int64_t m, int64_t n, char *a, char *out,
                const double *rtol, int64_t *info);
int ars_la_rank(int f, int64_t nb, int64_t k, const char *s, const double *rtol, int64_t *out);
int ars_la_qr(int f, int64_t nb, int64_t m, int64_t n, char *a, char *q, char *r, int complete,
              int64_t *info);

/* Reductions along one axis of length K (byte strides xk, yk) over a batch
 * walked by the shared iterator (ndim/shape: the batch; out, x, y strides
 * per batch dim), of the terms named by mode. */
enum {
    ARS_DOT_SUM = 0,      /* sum x */
    ARS_DOT_MUL = 1,      /* sum x*y */
    ARS_DOT_CONJ_MUL = 2  /* sum conj(x)*y */
};
int ars_dot_reduce(int mode, int dtype, int ndim, const int64_t *shape, char *out,
                   const int64_t *out_strides, const char *x, const int64_t *x_strides,
                   const char *y, const int64_t *y_strides, int64_t K, int64_t xk, int64_t yk);
/* The norm named by kind; out has the real dtype of x (a floating dtype). */
enum {
    ARS_NORM_2 = 0,    /* the two-norm */
    ARS_NORM_1 = 1,    /* sum |x| */
    ARS_NORM_MAX = 2,  /* max |x| */
    ARS_NORM_MIN = 3,  /* min |x| */
    ARS_NORM_0 = 4,    /* the count of nonzeros */
    ARS_NORM_P = 5     /* (sum |x|^p)^(1/p) */
};
int ars_vector_norm(int dtype, int kind, double p, int ndim, const int64_t *shape, char *out,
                    const int64_t *out_strides, const char *x, const int64_t *x_strides,
                    int64_t K, int64_t xk);
/* Cross product along a length-3 axis with byte strides ok (out), xk, yk. */
int ars_cross(int dtype, int ndim, const int64_t *shape, char *out, const int64_t *out_strides,
              const char *x, const int64_t *x_strides, const char *y,
              const int64_t *y_strides, int64_t ok, int64_t xk, int64_t yk);

/* ==== interop: DLPack 1.x ==========================================================
 * The structs of dlpack.h (v1.1) under their DLPack names, since they are an ABI
 * shared with every other library; only the arrstride functions carry the ars_
 * prefix. DLPack strides, like arrstride's, are counted in elements. */
typedef enum {
    kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLOpenCL = 4, kDLVulkan = 7,
    kDLMetal = 8, kDLVPI = 9, kDLROCM = 10, kDLROCMHost = 11, kDLExtDev = 12,
    kDLCUDAManaged = 13, kDLOneAPI = 14, kDLWebGPU = 15, kDLHexagon = 16, kDLMAIA = 17
} DLDeviceType;

typedef struct {
    DLDeviceType device_type;
    int32_t device_id;
} DLDevice;

typedef enum {
    kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLOpaqueHandle = 3, kDLBfloat = 4,
    kDLComplex = 5, kDLBool = 6
} DLDataTypeCode;

typedef struct {
    uint8_t code;
    uint8_t bits;
    uint16_t lanes;
} DLDataType;

typedef struct {
    void *data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides;        /* NULL means compact row-major */
    uint64_t byte_offset;
} DLTensor;

typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

typedef struct {
    uint32_t major;
    uint32_t minor;
} DLPackVersion;

typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags;
    DLTensor dl_tensor;
} DLManagedTensorVersioned;

enum {
    ARS_DLPACK_MAJOR = 1,
    ARS_DLPACK_MINOR = 1,
    ARS_DLPACK_FLAG_READ_ONLY = 1,   /* DLPACK_FLAG_BITMASK_READ_ONLY */
    ARS_DLPACK_FLAG_IS_COPIED = 2    /* DLPACK_FLAG_BITMASK_IS_COPIED */
};

/* Capsule names: 0 "dltensor", 1 "dltensor_versioned", 2 "used_dltensor",
 * 3 "used_dltensor_versioned". Static strings, as PyCapsule keeps the pointer. */
const char *ars_dlpack_capsule_name(int which);

/* A managed tensor for `ndim` dims at `data` (the first element) with strides in
 * elements, in ONE allocation that also holds shape and strides: a
 * DLManagedTensorVersioned (versioned = 1, version 1.1, with `flags`) or a
 * DLManagedTensor (versioned = 0). Its deleter frees that allocation and hands
 * `owner` to ars_dlpack_release_owner (a Python function, which takes the GIL
 * itself), so the deleter may run on any thread. NULL when out of memory or when
 * dtype is not an ARS_* code. */
void *ars_dlpack_export(int versioned, void *data, int ndim, const int64_t *shape,
                        const int64_t *strides, int dtype, uint64_t flags, void *owner);

/* ars_dlpack_export(1, ...) whose deleter hands `owner` to `release` instead of
 * ars_dlpack_release_owner: the DLPack C exchange table (native/core/exchange.c)
 * exports with a PyObject reference as owner and a release that takes the GIL. */
void *ars_dlpack_export_owned(void *data, int ndim, const int64_t *shape, const int64_t *strides,
                              int dtype, uint64_t flags, void *owner, void (*release)(void *));

/* The ARS_* dtype for a DLPack dtype, or -1 when arrstride has no such dtype. */
int ars_dlpack_dtype(uint8_t code, uint8_t bits, uint16_t lanes);

/* *t = a DLTensor (CPU) of data with ndim dims of dtype, whose shape and
 * strides (in elements) point to the arrays given, which must outlive it:
 * the one filler of DLTensors, behind the managed exports and the C exchange
 * table's dltensor_from_py_object_no_sync. */
void ars_dlpack_view(DLTensor *t, void *data, int ndim, int64_t *shape, int64_t *strides, int dtype);

/* Call the tensor's deleter when it has one (consumer side: we are done). */
void ars_dlpack_delete(DLManagedTensor *m);
void ars_dlpack_delete_versioned(DLManagedTensorVersioned *m);

/* Managed tensors exported by ars_dlpack_export whose deleter has not run yet. */
int64_t ars_dlpack_live(void);

/* The PyCapsule destructor given to PyCapsule_New (its argument is the capsule):
 * runs the Python destructor with any pending exception set aside. */
void ars_dlpack_capsule_destructor(void *capsule);

/* ---- random numbers (random.c) -------------------------------------------
 * PCG64 (XSL-RR 128/64) and NumPy's Generator draws on it, bit for bit.
 * A state must not be used by two calls at once. */
typedef struct {
    uint64_t state_hi, state_lo, inc_hi, inc_lo;
    uint32_t has_uint32, uinteger;   /* the high half of a 64-bit draw kept for the next 32-bit one */
} ars_pcg64;
enum { ARS_RAND_UNIFORM = 0, ARS_RAND_NORMAL = 1, ARS_RAND_EXPONENTIAL = 2 };

/* Seed as PCG64's pcg64_set_seed: initstate seed_hi:seed_lo, sequence inc_hi:inc_lo. */
void ars_pcg64_seed(ars_pcg64 *g, uint64_t seed_hi, uint64_t seed_lo, uint64_t inc_hi, uint64_t inc_lo);

/* out[i] for i < n (contiguous) from a standard draw z of `kind`: z alone when a
 * and b are NULL; else a[i*sa] + b[i*sb] * z (uniform, normal) or b[i*sb] * z
 * (exponential, a NULL). single: float32 standard draws (a, b NULL). */
int ars_random_fill(ars_pcg64 *g, int kind, int single, void *out, int64_t n,
                    const double *a, int64_t sa, const double *b, int64_t sb);

/* out[i] = off[i*soff] + a uniform integer in [0, rng[i*srng]] (inclusive),
 * stored in `width` bytes (1, 2, 4, 8; 0 for bool, whose rng is 0 or 1). */
int ars_random_integers(ars_pcg64 *g, int width, void *out, int64_t n,
                        const uint64_t *off, int64_t soff, const uint64_t *rng, int64_t srng);

/* perm = 0..n-1 shuffled as Generator.shuffle shuffles n rows. */
int ars_random_permutation(ars_pcg64 *g, int64_t *perm, int64_t n);

/* size distinct indices below pop, as Generator.choice(pop, size, replace=False). */
int ars_random_choice_noreplace(ars_pcg64 *g, int64_t pop, int64_t size, int shuffle, int64_t *out);

/* size indices below pop with probabilities p (validated, contiguous), as
 * Generator.choice(pop, size, replace, p). */
int ars_random_choice_p(ars_pcg64 *g, const double *p, int64_t pop, int64_t size, int replace,
                        int64_t *out);

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
    ARS_NDTYPES
} ars_dtype;

enum {
    ARS_OK = 0,
    ARS_ERR_NOMEM = 1,
    ARS_ERR_NDIM = 2,
    ARS_ERR_DTYPE = 3,
    ARS_ERR_ARG = 4
};

enum { ARS_MAX_DIMS = 64, ARS_MAX_OPS = 8 };

/* ---- memory: 64-byte aligned blocks, with a bounded cache of large freed blocks */
void *ars_alloc(int64_t nbytes);
void *ars_alloc_zeroed(int64_t nbytes);
void ars_free(void *ptr);
int64_t ars_cache_bytes(void);
void ars_cache_clear(void);
void ars_cache_set_limit(int64_t nbytes);

/* ---- threads */
int ars_set_num_threads(int n);
int ars_get_num_threads(void);

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
/* out = cond ? x1 : x2 (cond is bool; x1, x2 and out share one item size). */
int ars_where(int64_t itemsize, int ndim, const int64_t *dims, char *out, const char *cond,
              const char *x1, const char *x2);
/* out = min(max(x, lo), hi) with NaN propagating; real dtypes. */
int ars_clip(int dtype, int ndim, const int64_t *dims, char *out, const char *x,
             const char *lo, const char *hi);
/* out = (x in set) != invert. `set` holds m contiguous elements of `dtype`
 * and is sorted in place. dims: shape, out strides, x strides. */
int ars_isin(int dtype, int ndim, const int64_t *dims, char *out, const char *x,
             char *set, int64_t m, int invert);

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

/* The ARS_* dtype for a DLPack dtype, or -1 when arrstride has no such dtype. */
int ars_dlpack_dtype(uint8_t code, uint8_t bits, uint16_t lanes);

/* Call the tensor's deleter when it has one (consumer side: we are done). */
void ars_dlpack_delete(DLManagedTensor *m);
void ars_dlpack_delete_versioned(DLManagedTensorVersioned *m);

/* Managed tensors exported by ars_dlpack_export whose deleter has not run yet. */
int64_t ars_dlpack_live(void);

/* The four stable-ABI Python entry points the DLPack callbacks need
 * (PyGILState_Ensure/Release, PyErr_Fetch/Restore), handed over once from
 * ctypes.pythonapi, since the extension is built without Python.h. */
void ars_dlpack_set_python_api(void *gil_ensure, void *gil_release, void *err_fetch,
                               void *err_restore);
/* The PyCapsule destructor given to PyCapsule_New (its argument is the capsule):
 * runs the Python destructor with any pending exception set aside. */
void ars_dlpack_capsule_destructor(void *capsule);

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
 * multiplied by scale. dst_len is n (n/2+1 for R2C); src and dst must not overlap. */
int ars_fft(int kind, int dtype, int ndim, const int64_t *shape, int axis,
            const char *src, const int64_t *src_strides, int64_t src_len,
            char *dst, const int64_t *dst_strides, int64_t dst_len,
            int64_t n, int sign, double scale);
/* Drop every cached FFT plan not in use. */
void ars_fft_cache_clear(void);
/* dst[k] = f_k / (n d), f = 0, 1, ..., then negative frequencies (rfft = 0:
 * the n/2+1 non-negative ones only). dtype ARS_FLOAT32 or ARS_FLOAT64. */
int ars_fftfreq(char *dst, int64_t n, int dtype, double d, int rfft);

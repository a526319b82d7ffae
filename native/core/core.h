/* arrstride._core: the Array type's C base and the per-call fast paths.
 *
 * The cffi kernels (arrstride._native) do the work on data; this small
 * CPython extension only makes the *calls* cheap. It holds:
 *
 * - ArrayBase, the C base of arrstride.Array: the three fields every array
 *   has (_storage, _layout, _dtype) and the slots Python calls most:
 *   x[k], x[k] = v, float/int/bool/complex/index, the arithmetic and
 *   comparison operators. Each slot takes a fast path for the common simple
 *   case (int and slice keys, a Python scalar value, one-element arrays,
 *   two dense arrays of one dtype and shape) and otherwise calls the Python
 *   implementation registered by setup() (arrstride/_operators.py), which
 *   owns every rule and every error message. A fast path never decides an
 *   error: whatever it does not recognise goes to Python.
 * - Elementwise: the object behind each elementwise function (name, op code,
 *   the output dtype per input dtype, the Python implementation). Calling it
 *   takes the dense fast path or calls the Python implementation.
 * - new, empty, scalar, from_list, where, concat0, reshape,
 *   reduce_all, reduce_into, matmul: construction and the dense cases of
 *   the common calls without Python frames.
 * - ewise: the elementwise engine's entry for the general path; the slots,
 *   Elementwise and where() hand the same engine their fast cases.
 * - copy_into, cast: the engine's copies and casts (every write of one
 *   array into another, astype, copy).
 *
 * Every fast path can be switched off: ARRSTRIDE_FAST_PATHS=0 in the
 * environment when arrstride is imported (or _core.set_fast_paths(False),
 * for tests) sends every call down the general path; `fast_paths` below.
 *
 * Layout, Storage and DType stay Python classes with __slots__ (so _layout.py
 * imports without any compiled module); setup() reads their slot offsets
 * from the member descriptors, and the address of a Storage's cffi pointer
 * from the cdata object, at an offset checked against a known pointer.
 *
 * The sources, by concern (one extension, listed in setup.py):
 *   core.h       shared state, the view a fast path reads, the declarations below
 *   state.c      the shared state itself (set by the setup functions, read by all)
 *   module.c     setup()/bind(), the fast-path switch, the module
 *   type.c       ArrayBase: fields, float/int/bool/complex/index, .T/.mT
 *   view.c       reading an Array's view (read_view), density, overlap tests
 *   scalar.c     Python scalars in and out of one element
 *   alloc.c      new Arrays, Layouts and Storages; kernel status
 *   calls.c      the fast paths of the namespace functions (empty, where, ...)
 *   index.c      x[key] and x[key] = value
 *   engine.c     the one elementwise engine: broadcasting, the output's order, overlap,
 *                flat or N-D, the kernel call; _core.ewise, the Python functions' entry
 *   ewise.c      Elementwise, the object behind each elementwise function
 *   operators.c  the operator slots (x + y, x += y, -x, x < y)
 *   buffer.c     numpy.asarray(x) (__array_struct__; no buffer export), asarray of an
 *                exporter (from_buffer), owned blocks
 *   rows.c       for row in x: ArrayBase's tp_iter and the row iterator
 *   exchange.c   the DLPack 1.3 C exchange table (type(x).__dlpack_c_exchange_api__)
 *   seq.c        the one reader of nested Python lists and tuples (asarray)
 *
 * Dtype codes are the C kernel library's (ars_dtype in arrstride.h); per-dtype
 * switches are stamped from its X-macro table (ARS_DTYPES in native/src/ars_internal.h).
 */
#ifndef ARRSTRIDE_CORE_H
#define ARRSTRIDE_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>
#include "ars_internal.h"   /* arrstride.h, and the C dtype table (ARS_DTYPES) */

#pragma GCC visibility push(hidden)

/* ---- state set by setup() ---------------------------------------------------- */

enum { NCODES = ARS_NDTYPES };          /* dtype codes are < NCODES */
enum { K_BOOL, K_INT, K_UINT, K_FLOAT, K_COMPLEX };

typedef struct {
    PyObject *dtype;                    /* the DType object (borrowed from DTYPES) */
    int itemsize, kind, code;
    int scalar_compute;                 /* arithmetic holds a Python scalar in the compute dtype
                                         * (bfloat16: float32), so the fast paths do not pack it */
} dinfo;

extern int ready;                        /* setup() ran and every check passed */
extern int fast_paths;                   /* 0: every call takes the general path */
extern PyTypeObject *ArrayType;          /* arrstride.Array (a subclass of ArrayBase) */
extern PyTypeObject *LayoutType, *StorageType;
extern PyObject *DTYPES;                 /* tuple of every DType, indexed by code */
extern dinfo DINFO[NCODES];
extern Py_ssize_t off_shape, off_strides, off_offset, off_size;          /* Layout */
extern Py_ssize_t off_ptr, off_nbytes, off_readonly, off_external, off_owner, off_why; /* Storage */
extern Py_ssize_t off_cdata;             /* char* inside a cffi cdata object */
extern PyTypeObject *CDataBase;          /* _cffi_backend._CDataBase */
extern PyObject *CONTIG;                 /* _layout._CONTIGUOUS: shape -> contiguous Layout */
extern PyObject *contiguous_of;          /* _layout.contiguous_of */
extern PyObject *allocate_large;         /* Storage.allocate(nbytes) */
extern PyObject *check_status;           /* _kernels.check_status(rc): raises */
extern Py_ssize_t small_block;           /* blocks below this are _core.Blocks (alloc.c) */

/* The kernels of arrstride._native, by address (setup()). */
typedef int (*unary_fn)(int, int, int64_t, char *, const char *, int64_t);
typedef int (*binary_fn)(int, int, int64_t, char *, const char *, int64_t, const char *, int64_t);
typedef int (*cast_fn)(int, const int64_t *, char *, const int64_t *, int, const char *,
                       const int64_t *, int);
typedef int (*matmul_fn)(int, int, const int64_t *, int64_t, int64_t, int64_t, const char *,
                         const int64_t *, const char *, const int64_t *, char *);
typedef int (*binary_nd_fn)(int, int, int, const int64_t *, char *, const char *, const char *);
typedef int (*unary_nd_fn)(int, int, int, const int64_t *, char *, const char *);
typedef int (*reduce_fn)(int, int, const int64_t *, const char *, const int64_t *, int, char *,
                         const int64_t *, int64_t, int);
typedef int (*finish_fn)(int, char *, int64_t, int, double, double);
typedef int (*conv_fn)(int, int, int, int, const int *, int, const int64_t *, char *, const char *,
                       const char *, const char *);
typedef int (*where_fn)(int64_t, int, const int64_t *, char *, const char *, const char *, const char *);
typedef int (*clip_fn)(int, int, const int64_t *, char *, const char *, const char *, const char *);
typedef int (*isin_fn)(int, int, int, const int64_t *, char *, const char *, char *, int64_t, int);
typedef int (*sort_fn)(int, const int64_t *, const char *, const int64_t *, int, int64_t, int64_t,
                       char *, const int64_t *, int64_t, int, int, int);
typedef int (*lane_fn)(int, int, const int64_t *, const char *, const int64_t *, int, int64_t, int64_t,
                       char *, const int64_t *, int, int64_t, int);
typedef int (*norm_fn)(int, int, double, int, const int64_t *, char *, const int64_t *, const char *,
                       const int64_t *, int64_t, int64_t);
typedef int (*search_fn)(const char *, int64_t, int64_t, int, int, int, const int64_t *, const char *,
                         const int64_t *, char *, const int64_t *);
typedef int (*count_true_fn)(int, const int64_t *, const char *, const int64_t *, int64_t *);
typedef int (*nonzero_fn)(int, const int64_t *, const char *, const int64_t *, int64_t *, int64_t);
typedef int (*compress_fn)(int, const int64_t *, const char *, const int64_t *, const char *,
                           const int64_t *, char *, int64_t, int64_t);
typedef int (*take_fn)(int, const int64_t *, char *, const int64_t *, const char *, const int64_t *,
                       const char *, const int64_t *, int64_t, int64_t, int64_t, int64_t *);
extern binary_nd_fn k_binary;
extern unary_nd_fn k_unary;
extern unary_fn k_unary_flat;
extern binary_fn k_binary_flat;
extern reduce_fn k_reduce;
extern finish_fn k_finish;       /* ars_reduce_finish: mean, var, std of a sum */
extern cast_fn k_cast;
extern conv_fn k_ewise_conv;      /* ars_ewise_conv: inputs of other dtypes, cast per block */
extern where_fn k_where;
extern clip_fn k_clip;
extern isin_fn k_isin;
extern lane_fn k_lane;            /* ars_lane: a kernel along one axis (cumulative sums, ...) */
extern norm_fn k_norm;            /* ars_vector_norm: norms along a lane */
extern search_fn k_search;        /* ars_searchsorted */
extern sort_fn k_sort;            /* ars_sort: sort and argsort along a lane */
extern count_true_fn k_count_true;  /* ars_count_true: the true elements of a mask */
extern compress_fn k_compress;
extern nonzero_fn k_nonzero;         /* ars_nonzero_bool: the coordinates of a mask's true elements */      /* ars_compress: x[mask] in C order */
extern take_fn k_take;            /* ars_take: a gather along one axis by int64 indices */
extern matmul_fn k_matmul;
extern PyObject *ensure_blas;            /* _blas.ensure: loads BLAS on first use */
extern int blas_ready;

/* Multiply-adds from which a matmul takes the Python path (about 10 ms of
 * work), where Ctrl-C can stop it (arrstride/_kernels.py, interruptible). */
#define INTERRUPTIBLE_WORK 1e8
enum { GIL_FREE_ELEMENTS = 1 << 15 };   /* kernels on more elements run without the GIL */
/* rc = call, a kernel call on n elements: without the GIL from GIL_FREE_ELEMENTS on */
#define KERNEL(rc, n, call)                  \
    do {                                     \
        if ((n) >= GIL_FREE_ELEMENTS) {      \
            Py_BEGIN_ALLOW_THREADS           \
            (rc) = (call);                   \
            Py_END_ALLOW_THREADS             \
        } else {                             \
            (rc) = (call);                   \
        }                                    \
    } while (0)

/* Python implementations (fallbacks), by slot. */
enum { F_GETITEM, F_SETITEM, F_FLOAT, F_INT, F_BOOL, F_COMPLEX, F_INDEX, F_T, F_MT, F_ITER, F_COUNT };
extern PyObject *FALLBACK[F_COUNT];
extern const char *FALLBACK_NAMES[F_COUNT];

#define SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

#define REPLACE(var, value) do { \
        PyObject *_old = (PyObject *)(var); Py_XINCREF((PyObject *)(value)); \
        (var) = (value); Py_XDECREF(_old); } while (0)

/* ---- the objects ------------------------------------------------------------------ */

enum { FAST_DIMS = 8 };
/* A contiguous array made in C keeps its data inline up to this many bytes. */
enum { INLINE_BYTES = 64 };

/* An Array keeps its layout in C: the fields below (cfields = 1) for every
 * layout of at most FAST_DIMS dims whose values fit int64, set when the array
 * is made. The Layout object Python reads (x._layout) is made from them the
 * first time it is asked for, so a view made in C (x[i], a row, x.T, an
 * elementwise result) costs one object. cfields = 0: the layout is only in
 * `layout` (more dims, or values C cannot hold), and every fast path declines.
 *
 * The object is variable-sized: after the struct come the nd dims and the nd
 * strides (array_shape, array_strides), and, for a small array made in C, its
 * data (array_inline): such an array has no Storage until one is asked for
 * (x._storage, a view, an export); array_storage then moves the data into a
 * Block it shares with its views. So a small array is one object, as NumPy's. */
typedef struct {
    PyObject_VAR_HEAD        /* ob_size: the bytes after the struct */
    PyObject *storage;       /* NULL while the data is inline */
    PyObject *layout;        /* the Layout; NULL until asked for when cfields = 1 */
    PyObject *dtype;
    PyObject *weakrefs;
    int64_t offset, size;
    int nd;
    unsigned char cfields, dense;  /* dense: C order's strides (dims of size 1 aside), or empty */
    unsigned char dims_room;       /* how many dims the object has room for after the struct */
} ArrayObject;

static inline int64_t *array_shape(ArrayObject *a) {
    return (int64_t *)(a + 1);
}
static inline int64_t *array_strides(ArrayObject *a) {
    return (int64_t *)(a + 1) + a->dims_room;
}
/* The inline data: where a small array's elements are while storage is NULL. */
static inline char *array_inline(ArrayObject *a) {
    return (char *)((int64_t *)(a + 1) + 2 * a->dims_room);
}
/* Bytes of inline data the object has (0 for an array over a Storage). */
static inline Py_ssize_t array_inline_bytes(ArrayObject *a) {
    return Py_SIZE(a) - 16 * (Py_ssize_t)a->dims_room;
}

/* A block of memory arrstride allocated for a small array, as one object: the
 * owner of a Storage made in C (its _ptr stays None until Python asks for a
 * cffi pointer). Not tracked by the collector; data is 16-byte aligned. */
typedef struct {
    PyObject_HEAD
    Py_ssize_t nbytes;
    char *data;
} BlockObject;
extern PyTypeObject BlockType;

typedef struct {
    PyObject_HEAD
    PyObject *name;          /* str */
    PyObject *impl;          /* the Python implementation: every rule and message */
    int op, nargs;           /* kernel op code; 1 or 2 operands */
    signed char out[NCODES]; /* output dtype code per input dtype code, -1: no kernel */
    signed char mixed[NCODES][NCODES]; /* two arrays of these codes: the code both compute in, -1: Python */
    vectorcallfunc vectorcall;
} ElementwiseObject;

extern PyTypeObject ArrayBaseType, ElementwiseType;
extern PyNumberMethods array_as_number;
extern PyMappingMethods array_as_mapping;

/* What a fast path needs of an array: base address of its first element,
 * dims, strides (elements), item size, dtype code. ok=0: take the Python path. */
typedef struct {
    char *data;
    int ndim, code, itemsize, kind, readonly, dense;
    int64_t offset, size;
    int64_t shape[FAST_DIMS], strides[FAST_DIMS];
} view_t;

/* 1 when every stride of v times its item size fits int64 (a dim of one
 * element may carry any stride: x[::2**62]), so that the fast paths can pass
 * byte strides; 0: take the Python path. */
static inline int strides_fit(const view_t *v) {
    int64_t b;
    for (int k = 0; k < v->ndim; k++)
        if (__builtin_mul_overflow(v->strides[k], (int64_t)v->itemsize, &b))
            return 0;
    return 1;
}

/* An operand of the elementwise engine (engine.c): an array's view in any
 * layout of at most ARS_MAX_DIMS dims, or a packed scalar (nd = 0). shape
 * and strides point into the view_t, Array fields or buffer it was read
 * from. */
typedef struct {
    const char *data;                 /* the first element */
    const int64_t *shape, *strides;   /* nd values each; strides in elements */
    int nd, code, itemsize, dense;    /* dense: C order's strides (size-1 dims aside) */
    int64_t size;
} operand_t;

static inline operand_t operand_of(const view_t *v) {
    operand_t o = {v->data, v->shape, v->strides, v->ndim, v->code, v->itemsize, v->dense, v->size};
    return o;
}

/* The int64 value of a Python int, or 0 with *ok cleared when it is not one
 * or does not fit (the caller then takes the Python path). */
static inline int64_t as_i64(PyObject *v, int *ok) {
    if (v == NULL || !PyLong_CheckExact(v)) {
        *ok = 0;
        return 0;
    }
    int overflow;
    long long r = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow || (r == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        *ok = 0;
        return 0;
    }
    return r;
}

static inline char *storage_address(PyObject *storage) {
    PyObject *owner = SLOT(storage, off_owner);
    if (owner != NULL && Py_TYPE(owner) == &BlockType)
        return ((BlockObject *)owner)->data;
    PyObject *ptr = SLOT(storage, off_ptr);
    if (ptr == NULL || !PyObject_TypeCheck(ptr, CDataBase))
        return NULL;
    return *(char **)((char *)ptr + off_cdata);
}

/* Whether a's data is inline (it has no Storage yet). */
static inline int array_has_inline(ArrayObject *a) {
    return a->storage == NULL && a->cfields && array_inline_bytes(a) > 0;
}

/* The address of a's storage's first byte: its inline data while it has no
 * Storage; NULL when it has neither (an array Python has not finished). */
static inline char *array_base(ArrayObject *a) {
    if (a->storage != NULL)
        return storage_address(a->storage);
    return array_has_inline(a) ? array_inline(a) : NULL;
}

/* The code of an arrstride DType object (found by identity: any other object,
 * NumPy dtypes included, gives -1). */
static inline int dtype_code(PyObject *dtype) {
    for (int k = 0; k < NCODES; k++)
        if (DINFO[k].dtype == dtype && dtype != NULL)
            return k;
    return -1;
}

/* ---- shared functions, by file ------------------------------------------------------ */

/* type.c */
PyObject *array_float(PyObject *self);
PyObject *array_int(PyObject *self);
PyObject *array_index(PyObject *self);
int array_bool(PyObject *self);
PyObject *call_fallback(int which, PyObject *const *args, Py_ssize_t nargs);

/* view.c */
int dense_dims(int nd, const int64_t *shape, const int64_t *strides);
int is_dense(const view_t *v);
int read_view(PyObject *self, view_t *v);
/* The address of a view's first element: base plus offset elements, or base
 * for an empty view (its offset may point anywhere). In range for any element
 * the view reaches. */
static inline char *first_element(char *base, int64_t offset, int64_t size, int itemsize) {
    int64_t boff;
    if (size == 0 || __builtin_mul_overflow(offset, (int64_t)itemsize, &boff))
        boff = 0;
    return base + boff;
}
int cast_operand(operand_t *o, int code, int64_t *cstr, PyObject **keep);  /* engine.c */
int operands_disjoint(const operand_t *a, const operand_t *b);
int operand_nests(const operand_t *w);

/* scalar.c */
PyObject *read_scalar(const char *p, int code);
int pack_scalar(PyObject *value, int code, char *out);

/* alloc.c */
PyObject *new_array_steal(PyObject *storage, PyObject *layout, PyObject *dtype);
PyObject *new_array_fields(PyObject *storage, PyObject *dtype, int nd, const int64_t *shape,
                           const int64_t *strides, int64_t offset, int64_t size);
PyObject *new_array_known(PyObject *storage, PyObject *dtype, int nd, const int64_t *shape,
                          const int64_t *strides, int64_t offset, int64_t size, int dense);
PyObject *array_layout(ArrayObject *a);
PyObject *array_storage(ArrayObject *a);
int read_view_shared(PyObject *self, view_t *v);
void track_if_cyclic(ArrayObject *a);
PyObject *foreign_array(PyObject *owner, const char *start, int64_t nbytes, int readonly, PyObject *why,
                        int code, int nd, const int64_t *shape, const int64_t *strides, int64_t offset,
                        int64_t size);
PyObject *new_layout_steal(PyObject *shape, PyObject *strides, PyObject *offset, PyObject *size);
PyObject *storage_steal(PyObject *ptr, PyObject *owner, PyObject *nbytes, int readonly,
                        int external, PyObject *why);
PyObject *new_storage(Py_ssize_t nbytes);
PyObject *owned_block_storage(Py_ssize_t nbytes);
PyObject *contiguous_layout(PyObject *shape);
PyObject *empty_array(PyObject *shape, int code, int64_t size);
PyObject *empty_dims(const int64_t *dims, int nd, int code, int64_t size);
PyObject *array_of(PyObject *storage, int code, int nd, const int64_t *shape, const int64_t *strides,
                   int64_t offset, int64_t size);
PyObject *empty_like(const view_t *v, int code, char **data);
PyObject *tuple_i64(const int64_t *v, int n);
PyObject *view_of(PyObject *self, const int64_t *shape, const int64_t *strides, int ndim,
                  int64_t offset, int64_t size);
int run_status(int rc);

/* calls.c: the module functions */
PyObject *core_new(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_empty(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_scalar(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_reduce_all(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_reshape(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_reduce_into(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_from_list(PyObject *mod, PyObject *list);
PyObject *core_read_sequence(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);  /* seq.c */
PyObject *core_where(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_clip(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_vector_norm(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_searchsorted(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_concat0(PyObject *mod, PyObject *arrays);
PyObject *core_stack0(PyObject *mod, PyObject *arrays);
PyObject *core_matmul(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_sort(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_nonzero(PyObject *mod, PyObject *x);
PyObject *core_cumulative(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_arg(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_permute(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);

/* index.c: the key parser (the [] slots are array_as_mapping) */
PyObject *core_index_key(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_take(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);  /* index.c */

/* engine.c: the one elementwise engine (broadcast, output order, overlap, flat or N-D) */
enum { EW_UNARY, EW_BINARY, EW_WHERE, EW_CLIP, EW_ISIN, EW_COPY, EW_KINDS };
typedef struct {
    int kind, op, code, out_code;  /* op: the kernel's op code; code: the inputs' dtype code */
    char *set;                     /* EW_ISIN: the set (sorted in place), nset elements */
    int64_t nset;
    int invert;
    int conv;                      /* EW_UNARY, EW_BINARY, EW_WHERE, EW_CLIP: the inputs are of the */
    int icode[3];                  /* dtypes icode (cast per block into code) or the output's is not the kernel's */
} ew_call;
/* what engine_run does with an input that overlaps a given output: decline,
 * or copy it first; CHECKED: copy it first, and the caller has decided that
 * the output reaches no element twice (else engine_run declines an output
 * whose dims do not simply nest) */
enum { OVERLAP_DECLINE, OVERLAP_COPY, OVERLAP_COPY_CHECKED };
/* how an input meets a given output (engine.c): the one overlap test of every write */
enum { MEET_APART, MEET_SAME, MEET_OVERLAP };
PyObject *engine_run(const ew_call *c, const operand_t *ins, PyObject *out, const operand_t *vout,
                     int overlap);
int write_meets(const operand_t *v, const operand_t *o);
/* A packed Python scalar (item holds one element of dtype code). */
static inline operand_t scalar_operand(int code, const char *item) {
    operand_t o = {item, NULL, NULL, 0, code, DINFO[code].itemsize, 1, 1};
    return o;
}
/* The Python scalar obj packed into item (16 bytes) as one element of dtype
 * code, as the operand *o: 1, or 0 not a fast case (obj not a scalar of
 * code's kind, or a dtype that computes scalars in its compute dtype, as
 * bfloat16 does: the Python path's rule). The fast paths' one way to take a
 * scalar beside an array. */
static inline int packed_operand(PyObject *obj, int code, char *item, operand_t *o) {
    if (DINFO[code].scalar_compute || !pack_scalar(obj, code, item))
        return 0;
    *o = scalar_operand(code, item);
    return 1;
}
PyObject *core_ewise(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_empty_ordered(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_copy_into(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_cast(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_overlaps(PyObject *mod, PyObject *const *args, Py_ssize_t nargs);

/* ewise.c: Elementwise, the object behind each elementwise function */
PyObject *ew_fast(ElementwiseObject *e, PyObject *a, PyObject *b);

/* operators.c */
PyObject *array_richcompare(PyObject *a, PyObject *b, int op);
int bind_operators(PyObject *operators);

/* buffer.c */
PyObject *array_get_array_struct(PyObject *self, void *c);
PyObject *core_from_buffer(PyObject *mod, PyObject *obj);
PyObject *core_setup_buffers(PyObject *mod, PyObject *args);
PyObject *core_setup_blocks(PyObject *mod, PyObject *args);
/* ars_owner (native/include/arrstride.h) as _core sees it: its view has
 * Py_buffer's layout (setup_buffers checks the offsets against cffi's). */
typedef struct {
    int kind;
    void *ptr;
    Py_buffer view;
} owner_t;
extern owner_t *(*k_owner_new)(int, void *);    /* ars_owner_new, ars_owner_release (setup_buffers) */
extern void (*k_owner_release)(owner_t *);
extern const char *owner_capsule_name;
extern PyCapsule_Destructor owner_destructor;
extern PyObject *foreign_ptr;                   /* address -> cffi char* */
extern int buffers_ready;
extern void *(*k_alloc)(int64_t);               /* ars_alloc, ars_free (setup_blocks) */
extern void (*k_free_block)(void *);

/* rows.c */
extern PyTypeObject RowIterType;
PyObject *array_iter(PyObject *self);

/* exchange.c */
PyObject *core_setup_exchange(PyObject *mod, PyObject *args);

#pragma GCC visibility pop

#endif

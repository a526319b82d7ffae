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
 * - new, empty, scalar, from_list, copy_dense, where, concat0, reshape,
 *   reduce_all, reduce_into, matmul: construction and the dense cases of
 *   the common calls without Python frames.
 *
 * Layout, Storage and DType stay Python classes with __slots__ (so _layout.py
 * imports without any compiled module); setup() reads their slot offsets
 * from the member descriptors, and the address of a Storage's cffi pointer
 * from the cdata object, at an offset checked against a known pointer.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

/* ---- state set by setup() ---------------------------------------------------- */

enum { NCODES = 16 };                   /* dtype codes are < NCODES */
enum { K_BOOL, K_INT, K_UINT, K_FLOAT, K_COMPLEX };

typedef struct {
    PyObject *dtype;                    /* the DType object (borrowed from DTYPES) */
    int itemsize, kind, code;
} dinfo;

static int ready;                        /* setup() ran and every check passed */
static PyTypeObject *ArrayType;          /* arrstride.Array (a subclass of ArrayBase) */
static PyTypeObject *LayoutType, *StorageType;
static PyObject *DTYPES;                 /* tuple of every DType, indexed by code */
static dinfo DINFO[NCODES];
static Py_ssize_t off_shape, off_strides, off_offset, off_size;          /* Layout */
static Py_ssize_t off_ptr, off_nbytes, off_readonly, off_external, off_owner, off_why; /* Storage */
static Py_ssize_t off_cdata;            /* char* inside a cffi cdata object */
static PyTypeObject *CDataBase;         /* _cffi_backend._CDataBase */
static PyObject *CONTIG;                /* _layout._CONTIGUOUS: shape -> contiguous Layout */
static PyObject *contiguous_of;         /* _layout.contiguous_of */
static PyObject *allocate_small;        /* cffi allocator: ("char[]", n) -> cdata */
static PyObject *allocate_large;        /* Storage.allocate(nbytes) */
static PyObject *check_status;          /* _kernels.check_status(rc): raises */
static PyObject *str_char_array;        /* "char[]" */
static Py_ssize_t small_block;          /* blocks below this come from allocate_small */
static void *(*k_alloc)(int64_t);       /* ars_alloc: blocks from small_block on (setup_blocks) */
typedef int (*unary_fn)(int, int, int64_t, char *, const char *, int64_t);
typedef int (*binary_fn)(int, int, int64_t, char *, const char *, int64_t, const char *, int64_t);
typedef int (*cast_fn)(int, const int64_t *, char *, const int64_t *, int, const char *,
                       const int64_t *, int);
typedef int (*matmul_fn)(int, int, const int64_t *, int64_t, int64_t, int64_t, const char *,
                         const int64_t *, const char *, const int64_t *, char *);
typedef int (*binary_nd_fn)(int, int, int, const int64_t *, char *, const char *, const char *);
typedef int (*unary_nd_fn)(int, int, int, const int64_t *, char *, const char *);
static binary_nd_fn k_binary;
static unary_nd_fn k_unary;
static unary_fn k_unary_flat;
static binary_fn k_binary_flat;
typedef int (*reduce_fn)(int, int, const int64_t *, const char *, const int64_t *, int, char *,
                         const int64_t *, int64_t, int, const char *);
static reduce_fn k_reduce;
typedef int (*where_fn)(int64_t, int, const int64_t *, char *, const char *, const char *, const char *);
static cast_fn k_cast;
static where_fn k_where;
static matmul_fn k_matmul;
static PyObject *ensure_blas;           /* _blas.ensure: loads BLAS on first use */
static int blas_ready;
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
enum { F_GETITEM, F_SETITEM, F_FLOAT, F_INT, F_BOOL, F_COMPLEX, F_INDEX, F_T, F_MT, F_COUNT };
static PyObject *FALLBACK[F_COUNT];
static const char *FALLBACK_NAMES[F_COUNT] = {
    "getitem", "setitem", "float", "int", "bool", "complex", "index", "T", "mT"};

#define SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

/* ---- ArrayBase ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    PyObject *storage;
    PyObject *layout;
    PyObject *dtype;
    PyObject *weakrefs;
} ArrayObject;

static int array_traverse(ArrayObject *self, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->storage);
    Py_VISIT(self->layout);
    Py_VISIT(self->dtype);
    return 0;
}

static int array_clear(ArrayObject *self) {
    Py_CLEAR(self->storage);
    Py_CLEAR(self->layout);
    Py_CLEAR(self->dtype);
    return 0;
}

/* Instances are of the Python subclass Array: its subtype_dealloc calls this
 * and then drops the reference to the (heap) type itself. */
static void array_dealloc(ArrayObject *self) {
    PyObject_GC_UnTrack(self);
    if (self->weakrefs)
        PyObject_ClearWeakRefs((PyObject *)self);
    array_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef array_members[] = {
    {"_storage", T_OBJECT_EX, offsetof(ArrayObject, storage), 0, NULL},
    {"_layout", T_OBJECT_EX, offsetof(ArrayObject, layout), 0, NULL},
    {"_dtype", T_OBJECT_EX, offsetof(ArrayObject, dtype), 0, NULL},
    {"__weaklistoffset__", T_PYSSIZET, offsetof(ArrayObject, weakrefs), READONLY, NULL},
    {NULL, 0, 0, 0, NULL}};

/* A new Array holding the three references given (stolen). */
static PyObject *new_array_steal(PyObject *storage, PyObject *layout, PyObject *dtype) {
    ArrayObject *a = (ArrayObject *)ArrayType->tp_alloc(ArrayType, 0);
    if (a == NULL) {
        Py_DECREF(storage);
        Py_DECREF(layout);
        Py_DECREF(dtype);
        return NULL;
    }
    a->storage = storage;
    a->layout = layout;
    a->dtype = dtype;
    return (PyObject *)a;
}

/* A new instance of a __slots__ class (Layout, Storage) with n slots set,
 * at the given offsets; the values' references are stolen. A NULL value
 * (its maker failed) makes nothing, and the others are released. */
static PyObject *new_with_slots(PyTypeObject *type, int n, const Py_ssize_t *offsets, PyObject *const *values) {
    int ok = 1;
    for (int k = 0; k < n; k++)
        ok &= values[k] != NULL;
    PyObject *obj = ok ? type->tp_alloc(type, 0) : NULL;
    for (int k = 0; k < n; k++) {
        if (obj != NULL)
            SLOT(obj, offsets[k]) = values[k];
        else
            Py_XDECREF(values[k]);
    }
    return obj;
}

/* A new Layout (references stolen; offset and size are new references too). */
static PyObject *new_layout_steal(PyObject *shape, PyObject *strides, PyObject *offset, PyObject *size) {
    const Py_ssize_t offsets[4] = {off_shape, off_strides, off_offset, off_size};
    PyObject *values[4] = {shape, strides, offset, size};
    return new_with_slots(LayoutType, 4, offsets, values);
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

/* What a fast path needs of an array: base address of its first element,
 * dims, strides (elements), item size, dtype code. ok=0: take the Python path. */
enum { FAST_DIMS = 8 };
typedef struct {
    char *data;
    int ndim, code, itemsize, kind, readonly, dense;
    int64_t offset, size;
    int64_t shape[FAST_DIMS], strides[FAST_DIMS];
} view_t;

static inline char *storage_address(PyObject *storage) {
    PyObject *ptr = SLOT(storage, off_ptr);
    if (ptr == NULL || !PyObject_TypeCheck(ptr, CDataBase))
        return NULL;
    return *(char **)((char *)ptr + off_cdata);
}

/* The code of an arrstride DType object (found by identity: any other object,
 * NumPy dtypes included, gives -1). */
static int dtype_code(PyObject *dtype) {
    for (int k = 0; k < NCODES; k++)
        if (DINFO[k].dtype == dtype && dtype != NULL)
            return k;
    return -1;
}

/* v's strides are C order's for its shape (dims of size 1 aside). */
static int is_dense(const view_t *v) {
    int64_t acc = 1;
    for (int k = v->ndim - 1; k >= 0; k--) {
        if (v->shape[k] != 1 && v->strides[k] != acc)
            return 0;
        if (__builtin_mul_overflow(acc, v->shape[k] > 0 ? v->shape[k] : 1, &acc))
            return 0;  /* dims past int64 beside an empty one */
    }
    return 1;
}

static int read_view(PyObject *self, view_t *v) {
    if (!ready || !PyObject_TypeCheck(self, ArrayType))
        return 0;
    ArrayObject *a = (ArrayObject *)self;
    if (a->storage == NULL || a->layout == NULL || a->dtype == NULL
        || Py_TYPE(a->storage) != StorageType || Py_TYPE(a->layout) != LayoutType)
        return 0;
    int code = dtype_code(a->dtype);
    if (code < 0)
        return 0;
    char *base = storage_address(a->storage);
    if (base == NULL)
        return 0;
    PyObject *shape = SLOT(a->layout, off_shape), *strides = SLOT(a->layout, off_strides);
    if (shape == NULL || strides == NULL || !PyTuple_CheckExact(shape) || !PyTuple_CheckExact(strides))
        return 0;
    Py_ssize_t n = PyTuple_GET_SIZE(shape);
    if (n > FAST_DIMS || PyTuple_GET_SIZE(strides) != n)
        return 0;
    int ok = 1;
    v->ndim = (int)n;
    v->offset = as_i64(SLOT(a->layout, off_offset), &ok);
    v->size = as_i64(SLOT(a->layout, off_size), &ok);
    for (Py_ssize_t k = 0; k < n; k++) {
        v->shape[k] = as_i64(PyTuple_GET_ITEM(shape, k), &ok);
        v->strides[k] = as_i64(PyTuple_GET_ITEM(strides, k), &ok);
    }
    if (!ok)
        return 0;
    v->code = code;
    v->itemsize = DINFO[code].itemsize;
    v->kind = DINFO[code].kind;
    /* bytes to the first element: in range for any element the view reaches */
    int64_t boff;
    if (v->size == 0 || __builtin_mul_overflow(v->offset, (int64_t)v->itemsize, &boff))
        boff = 0;
    v->data = base + boff;
    v->readonly = SLOT(a->storage, off_readonly) != Py_False;
    v->dense = v->size == 0 || is_dense(v);
    return 1;
}

static PyObject *call_fallback(int which, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *f = FALLBACK[which];
    if (f == NULL) {
        PyErr_Format(PyExc_RuntimeError, "arrstride: %s is not bound (arrstride._core.setup)",
                     FALLBACK_NAMES[which]);
        return NULL;
    }
    return PyObject_Vectorcall(f, args, nargs, NULL);
}

/* ---- scalars in and out -------------------------------------------------------- */

/* An element of dtype `code` as a Python scalar. */
static PyObject *read_scalar(const char *p, int code) {
    switch (code) {
#define R(C, T, MAKE) case C: { T v; memcpy(&v, p, sizeof v); return MAKE; }
    R(0, uint8_t, PyBool_FromLong(v != 0))
    R(1, int8_t, PyLong_FromLong(v))
    R(2, int16_t, PyLong_FromLong(v))
    R(3, int32_t, PyLong_FromLong(v))
    R(4, int64_t, PyLong_FromLongLong(v))
    R(5, uint8_t, PyLong_FromLong(v))
    R(6, uint16_t, PyLong_FromLong(v))
    R(7, uint32_t, PyLong_FromUnsignedLong(v))
    R(8, uint64_t, PyLong_FromUnsignedLongLong(v))
    R(9, float, PyFloat_FromDouble(v))
    R(10, double, PyFloat_FromDouble(v))
    case 11: { float v[2]; memcpy(v, p, sizeof v); return PyComplex_FromDoubles(v[0], v[1]); }
    case 12: { double v[2]; memcpy(v, p, sizeof v); return PyComplex_FromDoubles(v[0], v[1]); }
#undef R
    }
    PyErr_SetString(PyExc_SystemError, "arrstride: unknown dtype code");
    return NULL;
}

/* A real value written as one element of a floating dtype (float32 rounds
 * as Python's struct does: past its range to infinity) or complex (imag 0). */
static int pack_real(double d, int code, char *out) {
    switch (code) {
    case 9: { float w = (float)d; memcpy(out, &w, 4); return 1; }
    case 10: memcpy(out, &d, 8); return 1;
    case 11: { float w[2] = {(float)d, 0.0f}; memcpy(out, w, 8); return 1; }
    case 12: { double w[2] = {d, 0.0}; memcpy(out, w, 16); return 1; }
    }
    return 0;
}

/* The Python scalar `value` packed as one element of dtype `code` into out
 * (16 bytes): 1 done, 0 not a fast case. Fast cases are an exact bool, int,
 * float or complex whose kind the dtype takes as it is, and ints in range;
 * the Python path decides (and words the errors of) everything else. */
static int pack_scalar(PyObject *value, int code, char *out) {
    int kind = DINFO[code].kind;
    PyTypeObject *t = Py_TYPE(value);
    if (t == &PyBool_Type) {
        if (kind != K_BOOL)
            return 0;
        out[0] = value == Py_True;
        return 1;
    }
    if (t == &PyFloat_Type)
        return (kind == K_FLOAT || kind == K_COMPLEX) && pack_real(PyFloat_AS_DOUBLE(value), code, out);
    if (t == &PyComplex_Type) {
        if (kind != K_COMPLEX)
            return 0;
        Py_complex c = PyComplex_AsCComplex(value);
        if (code == 11) {
            float w[2] = {(float)c.real, (float)c.imag};
            memcpy(out, w, 8);
        } else {
            double w[2] = {c.real, c.imag};
            memcpy(out, w, 16);
        }
        return 1;
    }
    if (t != &PyLong_Type)
        return 0;
    if (kind == K_FLOAT || kind == K_COMPLEX) {
        double d = PyLong_AsDouble(value);
        if (d == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        return pack_real(d, code, out);
    }
    int overflow;
    long long s = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (s == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (kind == K_INT && !overflow) {
        switch (DINFO[code].itemsize) {
        case 1: if (s < INT8_MIN || s > INT8_MAX) return 0; { int8_t w = (int8_t)s; memcpy(out, &w, 1); } return 1;
        case 2: if (s < INT16_MIN || s > INT16_MAX) return 0; { int16_t w = (int16_t)s; memcpy(out, &w, 2); } return 1;
        case 4: if (s < INT32_MIN || s > INT32_MAX) return 0; { int32_t w = (int32_t)s; memcpy(out, &w, 4); } return 1;
        default: { int64_t w = s; memcpy(out, &w, 8); } return 1;
        }
    }
    if (kind == K_UINT && overflow >= 0) {
        uint64_t v;
        if (overflow) {
            v = PyLong_AsUnsignedLongLong(value);
            if (v == (uint64_t)-1 && PyErr_Occurred()) {
                PyErr_Clear();
                return 0;
            }
        } else if (s < 0) {
            return 0;
        } else {
            v = (uint64_t)s;
        }
        switch (DINFO[code].itemsize) {
        case 1: if (v > UINT8_MAX) return 0; { uint8_t w = (uint8_t)v; memcpy(out, &w, 1); } return 1;
        case 2: if (v > UINT16_MAX) return 0; { uint16_t w = (uint16_t)v; memcpy(out, &w, 2); } return 1;
        case 4: if (v > UINT32_MAX) return 0; { uint32_t w = (uint32_t)v; memcpy(out, &w, 4); } return 1;
        default: memcpy(out, &v, 8); return 1;
        }
    }
    return 0;
}

/* ---- construction ---------------------------------------------------------------- */

static int run_status(int rc);
static PyObject *tuple_i64(const int64_t *v, int n);

/* A Storage of its slots: ptr (a cffi char*), owner and nbytes are stolen
 * (NULL for any: nothing is made and the others are released). */
static PyObject *storage_steal(PyObject *ptr, PyObject *owner, PyObject *nbytes, int readonly,
                               int external, PyObject *why) {
    const Py_ssize_t offsets[6] = {off_ptr, off_owner, off_nbytes, off_readonly, off_external, off_why};
    PyObject *values[6] = {ptr, owner, nbytes, Py_NewRef(readonly ? Py_True : Py_False),
                           Py_NewRef(external ? Py_True : Py_False), Py_NewRef(why)};
    return new_with_slots(StorageType, 6, offsets, values);
}

static PyObject *owned_block_storage(Py_ssize_t nbytes);

/* A new writable Storage of nbytes (unzeroed). */
static PyObject *new_storage(Py_ssize_t nbytes) {
    if (nbytes >= small_block) {
        PyObject *st = owned_block_storage(nbytes);
        if (st != Py_None)
            return st;
        Py_DECREF(st);
        PyObject *n = PyLong_FromSsize_t(nbytes);
        if (n == NULL)
            return NULL;
        st = PyObject_CallOneArg(allocate_large, n);
        Py_DECREF(n);
        return st;
    }
    PyObject *args[2] = {str_char_array, PyLong_FromSsize_t(nbytes ? nbytes : 1)};
    if (args[1] == NULL)
        return NULL;
    PyObject *buf = PyObject_Vectorcall(allocate_small, args, 2, NULL);
    Py_DECREF(args[1]);
    if (buf == NULL)
        return NULL;
    Py_INCREF(buf);
    return storage_steal(buf, buf, PyLong_FromSsize_t(nbytes), 0, 0, Py_None);
}

/* The contiguous Layout of shape (a tuple), from _layout's cache. New reference. */
static PyObject *contiguous_layout(PyObject *shape) {
    PyObject *lay = PyDict_GetItemWithError(CONTIG, shape);
    if (lay != NULL) {
        Py_INCREF(lay);
        return lay;
    }
    if (PyErr_Occurred())
        return NULL;
    return PyObject_CallOneArg(contiguous_of, shape);
}

/* A new contiguous array of shape and dtype code, or NULL with ok = 0 when
 * its size is not a fast case (then nothing is raised). */
static PyObject *empty_array(PyObject *shape, int code, int64_t size) {
    int64_t nbytes;
    if (__builtin_mul_overflow(size, (int64_t)DINFO[code].itemsize, &nbytes) || nbytes > ((int64_t)1 << 62)) {
        PyErr_SetString(PyExc_MemoryError, "arrstride: array too large");
        return NULL;
    }
    PyObject *lay = contiguous_layout(shape);
    if (lay == NULL)
        return NULL;
    PyObject *st = new_storage((Py_ssize_t)nbytes);
    if (st == NULL) {
        Py_DECREF(lay);
        return NULL;
    }
    Py_INCREF(DINFO[code].dtype);
    return new_array_steal(st, lay, DINFO[code].dtype);
}

/* empty_array for a shape given as nd int64 dims (size: their product). */
static PyObject *empty_dims(const int64_t *dims, int nd, int code, int64_t size) {
    PyObject *shape = tuple_i64(dims, nd);
    if (shape == NULL)
        return NULL;
    PyObject *out = empty_array(shape, code, size);
    Py_DECREF(shape);
    return out;
}

/* 1 when every element the layout reaches lies inside the storage's bytes
 * (an empty layout reaches none), else 0. */
static int layout_fits(PyObject *lay, PyObject *st, int64_t itemsize) {
    PyObject *shape = SLOT(lay, off_shape), *strides = SLOT(lay, off_strides);
    PyObject *offset = SLOT(lay, off_offset), *nb = SLOT(st, off_nbytes);
    if (!shape || !strides || !offset || !nb || !PyTuple_Check(shape) || !PyTuple_Check(strides)
        || PyTuple_GET_SIZE(shape) != PyTuple_GET_SIZE(strides))
        return 0;
    int ok = 1, empty = 0, past = 0;  /* past: a reach beyond int64 (harmless only when empty) */
    int64_t lo = as_i64(offset, &ok), hi = lo, nbytes = as_i64(nb, &ok), end;
    if (!ok)
        past = 1, ok = 1;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(shape); k++) {
        int64_t d = as_i64(PyTuple_GET_ITEM(shape, k), &ok), s, reach;
        if (!ok || d < 0)
            return 0;
        if (d == 0)
            empty = 1;
        if (d <= 1 || past)
            continue;  /* a dim of one element adds nothing, whatever its stride */
        s = as_i64(PyTuple_GET_ITEM(strides, k), &ok);
        if (!ok || __builtin_mul_overflow(d - 1, s, &reach)
            || __builtin_add_overflow(s < 0 ? lo : hi, reach, s < 0 ? &lo : &hi))
            past = 1, ok = 1;
    }
    if (empty)
        return 1;
    return !past && lo >= 0 && !__builtin_mul_overflow(hi + 1, itemsize, &end) && end <= nbytes;
}

/* new(storage, layout, dtype) -> Array, after checking the three kinds and
 * that the layout stays inside the storage: this entry point is reachable
 * from Python, and every kernel trusts an Array's fields. */
static PyObject *core_new(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (nargs != 3 || ArrayType == NULL) {
        PyErr_SetString(PyExc_TypeError, "arrstride._core.new(storage, layout, dtype)");
        return NULL;
    }
    int code = dtype_code(args[2]);
    if (Py_TYPE(args[0]) != StorageType || Py_TYPE(args[1]) != LayoutType || code < 0) {
        PyErr_SetString(PyExc_TypeError, "arrstride._core.new: expected a Storage, a Layout and an arrstride dtype");
        return NULL;
    }
    if (!layout_fits(args[1], args[0], DINFO[code].itemsize)) {
        PyErr_SetString(PyExc_ValueError, "arrstride._core.new: the layout reaches outside the storage");
        return NULL;
    }
    Py_INCREF(args[0]);
    Py_INCREF(args[1]);
    Py_INCREF(args[2]);
    return new_array_steal(args[0], args[1], args[2]);
}

/* empty(shape, dtype, zero=False) -> a new contiguous Array, or None when
 * shape is not a tuple of ints whose element and byte counts fit (the
 * caller's Python path then checks it and words the error). */
static PyObject *core_empty(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (nargs < 2 || nargs > 3 || !ready) {
        PyErr_SetString(PyExc_TypeError, "arrstride._core.empty(shape, dtype, zero=False)");
        return NULL;
    }
    int code = dtype_code(args[1]);
    if (code < 0 || !PyTuple_CheckExact(args[0]))
        Py_RETURN_NONE;
    int zero = nargs == 3 && PyObject_IsTrue(args[2]);
    int64_t size = 1, nbytes;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(args[0]); k++) {
        int ok = 1;
        int64_t d = as_i64(PyTuple_GET_ITEM(args[0], k), &ok);
        if (!ok || d < 0 || __builtin_mul_overflow(size, d, &size))
            Py_RETURN_NONE;
    }
    if (__builtin_mul_overflow(size, (int64_t)DINFO[code].itemsize, &nbytes) || nbytes > ((int64_t)1 << 62)
        || (zero && nbytes >= small_block))  /* large zeroed blocks: the allocator's zeroing path */
        Py_RETURN_NONE;
    PyObject *out = empty_array(args[0], code, size);
    if (out != NULL && zero)
        memset(storage_address(((ArrayObject *)out)->storage), 0, (size_t)nbytes);
    return out;
}

/* scalar(value) -> a 0-d array of the default dtype of a Python bool, int
 * (in int64), float or complex; None for anything else. */
static PyObject *core_scalar(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (nargs < 1 || nargs > 2)
        Py_RETURN_NONE;
    PyObject *value = args[0];
    PyTypeObject *t = Py_TYPE(value);
    int code = nargs == 2 && args[1] != Py_None ? dtype_code(args[1])
             : t == &PyFloat_Type ? 10 : t == &PyLong_Type ? 4 : t == &PyBool_Type ? 0
             : t == &PyComplex_Type ? 12 : -1;
    char item[16];
    if (!ready || code < 0 || !pack_scalar(value, code, item))
        Py_RETURN_NONE;
    PyObject *out = empty_dims(NULL, 0, code, 1);
    if (out != NULL)
        memcpy(storage_address(((ArrayObject *)out)->storage), item, DINFO[code].itemsize);
    return out;
}

/* reduce_all(op, x, acc_dtype) -> a new 0-d array of acc_dtype: the `op`
 * reduction (ARS_RED_*) of every element of a dense x, in one flat pass;
 * None when x is not dense (the Python path). */
static PyObject *core_reduce_all(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    view_t v;
    int ok = 1;
    if (nargs != 3 || !read_view(args[1], &v) || !v.dense)
        Py_RETURN_NONE;
    int64_t op = as_i64(args[0], &ok);
    int acc = dtype_code(args[2]);
    if (!ok || acc < 0 || op < 0 || op > INT32_MAX)
        Py_RETURN_NONE;
    PyObject *out = empty_dims(NULL, 0, acc, 1);
    if (out == NULL)
        return NULL;
    char *o = storage_address(((ArrayObject *)out)->storage);
    int64_t n = v.size, s = v.itemsize, zero = 0;
    int rc;
    KERNEL(rc, n, k_reduce((int)op, 1, &n, v.data, &s, v.code, o, &zero, 1, acc, NULL));
    if (run_status(rc) < 0)
        Py_CLEAR(out);
    return out;
}

/* reshape(x, shape) -> a view of a dense x under shape (a tuple of ints, at
 * most one of them -1 standing for the rest), or None (the Python path:
 * other layouts, copies, and every error). */
static PyObject *core_reshape(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    view_t v;
    if (nargs != 2 || !PyTuple_CheckExact(args[1]) || !read_view(args[0], &v) || !v.dense)
        Py_RETURN_NONE;
    PyObject *shape = args[1];
    Py_ssize_t nd = PyTuple_GET_SIZE(shape);
    int64_t dims[FAST_DIMS], known = 1;
    int free_dim = -1;
    if (nd > FAST_DIMS)
        Py_RETURN_NONE;
    for (Py_ssize_t k = 0; k < nd; k++) {
        int ok = 1;
        dims[k] = as_i64(PyTuple_GET_ITEM(shape, k), &ok);
        if (!ok || dims[k] < -1 || (dims[k] == -1 && free_dim >= 0))
            Py_RETURN_NONE;
        if (dims[k] == -1)
            free_dim = (int)k;
        else if (__builtin_mul_overflow(known, dims[k], &known))
            Py_RETURN_NONE;
    }
    if (free_dim >= 0) {
        if (known == 0 || v.size % known)
            Py_RETURN_NONE;
        dims[free_dim] = v.size / known;
    } else if (known != v.size) {
        Py_RETURN_NONE;
    }
    PyObject *tshape = free_dim >= 0 ? tuple_i64(dims, (int)nd) : (Py_INCREF(shape), shape);
    if (tshape == NULL)
        return NULL;
    PyObject *lay = contiguous_layout(tshape);
    Py_DECREF(tshape);
    if (lay == NULL)
        return NULL;
    if (v.offset != 0) {  /* the cached layout's shape and strides at x's offset */
        PyObject *sh = SLOT(lay, off_shape), *st = SLOT(lay, off_strides), *sz = SLOT(lay, off_size);
        Py_INCREF(sh);
        Py_INCREF(st);
        Py_INCREF(sz);
        PyObject *moved = new_layout_steal(sh, st, PyLong_FromLongLong(v.offset), sz);
        Py_DECREF(lay);
        if (moved == NULL)
            return NULL;
        lay = moved;
    }
    ArrayObject *a = (ArrayObject *)args[0];
    Py_INCREF(a->storage);
    Py_INCREF(a->dtype);
    return new_array_steal(a->storage, lay, a->dtype);
}

/* reduce_into(op, x, axes, acc_dtype) -> a new contiguous array of x's
 * shape with 1 on `axes` (a tuple of distinct normalized ints): the `op`
 * reduction of x over them, any layout of x; None when not a fast case. */
static PyObject *core_reduce_into(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    view_t v;
    int ok = 1;
    if (nargs != 4 || !read_view(args[1], &v) || !PyTuple_CheckExact(args[2]) || v.ndim == 0)
        Py_RETURN_NONE;
    int64_t op = as_i64(args[0], &ok);
    int acc = dtype_code(args[3]);
    if (!ok || acc < 0 || op < 0 || op > INT32_MAX)
        Py_RETURN_NONE;
    int reduced[FAST_DIMS] = {0};
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args[2]); i++) {
        int64_t a = as_i64(PyTuple_GET_ITEM(args[2], i), &ok);
        if (!ok || a < 0 || a >= v.ndim || reduced[a])
            Py_RETURN_NONE;
        reduced[a] = 1;
    }
    int64_t kshape[FAST_DIMS], xs[FAST_DIMS], as[FAST_DIMS], ksize = 1;
    for (int k = 0; k < v.ndim; k++) {
        kshape[k] = reduced[k] ? 1 : v.shape[k];
        ksize *= kshape[k];  /* at most x's size, or 0 */
        if (__builtin_mul_overflow(v.strides[k], (int64_t)v.itemsize, &xs[k]))
            Py_RETURN_NONE;
    }
    int64_t stride = DINFO[acc].itemsize;
    for (int k = v.ndim - 1; k >= 0; k--) {
        as[k] = reduced[k] ? 0 : stride;
        stride *= kshape[k];
    }
    PyObject *out = empty_dims(kshape, v.ndim, acc, ksize);
    if (out == NULL)
        return NULL;
    char *o = storage_address(((ArrayObject *)out)->storage);
    int rc;
    KERNEL(rc, v.size, k_reduce((int)op, v.ndim, v.shape, v.data, xs, v.code, o, as, ksize, acc, NULL));
    if (run_status(rc) < 0)
        Py_CLEAR(out);
    return out;
}

/* from_list(list) -> a 1-D array of a non-empty flat list of exact Python
 * floats (float64) or of exact ints that fit int64 (int64); None otherwise
 * (the Python path: nesting, mixed kinds, bools, dtype rules). */
static PyObject *core_from_list(PyObject *mod, PyObject *list) {
    (void)mod;
    if (!ready || !PyList_CheckExact(list) || PyList_GET_SIZE(list) == 0)
        Py_RETURN_NONE;
    Py_ssize_t n = PyList_GET_SIZE(list);
    PyTypeObject *t = Py_TYPE(PyList_GET_ITEM(list, 0));
    if (t != &PyFloat_Type && t != &PyLong_Type)
        Py_RETURN_NONE;
    for (Py_ssize_t i = 1; i < n; i++)
        if (Py_TYPE(PyList_GET_ITEM(list, i)) != t)
            Py_RETURN_NONE;
    int64_t len = n;
    int code = t == &PyFloat_Type ? 10 : 4;
    PyObject *out = empty_dims(&len, 1, code, len);
    if (out == NULL)
        return NULL;
    char *p = storage_address(((ArrayObject *)out)->storage);
    for (Py_ssize_t i = 0; i < n; i++)
        if (!pack_scalar(PyList_GET_ITEM(list, i), code, p + 8 * i)) {
            Py_DECREF(out);  /* an int past int64: the Python path decides the dtype or the error */
            Py_RETURN_NONE;
        }
    return out;
}

/* copy_dense(dst, src) -> True when dst[...] = src was done here: both dense
 * and of one shape, a copy or a cast (a cast only where the two do not
 * overlap; a copy is a memmove, exact under overlap). False: the caller's
 * general path. */
/* The bytes a view reaches, [*lo, *hi), from its first element at first. */
static void reach(const view_t *v, const char *first, const char **lo, const char **hi) {
    int64_t l = 0, h = v->itemsize;
    for (int k = 0; k < v->ndim; k++) {
        int64_t r = (v->shape[k] - 1) * v->strides[k] * v->itemsize;  /* inside the storage */
        if (r < 0)
            l += r;
        else
            h += r;
    }
    *lo = first + l, *hi = first + h;
}

/* No byte of a (first element at pa) is a byte of b (at pb); both non-empty. */
static int disjoint(const view_t *a, const char *pa, const view_t *b, const char *pb) {
    const char *alo, *ahi, *blo, *bhi;
    reach(a, pa, &alo, &ahi);
    reach(b, pb, &blo, &bhi);
    return ahi <= blo || bhi <= alo;
}

static PyObject *core_copy_dense(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    view_t d, s;
    if (nargs < 2 || nargs > 3 || !read_view(args[0], &d) || !read_view(args[1], &s) || !d.dense
        || d.readonly || d.ndim != s.ndim || memcmp(d.shape, s.shape, sizeof(int64_t) * d.ndim) != 0
        || (nargs == 3 && args[2] == Py_True && !s.dense))
        Py_RETURN_FALSE;
    if (d.size == 0)
        Py_RETURN_TRUE;
    int64_t dbytes = d.size * d.itemsize;  /* inside its storage */
    if (d.code == s.code && s.dense && dbytes <= (1 << 16)) {
        memmove(d.data, s.data, (size_t)dbytes);  /* exact under overlap too */
        Py_RETURN_TRUE;
    }
    /* any other src layout or a cast, in one strided kernel call, where the
     * two do not overlap */
    if (!disjoint(&d, d.data, &s, s.data))
        Py_RETURN_FALSE;
    int64_t ds[FAST_DIMS], ss[FAST_DIMS], acc = d.itemsize;
    for (int k = s.ndim - 1; k >= 0; k--) {
        /* (a size-1 dim's stride may be anything, even past int64 in bytes) */
        ss[k] = s.shape[k] > 1 ? s.strides[k] * s.itemsize : 0;  /* inside the storage */
        ds[k] = acc;
        acc *= d.shape[k];
    }
    int64_t n = d.size;
    int rc;
    KERNEL(rc, n, k_cast(d.ndim, d.shape, d.data, ds, d.code, s.data, ss, s.code));
    if (run_status(rc) < 0)
        return NULL;
    Py_RETURN_TRUE;
}

/* where(condition, x1, x2) -> a new array, for a dense bool condition and
 * dense x1, x2 of one dtype and the condition's shape (either may be a
 * Python scalar of the other's kind); None otherwise (the Python path). */
static PyObject *core_where(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    view_t c, a, b;
    char ia[16], ib[16];
    if (nargs != 3 || !read_view(args[0], &c) || c.code != 0 || !c.dense)
        Py_RETURN_NONE;
    int fa = read_view(args[1], &a), fb = read_view(args[2], &b);
    const char *pa = NULL, *pb = NULL;
    int64_t sa = 0, sb = 0;
    int code = 0;
    /* an array operand of the condition's shape, or a 0-d one (read like a scalar) */
    if (fa) {
        if (a.ndim != 0 && (!a.dense || a.ndim != c.ndim || memcmp(a.shape, c.shape, sizeof(int64_t) * c.ndim) != 0))
            Py_RETURN_NONE;
        code = a.code, pa = a.data, sa = a.ndim ? a.itemsize : 0;
    }
    if (fb) {
        if ((b.ndim != 0 && (!b.dense || b.ndim != c.ndim || memcmp(b.shape, c.shape, sizeof(int64_t) * c.ndim) != 0))
            || (fa && b.code != a.code))
            Py_RETURN_NONE;
        code = b.code, pb = b.data, sb = b.ndim ? b.itemsize : 0;
    }
    if (!fa && !fb)
        Py_RETURN_NONE;
    if (!fa) {
        if (!pack_scalar(args[1], code, ia))
            Py_RETURN_NONE;
        pa = ia, sa = 0;
    }
    if (!fb) {
        if (!pack_scalar(args[2], code, ib))
            Py_RETURN_NONE;
        pb = ib, sb = 0;
    }
    PyObject *out = empty_array(SLOT(((ArrayObject *)args[0])->layout, off_shape), code, c.size);
    if (out == NULL || c.size == 0)
        return out;
    int64_t isz = DINFO[code].itemsize, dims[5] = {c.size, isz, 1, sa, sb};
    char *o = storage_address(((ArrayObject *)out)->storage);
    int rc;
    KERNEL(rc, c.size, k_where(isz, 1, dims, o, c.data, pa, pb));
    if (run_status(rc) < 0)
        Py_CLEAR(out);
    return out;
}

/* concat0(arrays) -> the arrays joined along axis 0, for a list or tuple of
 * dense arrays of one dtype and ndim >= 1 whose other dims match; None
 * otherwise (the Python path: promotion, other layouts, errors). */
static PyObject *core_concat0(PyObject *mod, PyObject *arrays) {
    (void)mod;
    if (!PyList_CheckExact(arrays) && !PyTuple_CheckExact(arrays))
        Py_RETURN_NONE;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(arrays);
    PyObject **items = PySequence_Fast_ITEMS(arrays);
    enum { MAX_PARTS = 32 };
    view_t v[MAX_PARTS];
    if (count < 1 || count > MAX_PARTS)
        Py_RETURN_NONE;
    int64_t total = 0, bytes = 0, nb;
    for (Py_ssize_t i = 0; i < count; i++) {
        if (!read_view(items[i], &v[i]) || !v[i].dense || v[i].ndim < 1 || v[i].code != v[0].code
            || v[i].ndim != v[0].ndim
            || memcmp(v[i].shape + 1, v[0].shape + 1, sizeof(int64_t) * (v[0].ndim - 1)) != 0
            || __builtin_add_overflow(total, v[i].shape[0], &total)
            || __builtin_mul_overflow(v[i].size, (int64_t)v[i].itemsize, &nb)
            || __builtin_add_overflow(bytes, nb, &bytes) || bytes > ((int64_t)1 << 62))
            Py_RETURN_NONE;
    }
    int64_t shape[FAST_DIMS];
    memcpy(shape, v[0].shape, sizeof(int64_t) * v[0].ndim);
    shape[0] = total;
    PyObject *out = empty_dims(shape, v[0].ndim, v[0].code, bytes / v[0].itemsize);
    if (out == NULL)
        return NULL;
    char *o = storage_address(((ArrayObject *)out)->storage);
    for (Py_ssize_t i = 0; i < count; i++) {
        size_t n = (size_t)(v[i].size * v[i].itemsize);
        if (n)
            memcpy(o, v[i].data, n);
        o += n;
    }
    return out;
}

/* matmul(x1, x2) -> x1 @ x2 for 1-D/2-D operands of one dtype with matching
 * inner dims, or None (the Python path: batches, promotion, errors). */
static PyObject *core_matmul(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    view_t a, b;
    if (nargs != 2 || !read_view(args[0], &a) || !read_view(args[1], &b) || a.code != b.code
        || a.ndim < 1 || a.ndim > 2 || b.ndim < 1 || b.ndim > 2 || DINFO[a.code].kind == K_BOOL)
        Py_RETURN_NONE;
    int64_t m = a.ndim == 2 ? a.shape[0] : 1, k = a.shape[a.ndim - 1];
    int64_t k2 = b.shape[0], n = b.ndim == 2 ? b.shape[1] : 1;
    int64_t isz = a.itemsize, abytes, bbytes, obytes;
    if (k != k2 || __builtin_mul_overflow(a.size, isz, &abytes) || __builtin_mul_overflow(b.size, isz, &bbytes)
        || abytes > ((int64_t)1 << 62) || bbytes > ((int64_t)1 << 62))
        Py_RETURN_NONE;
    int64_t as[2] = {a.ndim == 2 ? a.strides[0] : 0, a.strides[a.ndim - 1]};
    int64_t bs[2] = {b.strides[0], b.ndim == 2 ? b.strides[1] : 0};
    for (int i = 0; i < 2; i++) {  /* byte strides: 0 for dims C never steps along */
        if (__builtin_mul_overflow(as[i], isz, &as[i]))
            as[i] = 0;
        if (__builtin_mul_overflow(bs[i], isz, &bs[i]))
            bs[i] = 0;
    }
    if (__builtin_mul_overflow(m, n, &obytes) || __builtin_mul_overflow(obytes, isz, &obytes)
        || obytes > ((int64_t)1 << 62))
        Py_RETURN_NONE;
    if (!blas_ready && (DINFO[a.code].kind == K_FLOAT || DINFO[a.code].kind == K_COMPLEX)) {
        PyObject *r = PyObject_CallNoArgs(ensure_blas);
        if (r == NULL)
            return NULL;
        Py_DECREF(r);
        blas_ready = 1;
    }
    int64_t oshape[2];
    int ond = 0;
    if (a.ndim == 2)
        oshape[ond++] = m;
    if (b.ndim == 2)
        oshape[ond++] = n;
    PyObject *out = empty_dims(oshape, ond, a.code, m * n);
    if (out == NULL)
        return NULL;
    char *o = storage_address(((ArrayObject *)out)->storage);
    if (m * n == 0)
        return out;
    if (k == 0) {
        memset(o, 0, (size_t)(m * n * isz));
        return out;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = k_matmul(a.code, 0, NULL, m, n, k, a.data, as, b.data, bs, o);
    Py_END_ALLOW_THREADS
    if (run_status(rc) < 0)
        Py_CLEAR(out);
    return out;
}

/* ---- x[key] ------------------------------------------------------------------------ */

static PyObject *tuple_i64(const int64_t *v, int n) {
    PyObject *t = PyTuple_New(n);
    if (t == NULL)
        return NULL;
    for (int k = 0; k < n; k++) {
        PyObject *x = PyLong_FromLongLong(v[k]);
        if (x == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, k, x);
    }
    return t;
}

/* A view of `self` (described by v) with the given layout values. */
static PyObject *view_of(PyObject *self, const int64_t *shape, const int64_t *strides, int ndim,
                         int64_t offset, int64_t size) {
    ArrayObject *a = (ArrayObject *)self;
    PyObject *lay = new_layout_steal(tuple_i64(shape, ndim), tuple_i64(strides, ndim),
                                     PyLong_FromLongLong(offset), PyLong_FromLongLong(size));
    if (lay == NULL)
        return NULL;
    Py_INCREF(a->storage);
    Py_INCREF(a->dtype);
    return new_array_steal(a->storage, lay, a->dtype);
}

/* v indexed by a basic key: an int, a slice, or a tuple of ints, slices,
 * None and at most one ... (no arrays), with a non-empty result: 1 with the
 * view's layout in out, 0 not a fast case. A new axis has stride 0, as
 * _layout.insert_dims gives it. */
static int index_basic(const view_t *v, PyObject *key, view_t *out) {
    int tuple = PyTuple_CheckExact(key);
    Py_ssize_t nk = tuple ? PyTuple_GET_SIZE(key) : 1;
    if (v->size == 0)
        return 0;
    int used = 0, ellipses = 0, nnew = 0;
    for (Py_ssize_t k = 0; k < nk; k++) {
        PyObject *it = tuple ? PyTuple_GET_ITEM(key, k) : key;
        if (it == Py_None)
            nnew++;
        else if (it == Py_Ellipsis)
            ellipses++;
        else if (PyLong_CheckExact(it) || PySlice_Check(it))
            used++;
        else
            return 0;
    }
    if (used > v->ndim || ellipses > 1 || v->ndim + nnew > FAST_DIMS)
        return 0;
    int od = 0, axis = 0;
    int64_t offset = v->offset, size = 1;
    for (Py_ssize_t k = 0; k < nk; k++) {
        PyObject *it = tuple ? PyTuple_GET_ITEM(key, k) : key;
        if (it == Py_None) {
            out->shape[od] = 1;
            out->strides[od++] = 0;
            continue;
        }
        if (it == Py_Ellipsis) {
            for (int e = v->ndim - used; e > 0; e--, axis++) {
                out->shape[od] = v->shape[axis];
                out->strides[od++] = v->strides[axis];
                size *= v->shape[axis];
            }
            continue;
        }
        int64_t n = v->shape[axis], s = v->strides[axis], shift;
        axis++;
        if (PyLong_CheckExact(it)) {
            int ok = 1;
            int64_t i = as_i64(it, &ok);
            if (!ok || i < -n || i >= n)
                return 0;
            if (i < 0)
                i += n;
            if (__builtin_mul_overflow(i, s, &shift) || __builtin_add_overflow(offset, shift, &offset))
                return 0;
        } else {
            Py_ssize_t start, stop, step;
            if (PySlice_Unpack(it, &start, &stop, &step) < 0) {
                PyErr_Clear();
                return 0;
            }
            PyObject *kstep = ((PySliceObject *)it)->step;
            if ((kstep != Py_None && !PyLong_CheckExact(kstep)) || step == PY_SSIZE_T_MAX
                || step <= -PY_SSIZE_T_MAX)
                return 0;
            Py_ssize_t m = PySlice_AdjustIndices((Py_ssize_t)n, &start, &stop, step);
            if (m == 0 || __builtin_mul_overflow(s, (int64_t)step, &out->strides[od])
                || __builtin_mul_overflow((int64_t)start, s, &shift)
                || __builtin_add_overflow(offset, shift, &offset))
                return 0;  /* an empty result: the Python path keeps its offset rule */
            out->shape[od++] = m;
            size *= m;  /* at most v's size */
        }
    }
    for (; axis < v->ndim; axis++) {
        out->shape[od] = v->shape[axis];
        out->strides[od++] = v->strides[axis];
        size *= v->shape[axis];
    }
    out->ndim = od;
    out->offset = offset;
    out->size = size;
    return 1;
}

/* No two indices of w reach one element: its dims of size > 1, sorted by
 * |stride|, nest without interleaving (what _layout.has_internal_overlap
 * decides at once; 0 leaves the rest to it). */
static int nests(const view_t *w) {
    int64_t st[FAST_DIMS], sh[FAST_DIMS];
    int n = 0;
    for (int k = 0; k < w->ndim; k++)
        if (w->shape[k] > 1) {
            int64_t s = w->strides[k] < 0 ? -w->strides[k] : w->strides[k];
            int j = n++;
            while (j > 0 && st[j - 1] > s) {
                st[j] = st[j - 1], sh[j] = sh[j - 1];
                j--;
            }
            st[j] = s, sh[j] = w->shape[k];
        }
    int64_t reach = 0;
    for (int k = 0; k < n; k++) {
        if (st[k] == 0 || st[k] <= reach)
            return 0;
        reach += (sh[k] - 1) * st[k];  /* inside the storage: no overflow */
    }
    return 1;
}

/* A bool mask of the leading dims of a dense v (all of them, or the first
 * few: each true element then selects a block of the trailing dims), in any
 * layout: 1 with its elements in C order in *bytes, their count of true
 * elements and the block's element count, 0 not a fast case. A dense mask
 * is read in place, unless it lies in v's memory shifted (a write could
 * change a mask element not yet read; NumPy reads the whole mask first);
 * any other is copied first into *tmp, which the caller frees. */
static int read_mask(const view_t *v, const view_t *w, const char **bytes, char **tmp,
                     int64_t *count, int64_t *block) {
    *tmp = NULL;
    if (w->code != 0 || !v->dense || w->ndim > v->ndim || w->ndim == 0
        || memcmp(w->shape, v->shape, sizeof(int64_t) * w->ndim) != 0)
        return 0;
    if (w->dense) {
        if (w->data != v->data && w->data < v->data + v->size * v->itemsize && v->data < w->data + w->size)
            return 0;
        *bytes = w->data;
    } else {
        char *m = malloc((size_t)w->size + 1);
        if (m == NULL)
            return 0;
        /* rows of the last dim, the outer dims by an odometer (every offset
         * is inside the storage: no overflow) */
        int last = w->ndim - 1;
        int64_t idx[FAST_DIMS] = {0}, off = 0, n = w->shape[last], st = w->strides[last];
        for (int64_t i = 0; i < w->size; i += n) {
            for (int64_t j = 0; j < n; j++)
                m[i + j] = w->data[off + j * st];
            for (int k = last - 1; k >= 0; k--) {
                off += w->strides[k];
                if (++idx[k] < w->shape[k])
                    break;
                off -= w->strides[k] * w->shape[k];
                idx[k] = 0;
            }
        }
        *bytes = *tmp = m;
    }
    int64_t c = 0, b = 1;
    for (int k = w->ndim; k < v->ndim; k++)
        b *= v->shape[k];  /* at most v's size */
    for (int64_t i = 0; i < w->size; i++)
        c += (*bytes)[i] != 0;
    *count = c;
    *block = b;
    return 1;
}

static PyObject *array_subscript(PyObject *self, PyObject *key) {
    view_t v, w;
    int64_t count, block;
    if (read_view(self, &v)) {
        if (index_basic(&v, key, &w))
            return view_of(self, w.shape, w.strides, w.ndim, w.offset, w.size);
        /* x[mask]: the elements (or blocks) where a mask of x's leading dims
         * is true, in C order */
        const char *mb;
        char *tmp;
        if (read_view(key, &w) && read_mask(&v, &w, &mb, &tmp, &count, &block)) {
            int64_t dims[FAST_DIMS];
            int nd = 1 + v.ndim - w.ndim;
            dims[0] = count;
            memcpy(dims + 1, v.shape + w.ndim, sizeof(int64_t) * (nd - 1));
            PyObject *out = empty_dims(dims, nd, v.code, count * block);
            view_t o;
            int64_t bb = block * v.itemsize;
            if (out != NULL && count > 0 && bb > 0 && read_view(out, &o)) {
                char *dst = o.data;
                for (int64_t i = 0; i < w.size; i++)
                    if (mb[i]) {
                        memcpy(dst, v.data + i * bb, (size_t)bb);
                        dst += bb;
                    }
            }
            free(tmp);
            return out;
        }
    }
    if (PyErr_Occurred())
        return NULL;
    PyObject *args[2] = {self, key};
    return call_fallback(F_GETITEM, args, 2);
}

/* ---- x[key] = value ------------------------------------------------------------------ */

static int array_ass_subscript(PyObject *self, PyObject *key, PyObject *value) {
    view_t v, w, s;
    char item[16];
    int64_t count, block;
    if (value == NULL || !read_view(self, &v) || v.readonly)
        goto slow;
    if (read_view(key, &w)) {
        /* x[mask] = value over a dense x, for a mask of its leading dims */
        const char *mb;
        char *tmp;
        if (!read_mask(&v, &w, &mb, &tmp, &count, &block))
            goto slow;
        int inner = v.ndim - w.ndim, isz = v.itemsize;
        int64_t bb = block * isz;
        const char *src = item;
        int64_t step;  /* bytes the source moves per selected block */
        int fill;      /* one element for every selected element */
        if (bb == 0) {
            goto slow_mask;  /* empty blocks: the Python path checks the value's shape */
        } else if (pack_scalar(value, v.code, item)) {
            step = 0, fill = 1;
        } else if (read_view(value, &s) && s.code == v.code && s.dense
                   && !(s.data < v.data + v.size * isz && v.data < s.data + s.size * s.itemsize)) {
            /* an array of x's dtype outside x's memory: one element, or one
             * block per true element (shape (count,) + the trailing dims) */
            if (s.size == 1 && s.ndim <= 1 + inner) {
                step = 0, fill = 1;
            } else if (s.ndim == 1 + inner && s.shape[0] == count
                       && memcmp(s.shape + 1, v.shape + w.ndim, sizeof(int64_t) * inner) == 0) {
                step = bb, fill = 0;
            } else {
                goto slow_mask;
            }
            src = s.data;
        } else {
            goto slow_mask;
        }
        for (int64_t i = 0; i < w.size; i++)
            if (mb[i]) {
                char *dst = v.data + i * bb;
                if (fill)
                    for (int64_t j = 0; j < block; j++)
                        memcpy(dst + j * isz, src, isz);
                else
                    memcpy(dst, src, (size_t)bb);
                src += step;
            }
        free(tmp);
        return 0;
    slow_mask:
        free(tmp);
        goto slow;
    }
    if (!index_basic(&v, key, &w))
        goto slow;
    char *base = storage_address(((ArrayObject *)self)->storage);
    int isz = v.itemsize;
    if (pack_scalar(value, v.code, item)) {
        if (!nests(&w))
            goto slow;  /* one element reached twice (or not known): the Python path decides */
        /* every element written lies inside the storage, so no offset overflows */
        int64_t idx[FAST_DIMS] = {0}, bs[FAST_DIMS], off = w.offset * isz;
        for (int k = 0; k < w.ndim; k++)
            bs[k] = w.shape[k] > 1 ? w.strides[k] * isz : 0;
        for (int64_t i = 0; i < w.size; i++) {
            memcpy(base + off, item, isz);
            for (int k = w.ndim - 1; k >= 0; k--) {
                off += bs[k];
                if (++idx[k] < w.shape[k])
                    break;
                off -= bs[k] * w.shape[k];
                idx[k] = 0;
            }
        }
        return 0;
    }
    if (PyErr_Occurred())
        return -1;
    /* an array of the destination's dtype and shape, both dense: one memmove
     * (exact when the two overlap) */
    if (read_view(value, &s) && s.code == v.code && s.ndim == w.ndim
        && memcmp(s.shape, w.shape, sizeof(int64_t) * w.ndim) == 0) {
        char *dst = base + w.offset * isz;
        if (s.dense && is_dense(&w)) {
            memmove(dst, s.data, (size_t)(w.size * isz));
            return 0;
        }
        /* other layouts: one strided copy, where no element of the
         * destination is reached twice and the value lies outside it */
        w.itemsize = isz;
        if (nests(&w) && disjoint(&w, dst, &s, s.data)) {
            int64_t ds[FAST_DIMS], ss[FAST_DIMS], n = w.size;
            for (int k = 0; k < w.ndim; k++) {  /* size-1 dims: any stride, unused */
                ds[k] = w.shape[k] > 1 ? w.strides[k] * isz : 0;
                ss[k] = s.shape[k] > 1 ? s.strides[k] * isz : 0;
            }
            int rc;
            KERNEL(rc, n, k_cast(w.ndim, w.shape, dst, ds, v.code, s.data, ss, s.code));
            return run_status(rc) < 0 ? -1 : 0;
        }
    }
slow:
    if (PyErr_Occurred())
        return -1;
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "Array.__delitem__: arrstride arrays do not support deleting elements");
        return -1;
    }
    PyObject *args[3] = {self, key, value};
    PyObject *r = call_fallback(F_SETITEM, args, 3);
    if (r == NULL)
        return -1;
    Py_DECREF(r);
    return 0;
}

/* ---- float(x), int(x), bool(x), complex(x), operator.index(x) -------------------------- */

/* The one element of a one-element array as a Python scalar, or NULL without
 * an exception when the Python path must decide. */
static PyObject *one_element(PyObject *self, int *code) {
    view_t v;
    if (!read_view(self, &v) || v.size != 1)
        return NULL;
    *code = v.code;
    return read_scalar(v.data, v.code);
}

enum { KINDS_REAL = 1 << K_BOOL | 1 << K_INT | 1 << K_UINT | 1 << K_FLOAT,
       KINDS_INT = 1 << K_INT | 1 << K_UINT };

/* conv(the one element) when the array has one element of a kind in `kinds`
 * (conv NULL: the element itself); else the Python implementation `which`. */
static PyObject *convert_one(PyObject *self, unsigned kinds, PyObject *(*conv)(PyObject *), int which) {
    int code;
    PyObject *s = one_element(self, &code);
    if (s != NULL && (kinds >> DINFO[code].kind & 1)) {
        if (conv == NULL)
            return s;
        PyObject *r = conv(s);
        Py_DECREF(s);
        return r;
    }
    Py_XDECREF(s);
    if (PyErr_Occurred())
        return NULL;
    return call_fallback(which, &self, 1);
}

static PyObject *array_float(PyObject *self) {
    return convert_one(self, KINDS_REAL, PyNumber_Float, F_FLOAT);
}

static PyObject *array_int(PyObject *self) {
    return convert_one(self, KINDS_REAL, PyNumber_Long, F_INT);
}

static PyObject *array_index(PyObject *self) {
    return convert_one(self, KINDS_INT, NULL, F_INDEX);
}

static int array_bool(PyObject *self) {
    int code;
    PyObject *s = one_element(self, &code);
    if (s != NULL) {
        int r = PyObject_IsTrue(s);
        Py_DECREF(s);
        return r;
    }
    if (PyErr_Occurred())
        return -1;
    PyObject *r = call_fallback(F_BOOL, &self, 1);
    if (r == NULL)
        return -1;
    int t = PyObject_IsTrue(r);
    Py_DECREF(r);
    return t;
}

static PyObject *array_complex(PyObject *self, PyObject *unused) {
    (void)unused;
    int code;
    PyObject *s = one_element(self, &code);
    if (s != NULL) {
        Py_complex c = PyComplex_AsCComplex(s);
        Py_DECREF(s);
        if (c.real == -1.0 && PyErr_Occurred())
            return NULL;
        return PyComplex_FromCComplex(c);
    }
    if (PyErr_Occurred())
        return NULL;
    return call_fallback(F_COMPLEX, &self, 1);
}

/* ---- Elementwise: the object behind each elementwise function ------------------------ */

typedef struct {
    PyObject_HEAD
    PyObject *name;          /* str */
    PyObject *impl;          /* the Python implementation: every rule and message */
    int op, nargs;           /* kernel op code; 1 or 2 operands */
    signed char out[NCODES]; /* output dtype code per input dtype code, -1: no kernel */
    vectorcallfunc vectorcall;
} ElementwiseObject;

static PyTypeObject ElementwiseType;

static int run_status(int rc) {
    if (rc == 0)
        return 0;
    PyObject *code = PyLong_FromLong(rc);
    if (code != NULL) {
        PyObject *r = PyObject_CallOneArg(check_status, code);
        Py_DECREF(code);
        Py_XDECREF(r);
        if (r != NULL && !PyErr_Occurred())
            PyErr_Format(PyExc_RuntimeError, "arrstride: kernel status %d", rc);
    }
    return -1;
}

/* A new contiguous array like v (its shape tuple taken from self's layout)
 * of dtype code `code`; its data pointer in *data. */
static PyObject *empty_like(PyObject *self, const view_t *v, int code, char **data) {
    PyObject *shape = SLOT(((ArrayObject *)self)->layout, off_shape);
    PyObject *out = empty_array(shape, code, v->size);
    if (out != NULL)
        *data = storage_address(((ArrayObject *)out)->storage);
    return out;
}

/* dims for ars_binary: the broadcast shape of dense a and b (right-aligned),
 * then the byte strides of a C-ordered output (items of out_itemsize), of a
 * and of b (0 along
 * broadcast dims). 1 done (*nd set), 0 the shapes do not broadcast here. */
static int broadcast_dims(const view_t *a, const view_t *b, int64_t out_itemsize, int64_t *dims, int *nd) {
    int n = a->ndim > b->ndim ? a->ndim : b->ndim;
    int64_t *shape = dims, *os = dims + n, *as = dims + 2 * n, *bs = dims + 3 * n;
    for (int k = 0; k < n; k++) {
        int ka = k - (n - a->ndim), kb = k - (n - b->ndim);
        int64_t da = ka >= 0 ? a->shape[ka] : 1, db = kb >= 0 ? b->shape[kb] : 1;
        if (da != db && da != 1 && db != 1)
            return 0;
        shape[k] = da == 1 ? db : da;
        as[k] = ka >= 0 && da != 1 ? a->strides[ka] * a->itemsize : 0;  /* inside a's storage */
        bs[k] = kb >= 0 && db != 1 ? b->strides[kb] * b->itemsize : 0;
    }
    int64_t st = out_itemsize;
    for (int k = n - 1; k >= 0; k--) {
        os[k] = st;
        if (__builtin_mul_overflow(st, shape[k], &st))
            return 0;
    }
    *nd = n;
    return 1;
}

/* a op b for dense arrays of one dtype whose shapes differ but broadcast:
 * a new C-ordered array, or NULL without an exception when not a fast case. */
static PyObject *ew_broadcast(ElementwiseObject *e, const view_t *va, const view_t *vb) {
    int64_t dims[4 * FAST_DIMS];
    int nd, oc = e->out[va->code];
    if (oc < 0 || !broadcast_dims(va, vb, DINFO[oc].itemsize, dims, &nd))
        return NULL;
    int64_t size = 1;
    for (int k = 0; k < nd; k++)
        size *= dims[k];  /* fits: checked by broadcast_dims' stride product */
    PyObject *out = empty_dims(dims, nd, oc, size);
    if (out == NULL || size == 0)
        return out;
    char *o = storage_address(((ArrayObject *)out)->storage);
    int rc;
    KERNEL(rc, size, k_binary(e->op, va->code, nd, dims, o, va->data, vb->data));
    if (run_status(rc) < 0)
        Py_CLEAR(out);
    return out;
}

/* A Python scalar packed into item (of like's dtype) as a 0-d view, the
 * operand the N-D kernels read with stride 0. */
static view_t scalar_view(const view_t *like, char *item) {
    view_t sc = {0};
    sc.itemsize = like->itemsize, sc.code = like->code, sc.data = item, sc.size = 1;
    return sc;
}

/* The output layout _elementwise_functions._empty_like_order gives (NumPy's
 * order "K"): the memory order of the first input that covers shape without
 * a zero stride, else C order. Writes element strides to ostr. */
static void order_like(const int64_t *shape, int n, const view_t *const *ins, int nin, int64_t *ostr) {
    int perm[FAST_DIMS];
    int64_t acc = 1;
    for (int k = n - 1; k >= 0; k--) {
        ostr[k] = acc;
        acc *= shape[k] > 1 ? shape[k] : 1;
    }
    if (n < 2)
        return;
    for (int i = 0; i < nin; i++) {
        const view_t *v = ins[i];
        if (v->ndim != n || memcmp(v->shape, shape, sizeof(int64_t) * n) != 0)
            continue;
        int ok = 1;
        for (int k = 0; k < n; k++)
            ok &= v->strides[k] != 0 || shape[k] == 1;
        if (!ok)
            continue;
        /* a stable sort of the dims by -|stride| (size-1 dims: key 0) */
        int64_t key[FAST_DIMS];
        for (int k = 0; k < n; k++) {
            int64_t a = shape[k] == 1 ? 0 : v->strides[k] < 0 ? -v->strides[k] : v->strides[k];
            key[k] = -a;  /* (a size-1 dim's stride, any value, counts as 0) */
            int j = k;
            while (j > 0 && key[perm[j - 1]] > key[k]) {
                perm[j] = perm[j - 1];
                j--;
            }
            perm[j] = k;
        }
        acc = 1;
        for (int j = n - 1; j >= 0; j--) {
            ostr[perm[j]] = acc;
            acc *= shape[perm[j]] > 1 ? shape[perm[j]] : 1;
        }
        return;
    }
}

/* e on operands of one dtype in any layout (b NULL: unary; b may be a
 * packed scalar, given as a 0-d view): a new array in order_like's layout,
 * computed by one N-D kernel call; NULL without an exception when not a fast
 * case. */
static PyObject *ew_strided(ElementwiseObject *e, const view_t *va, const view_t *vb) {
    int64_t dims[4 * FAST_DIMS], ostr[FAST_DIMS];
    int nd, oc = e->out[va->code];
    if (oc < 0)
        return NULL;
    view_t none = {0};
    none.itemsize = va->itemsize;
    if (!broadcast_dims(va, vb ? vb : &none, DINFO[oc].itemsize, dims, &nd))
        return NULL;
    int64_t size = 1;
    for (int k = 0; k < nd; k++)
        size *= dims[k];  /* fits: checked by broadcast_dims' stride product */
    if (size == 0)
        return NULL;  /* empty: the Python path */
    const view_t *ins[2] = {va, vb};
    order_like(dims, nd, ins, vb ? 2 : 1, ostr);
    int64_t nbytes = size * DINFO[oc].itemsize;
    PyObject *st = new_storage((Py_ssize_t)nbytes);
    if (st == NULL)
        return NULL;
    PyObject *lay = new_layout_steal(tuple_i64(dims, nd), tuple_i64(ostr, nd), PyLong_FromLong(0),
                                     PyLong_FromLongLong(size));
    if (lay == NULL) {
        Py_DECREF(st);
        return NULL;
    }
    Py_INCREF(DINFO[oc].dtype);
    PyObject *out = new_array_steal(st, lay, DINFO[oc].dtype);
    if (out == NULL)
        return NULL;
    for (int k = 0; k < nd; k++)
        dims[nd + k] = ostr[k] * DINFO[oc].itemsize;
    char *o = storage_address(((ArrayObject *)out)->storage);
    int rc;
    if (vb == NULL) {
        /* unary dims: shape, out strides, x strides */
        KERNEL(rc, size, k_unary(e->op, va->code, nd, dims, o, va->data));
    } else {
        KERNEL(rc, size, k_binary(e->op, va->code, nd, dims, o, va->data, vb->data));
    }
    if (run_status(rc) < 0)
        Py_CLEAR(out);
    return out;
}

/* The dense fast path of e on (a) or (a, b); NULL without an exception when
 * the call is not a fast case. */
static PyObject *ew_fast(ElementwiseObject *e, PyObject *a, PyObject *b) {
    view_t va, vb;
    char item[16];
    char *out_data;
    PyObject *out;
    int rc;
    if (b == NULL) {
        if (!read_view(a, &va) || e->out[va.code] < 0)
            return NULL;
        if (!va.dense)
            return ew_strided(e, &va, NULL);
        out = empty_like(a, &va, e->out[va.code], &out_data);
        if (out == NULL)
            return NULL;
        KERNEL(rc, va.size, k_unary_flat(e->op, va.code, va.size, out_data, va.data, va.itemsize));
        if (run_status(rc) < 0)
            Py_CLEAR(out);
        return out;
    }
    int fa = read_view(a, &va), fb = read_view(b, &vb);
    const char *pa, *pb;
    int64_t sa, sb;
    PyObject *like;
    view_t *v;
    if (fa && fb) {
        if (va.code != vb.code)
            return NULL;
        if (!va.dense || !vb.dense)
            return ew_strided(e, &va, &vb);
        if (va.ndim != vb.ndim || memcmp(va.shape, vb.shape, sizeof(int64_t) * va.ndim) != 0)
            return ew_broadcast(e, &va, &vb);
        pa = va.data, sa = va.itemsize, pb = vb.data, sb = vb.itemsize, like = a, v = &va;
    } else if (fa) {
        if (!pack_scalar(b, va.code, item))
            return NULL;
        if (!va.dense) {
            view_t sc = scalar_view(&va, item);
            return ew_strided(e, &va, &sc);
        }
        pa = va.data, sa = va.itemsize, pb = item, sb = 0, like = a, v = &va;
    } else if (fb) {
        if (!pack_scalar(a, vb.code, item))
            return NULL;
        if (!vb.dense) {
            view_t sc = scalar_view(&vb, item);
            return ew_strided(e, &sc, &vb);
        }
        pa = item, sa = 0, pb = vb.data, sb = vb.itemsize, like = b, v = &vb;
    } else {
        return NULL;
    }
    int oc = e->out[v->code];
    if (oc < 0)
        return NULL;
    out = empty_like(like, v, oc, &out_data);
    if (out == NULL)
        return NULL;
    KERNEL(rc, v->size, k_binary_flat(e->op, v->code, v->size, out_data, pa, sa, pb, sb));
    if (run_status(rc) < 0)
        Py_CLEAR(out);
    return out;
}

static PyObject *ew_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    ElementwiseObject *e = (ElementwiseObject *)self;
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (kwnames == NULL && n == e->nargs && ready) {
        PyObject *r = ew_fast(e, args[0], n == 2 ? args[1] : NULL);
        if (r != NULL || PyErr_Occurred())
            return r;
    }
    return PyObject_Vectorcall(e->impl, args, nargsf, kwnames);
}

static PyObject *ew_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"name", "op", "nargs", "table", "impl", NULL};
    PyObject *name, *table, *impl;
    int op, nargs;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "UiiOO:Elementwise", kwlist, &name, &op, &nargs,
                                     &table, &impl))
        return NULL;
    if (nargs != 1 && nargs != 2) {
        PyErr_SetString(PyExc_ValueError, "Elementwise: nargs is 1 or 2");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(table, "Elementwise: table is a sequence of output codes");
    if (seq == NULL)
        return NULL;
    ElementwiseObject *e = (ElementwiseObject *)type->tp_alloc(type, 0);
    if (e == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    for (int k = 0; k < NCODES; k++) {
        long c = -1;
        if (k < PySequence_Fast_GET_SIZE(seq)) {
            c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
            if (c == -1 && PyErr_Occurred()) {
                Py_DECREF(seq);
                Py_DECREF(e);
                return NULL;
            }
        }
        e->out[k] = (signed char)(c >= 0 && c < NCODES ? c : -1);
    }
    Py_DECREF(seq);
    Py_INCREF(name);
    Py_INCREF(impl);
    e->name = name;
    e->impl = impl;
    e->op = op;
    e->nargs = nargs;
    e->vectorcall = ew_vectorcall;
    return (PyObject *)e;
}

static int ew_traverse(ElementwiseObject *e, visitproc visit, void *arg) {
    Py_VISIT(e->impl);
    return 0;
}

static int ew_clear(ElementwiseObject *e) {
    Py_CLEAR(e->impl);
    return 0;
}

static void ew_dealloc(ElementwiseObject *e) {
    PyObject_GC_UnTrack(e);
    ew_clear(e);
    Py_CLEAR(e->name);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

static PyObject *ew_repr(ElementwiseObject *e) {
    return PyUnicode_FromFormat("<arrstride function %U>", e->name);
}

static PyObject *ew_get_doc(ElementwiseObject *e, void *c) {
    (void)c;
    return PyObject_GetAttrString(e->impl, "__doc__");
}

static PyObject *ew_get_module(ElementwiseObject *e, void *c) {
    (void)e;
    (void)c;
    return PyUnicode_FromString("arrstride");
}

static PyObject *ew_descr_get(PyObject *self, PyObject *obj, PyObject *type) {
    (void)type;  /* bound like a function, so that it serves as a method too */
    if (obj == NULL || obj == Py_None) {
        Py_INCREF(self);
        return self;
    }
    return PyMethod_New(self, obj);
}

/* Pickled by name, as a function is: arrstride.<name>. */
static PyObject *ew_reduce(ElementwiseObject *e, PyObject *unused) {
    (void)unused;
    Py_INCREF(e->name);
    return e->name;
}

static PyMethodDef ew_methods[] = {
    {"__reduce__", (PyCFunction)ew_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}};

static PyMemberDef ew_members[] = {
    {"__name__", T_OBJECT, offsetof(ElementwiseObject, name), READONLY, NULL},
    {"__qualname__", T_OBJECT, offsetof(ElementwiseObject, name), READONLY, NULL},
    {"__wrapped__", T_OBJECT, offsetof(ElementwiseObject, impl), READONLY,
     "the Python implementation (inspect.signature reads its signature)"},
    {"op", T_INT, offsetof(ElementwiseObject, op), READONLY, "the kernel's op code"},
    {"nargs", T_INT, offsetof(ElementwiseObject, nargs), READONLY, NULL},
    {NULL, 0, 0, 0, NULL}};

static PyGetSetDef ew_getset[] = {
    {"__doc__", (getter)ew_get_doc, NULL, NULL, NULL},
    {"__module__", (getter)ew_get_module, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject ElementwiseType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "arrstride._core.Elementwise",
    .tp_basicsize = sizeof(ElementwiseObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL
                | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "Elementwise(name, op, nargs, table, impl): an elementwise function. A call on "
              "dense arrays of one dtype and shape (or one array and a Python scalar of its "
              "kind) runs the kernel directly; any other call goes to impl.",
    .tp_new = ew_new,
    .tp_dealloc = (destructor)ew_dealloc,
    .tp_traverse = (traverseproc)ew_traverse,
    .tp_clear = (inquiry)ew_clear,
    .tp_repr = (reprfunc)ew_repr,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(ElementwiseObject, vectorcall),
    .tp_members = ew_members,
    .tp_methods = ew_methods,
    .tp_getset = ew_getset,
    .tp_descr_get = ew_descr_get,
};

/* ---- operators --------------------------------------------------------------------- */

/* Binary operators, in the order of OPERATOR_NAMES; each has the Elementwise
 * object of its fast path and the Python implementations of `x op y`
 * (forward, called as (x, y)) and `y op x` (reflected, called as (x, y)). */
enum { O_ADD, O_SUB, O_MUL, O_TRUEDIV, O_FLOORDIV, O_MOD, O_POW, O_AND, O_OR, O_XOR, O_LSHIFT, O_RSHIFT,
       O_LT, O_LE, O_EQ, O_NE, O_GT, O_GE, O_NEG, O_POS, O_ABS, O_INVERT, O_COUNT };
static const char *OPERATOR_NAMES[O_COUNT] = {
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor", "lshift", "rshift",
    "lt", "le", "eq", "ne", "gt", "ge", "neg", "pos", "abs", "invert"};
static struct { PyObject *ew, *forward, *reflected, *inplace; } OPS[O_COUNT];

static PyObject *binary_slot(int which, PyObject *a, PyObject *b) {
    if (OPS[which].ew != NULL && ready) {
        PyObject *r = ew_fast((ElementwiseObject *)OPS[which].ew, a, b);
        if (r != NULL || PyErr_Occurred())
            return r;
    }
    int forward = PyObject_TypeCheck(a, ArrayType);
    PyObject *f = forward ? OPS[which].forward : OPS[which].reflected;
    if (f == NULL)
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *args[2] = {forward ? a : b, forward ? b : a};
    return PyObject_Vectorcall(f, args, 2, NULL);
}

/* x op= y for x in any layout whose elements are distinct (nests), y an
 * array of x's dtype that broadcasts to x's shape and is x itself or lies
 * outside it, or a Python scalar of x's kind: one N-D kernel call that
 * writes x through its own strides. NULL without an exception when not a
 * fast case. */
static PyObject *inplace_strided(ElementwiseObject *e, PyObject *a, const view_t *va, PyObject *b) {
    view_t vb = {0};
    char item[16];
    if (va->size == 0 || !nests(va))
        return NULL;
    if (read_view(b, &vb)) {
        int same = vb.data == va->data && vb.ndim == va->ndim
                   && memcmp(vb.shape, va->shape, sizeof(int64_t) * va->ndim) == 0
                   && memcmp(vb.strides, va->strides, sizeof(int64_t) * va->ndim) == 0;
        if (vb.code != va->code || vb.size == 0 || (!same && !disjoint(va, va->data, &vb, vb.data)))
            return NULL;
    } else if (pack_scalar(b, va->code, item)) {
        vb = scalar_view(va, item);
    } else {
        return NULL;
    }
    int64_t dims[4 * FAST_DIMS];
    int nd, rc;
    if (!broadcast_dims(va, &vb, va->itemsize, dims, &nd) || nd != va->ndim
        || memcmp(dims, va->shape, sizeof(int64_t) * nd) != 0)
        return NULL;
    for (int k = 0; k < nd; k++)
        dims[nd + k] = dims[2 * nd + k];  /* the output is x: its strides */
    KERNEL(rc, va->size, k_binary(e->op, va->code, nd, dims, va->data, va->data, vb.data));
    if (run_status(rc) < 0)
        return NULL;
    Py_INCREF(a);
    return a;
}

/* x op= y: in C when x is writable and the result keeps x's dtype: over a
 * dense x one flat kernel call for y a dense array of x's dtype and shape
 * that is x itself or does not overlap it, or a Python scalar of x's kind;
 * any other layout of x, or a y that broadcasts to x's shape, through
 * inplace_strided; else the Python implementation. */
static PyObject *inplace_slot(int which, PyObject *a, PyObject *b) {
    view_t va, vb;
    char item[16];
    ElementwiseObject *e = (ElementwiseObject *)OPS[which].ew;
    if (e != NULL && ready && read_view(a, &va) && !va.readonly && e->out[va.code] == va.code) {
        const char *pb = NULL;
        int64_t sb = 0;
        if (va.dense) {
            if (read_view(b, &vb)) {
                int apart = vb.data >= va.data + va.size * va.itemsize
                            || va.data >= vb.data + vb.size * vb.itemsize;
                if (vb.code == va.code && vb.dense && vb.ndim == va.ndim
                    && memcmp(vb.shape, va.shape, sizeof(int64_t) * va.ndim) == 0
                    && (vb.data == va.data || apart))
                    pb = vb.data, sb = vb.itemsize;
            } else if (pack_scalar(b, va.code, item)) {
                pb = item, sb = 0;
            }
        }
        if (pb != NULL) {
            int rc = 0;
            if (va.size)
                KERNEL(rc, va.size, k_binary_flat(e->op, va.code, va.size, va.data, va.data, va.itemsize, pb, sb));
            if (run_status(rc) < 0)
                return NULL;
            Py_INCREF(a);
            return a;
        }
        PyObject *r = inplace_strided(e, a, &va, b);
        if (r != NULL || PyErr_Occurred())
            return r;
    }
    if (PyErr_Occurred())
        return NULL;
    if (OPS[which].inplace == NULL)
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *args[2] = {a, b};
    return PyObject_Vectorcall(OPS[which].inplace, args, 2, NULL);
}

static PyObject *unary_slot(int which, PyObject *a) {
    if (OPS[which].ew == NULL) {
        PyErr_Format(PyExc_RuntimeError, "arrstride: operator %s is not bound", OPERATOR_NAMES[which]);
        return NULL;
    }
    return PyObject_CallOneArg(OPS[which].ew, a);
}

#define BINARY_SLOT(name, which) \
    static PyObject *nb_##name(PyObject *a, PyObject *b) { return binary_slot(which, a, b); }
BINARY_SLOT(add, O_ADD)
BINARY_SLOT(sub, O_SUB)
BINARY_SLOT(mul, O_MUL)
BINARY_SLOT(truediv, O_TRUEDIV)
BINARY_SLOT(floordiv, O_FLOORDIV)
BINARY_SLOT(mod, O_MOD)
BINARY_SLOT(and, O_AND)
BINARY_SLOT(or, O_OR)
BINARY_SLOT(xor, O_XOR)
BINARY_SLOT(lshift, O_LSHIFT)
BINARY_SLOT(rshift, O_RSHIFT)
#define INPLACE_SLOT(name, which) \
    static PyObject *nb_i##name(PyObject *a, PyObject *b) { return inplace_slot(which, a, b); }
INPLACE_SLOT(add, O_ADD)
INPLACE_SLOT(sub, O_SUB)
INPLACE_SLOT(mul, O_MUL)
INPLACE_SLOT(truediv, O_TRUEDIV)
INPLACE_SLOT(floordiv, O_FLOORDIV)
INPLACE_SLOT(mod, O_MOD)
INPLACE_SLOT(and, O_AND)
INPLACE_SLOT(or, O_OR)
INPLACE_SLOT(xor, O_XOR)
INPLACE_SLOT(lshift, O_LSHIFT)
INPLACE_SLOT(rshift, O_RSHIFT)

/* x ** y and x **= y; a third argument (pow(x, y, mod)) is not supported */
static PyObject *nb_pow(PyObject *a, PyObject *b, PyObject *mod) {
    if (mod != Py_None)
        Py_RETURN_NOTIMPLEMENTED;
    return binary_slot(O_POW, a, b);
}

static PyObject *nb_ipow(PyObject *a, PyObject *b, PyObject *mod) {
    if (mod != Py_None)
        Py_RETURN_NOTIMPLEMENTED;
    return inplace_slot(O_POW, a, b);
}
#define UNARY_SLOT(name, which) \
    static PyObject *nb_##name(PyObject *a) { return unary_slot(which, a); }
UNARY_SLOT(neg, O_NEG)
UNARY_SLOT(pos, O_POS)
UNARY_SLOT(abs, O_ABS)
UNARY_SLOT(invert, O_INVERT)

static PyObject *array_richcompare(PyObject *a, PyObject *b, int op) {
    static const int which[] = {[Py_LT] = O_LT, [Py_LE] = O_LE, [Py_EQ] = O_EQ,
                                [Py_NE] = O_NE, [Py_GT] = O_GT, [Py_GE] = O_GE};
    return binary_slot(which[op], a, b);
}

static PyNumberMethods array_as_number = {
    .nb_add = nb_add, .nb_subtract = nb_sub, .nb_multiply = nb_mul,
    .nb_true_divide = nb_truediv, .nb_floor_divide = nb_floordiv, .nb_remainder = nb_mod,
    .nb_power = nb_pow, .nb_inplace_power = nb_ipow,
    .nb_and = nb_and, .nb_or = nb_or, .nb_xor = nb_xor,
    .nb_lshift = nb_lshift, .nb_rshift = nb_rshift,
    .nb_inplace_add = nb_iadd, .nb_inplace_subtract = nb_isub, .nb_inplace_multiply = nb_imul,
    .nb_inplace_true_divide = nb_itruediv, .nb_inplace_floor_divide = nb_ifloordiv,
    .nb_inplace_remainder = nb_imod, .nb_inplace_and = nb_iand, .nb_inplace_or = nb_ior,
    .nb_inplace_xor = nb_ixor, .nb_inplace_lshift = nb_ilshift, .nb_inplace_rshift = nb_irshift,
    .nb_negative = nb_neg, .nb_positive = nb_pos, .nb_absolute = nb_abs, .nb_invert = nb_invert,
    .nb_float = array_float, .nb_int = array_int, .nb_index = array_index, .nb_bool = array_bool,
};

static PyMappingMethods array_as_mapping = {
    .mp_subscript = array_subscript,
    .mp_ass_subscript = array_ass_subscript,
};

/* ---- x.T, x.mT ----------------------------------------------------------------------- */

/* The view with the last two dims swapped (T: of a 2-D array only); every
 * other case, errors included, is the Python implementation's. */
static PyObject *swap_last(PyObject *self, int only_2d, int which) {
    view_t v;
    if (read_view(self, &v) && v.ndim >= 2 && (!only_2d || v.ndim == 2)) {
        int a = v.ndim - 2, b = v.ndim - 1;
        int64_t t = v.shape[a];
        v.shape[a] = v.shape[b], v.shape[b] = t;
        t = v.strides[a];
        v.strides[a] = v.strides[b], v.strides[b] = t;
        return view_of(self, v.shape, v.strides, v.ndim, v.offset, v.size);
    }
    if (PyErr_Occurred())
        return NULL;
    return call_fallback(which, &self, 1);
}

static PyObject *array_get_T(PyObject *self, void *c) {
    (void)c;
    return swap_last(self, 1, F_T);
}

static PyObject *array_get_mT(PyObject *self, void *c) {
    (void)c;
    return swap_last(self, 0, F_MT);
}

static PyObject *array_get_array_struct(PyObject *self, void *c);

static PyGetSetDef array_getset[] = {
    {"T", array_get_T, NULL, "The transpose of a 2-D array (a view).", NULL},
    {"mT", array_get_mT, NULL, "The transpose of the last two dims (a view).", NULL},
    {"__array_struct__", array_get_array_struct, NULL, "NumPy's array interface in C: the elements in place.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef array_methods[] = {
    {"__complex__", array_complex, METH_NOARGS, "complex(x) of a one-element array"},
    {NULL, NULL, 0, NULL}};

/* ---- numpy.asarray(x): NumPy's __array_struct__ ---------------------------------------- */

/* No buffer protocol on purpose: torch.asarray takes any buffer exporter
 * before DLPack and reads its bytes as its default dtype, 1-D (a float64
 * array came back as float32 garbage; a transposed one as "could not
 * retrieve buffer"). Without it torch.asarray takes x.__dlpack__. NumPy
 * still gets the elements in place through C: __array_struct__, a capsule
 * of NumPy's PyArrayInterface (version 2), which NumPy asks for right after
 * the buffer protocol. The struct, its shape and its byte strides are one
 * allocation that the capsule frees; NumPy keeps x itself as the new
 * array's base. */
typedef struct {
    int two;              /* 2: the interface's version */
    int nd;
    char typekind;        /* 'b', 'i', 'u', 'f', 'c' */
    int itemsize;
    int flags;            /* NumPy's NPY_ARRAY_* bits below */
    Py_ssize_t *shape;    /* npy_intp */
    Py_ssize_t *strides;  /* in bytes */
    void *data;
    PyObject *descr;      /* NULL: typekind and itemsize say it */
} ars_array_interface;

#define ARS_NPY_C_CONTIGUOUS 0x0001
#define ARS_NPY_ALIGNED 0x0100
#define ARS_NPY_NOTSWAPPED 0x0200
#define ARS_NPY_WRITEABLE 0x0400
#define ARS_NPY_ARR_HAS_DESCR 0x0800

static void array_struct_free(PyObject *capsule) {
    PyMem_Free(PyCapsule_GetPointer(capsule, NULL));
}

static PyObject *array_get_array_struct(PyObject *self, void *c) {
    (void)c;
    view_t v;
    if (!read_view(self, &v)) {
        /* a layout the C view cannot read (dims past int64): NumPy goes on
         * to __array_interface__ */
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_AttributeError, "__array_struct__");
        return NULL;
    }
    ars_array_interface *ai = PyMem_Malloc(sizeof(*ai) + sizeof(Py_ssize_t) * (2 * (size_t)v.ndim + 1));
    if (ai == NULL)
        return PyErr_NoMemory();
    Py_ssize_t *mem = (Py_ssize_t *)(ai + 1);
    for (int k = v.ndim - 1; k >= 0; k--) {
        mem[k] = (Py_ssize_t)v.shape[k];
        /* a size-1 dim's stride is free (and may not fit in bytes) */
        mem[v.ndim + k] = v.shape[k] > 1 ? (Py_ssize_t)(v.strides[k] * v.itemsize) : (Py_ssize_t)v.itemsize;
    }
    static const char kinds[] = {[K_BOOL] = 'b', [K_INT] = 'i', [K_UINT] = 'u', [K_FLOAT] = 'f', [K_COMPLEX] = 'c'};
    ai->two = 2;
    ai->nd = v.ndim;
    ai->typekind = kinds[v.kind];
    ai->itemsize = v.itemsize;
    ai->flags = ARS_NPY_ALIGNED | ARS_NPY_NOTSWAPPED | (v.readonly ? 0 : ARS_NPY_WRITEABLE)
              | (v.dense ? ARS_NPY_C_CONTIGUOUS : 0);
    ai->shape = mem;
    ai->strides = mem + v.ndim;
    ai->data = v.data;
    ai->descr = NULL;
    /* NumPy's own dtype object, when NumPy is loaded (it is when it asks):
     * NumPy then skips parsing a type string (~0.4 us) */
    static PyObject *np_dtype[NCODES];
    if (np_dtype[v.code] == NULL) {
        PyObject *name = PyUnicode_FromString("numpy");
        PyObject *np = name != NULL ? PyImport_GetModule(name) : NULL;
        if (np != NULL) {
            char ts[16];
            snprintf(ts, sizeof ts, "=%c%d", ai->typekind, ai->itemsize);
            np_dtype[v.code] = PyObject_CallMethod(np, "dtype", "s", ts);
            Py_DECREF(np);
        }
        Py_XDECREF(name);
        PyErr_Clear();
    }
    if (np_dtype[v.code] != NULL) {
        ai->descr = np_dtype[v.code];
        ai->flags |= ARS_NPY_ARR_HAS_DESCR;
    }
    PyObject *capsule = PyCapsule_New(ai, NULL, array_struct_free);
    if (capsule == NULL)
        PyMem_Free(ai);
    return capsule;
}

static PyTypeObject ArrayBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "arrstride._core.ArrayBase",
    .tp_basicsize = sizeof(ArrayObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The C base of arrstride.Array: its fields and its fast slots.",
    .tp_dealloc = (destructor)array_dealloc,
    .tp_traverse = (traverseproc)array_traverse,
    .tp_clear = (inquiry)array_clear,
    .tp_weaklistoffset = offsetof(ArrayObject, weakrefs),
    .tp_members = array_members,
    .tp_methods = array_methods,
    .tp_getset = array_getset,
    .tp_as_number = &array_as_number,
    .tp_as_mapping = &array_as_mapping,
    .tp_richcompare = array_richcompare,
    .tp_hash = PyObject_HashNotImplemented,
};

/* ---- setup ------------------------------------------------------------------------- */

static Py_ssize_t slot_offset(PyTypeObject *type, const char *name) {
    PyObject *d = PyDict_GetItemString(type->tp_dict, name);
    if (d == NULL || !Py_IS_TYPE(d, &PyMemberDescr_Type)) {
        PyErr_Format(PyExc_TypeError, "arrstride._core.setup: %s.%s is not a slot", type->tp_name, name);
        return -1;
    }
    PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
    if (m->type != T_OBJECT_EX) {
        PyErr_Format(PyExc_TypeError, "arrstride._core.setup: %s.%s is not an object slot", type->tp_name, name);
        return -1;
    }
    return m->offset;
}

#define REPLACE(var, value) do { \
        PyObject *_old = (PyObject *)(var); Py_XINCREF((PyObject *)(value)); \
        (var) = (value); Py_XDECREF(_old); } while (0)

/* setup(Array, Layout, Storage, dtypes, probe, probe_address, contiguous, contiguous_of,
 *       allocate_small, allocate_large, small_block, check_status, unary_flat, binary_flat,
 *       cast, matmul, where, reduce, binary, ensure_blas):
 * the classes and kernels, bound by _array as soon as Array exists. */
/* ---- asarray(buffer exporter): a zero-copy view ----------------------------------------- */

/* ars_owner (native/include/arrstride.h) as this file sees it: its view has
 * Py_buffer's layout (setup_buffers checks the offsets against cffi's). */
typedef struct {
    int kind;
    void *ptr;
    Py_buffer view;
} owner_t;

typedef owner_t *(*owner_new_fn)(int, void *);
typedef void (*owner_release_fn)(owner_t *);
static owner_new_fn k_owner_new;
static owner_release_fn k_owner_release;
static const char *owner_capsule_name;
static PyCapsule_Destructor owner_destructor;
static PyObject *foreign_ptr;            /* address -> cffi char* */
static PyObject *str_read_only_why;      /* Storage.foreign's reason for read-only memory */
static int buffers_ready;
static void (*k_free_block)(void *);      /* ars_free (setup_blocks) */
enum { OWN_BLOCK = 0, OWN_BUFFER = 1 };

/* The dtype code of a buffer's struct format and itemsize (native order), or -1. */
static int format_code(const char *fmt, Py_ssize_t itemsize) {
    if (fmt == NULL)
        fmt = "B";
    if (*fmt == '@')  /* native sizes only: '<'/'=' (standard sizes) go to the Python path */
        fmt++;
    int kind;
    Py_ssize_t size;  /* the format's own item size: an export that disagrees is refused */
    if (fmt[0] == 'Z' && (fmt[1] == 'f' || fmt[1] == 'd') && fmt[2] == 0) {
        kind = K_COMPLEX;
        size = fmt[1] == 'f' ? 8 : 16;
    } else if (fmt[0] == 0 || fmt[1] != 0)
        return -1;
    else if (fmt[0] == '?')
        kind = K_BOOL, size = 1;
    else if (strchr("bhilqn", fmt[0]))
        kind = K_INT, size = fmt[0] == 'b' ? 1 : fmt[0] == 'h' ? 2 : fmt[0] == 'i' ? (Py_ssize_t)sizeof(int)
             : fmt[0] == 'l' ? (Py_ssize_t)sizeof(long) : 8;
    else if (strchr("BHILQN", fmt[0]))
        kind = K_UINT, size = fmt[0] == 'B' ? 1 : fmt[0] == 'H' ? 2 : fmt[0] == 'I' ? (Py_ssize_t)sizeof(int)
             : fmt[0] == 'L' ? (Py_ssize_t)sizeof(long) : 8;
    else if (fmt[0] == 'f' || fmt[0] == 'd')
        kind = K_FLOAT, size = fmt[0] == 'f' ? 4 : 8;
    else
        return -1;
    if (size != itemsize)
        return -1;
    for (int k = 0; k < NCODES; k++)
        if (DINFO[k].dtype != NULL && DINFO[k].kind == kind && DINFO[k].itemsize == itemsize)
            return k;
    return -1;
}

/* from_buffer(obj) -> a zero-copy Array over obj's buffer-protocol export
 * (held by the storage's owner, released once when it dies), or None: not
 * an exporter, a 0-d or empty export (NumPy scalars are values and are
 * copied), a format arrstride has no dtype for, strides that are not whole
 * elements; the Python path (_creation_functions._from_external) decides those. */
static PyObject *core_from_buffer(PyObject *mod, PyObject *obj) {
    (void)mod;
    PyBufferProcs *bp = Py_TYPE(obj)->tp_as_buffer;
    if (!ready || !buffers_ready || bp == NULL || bp->bf_getbuffer == NULL || PyObject_TypeCheck(obj, ArrayType))
        Py_RETURN_NONE;
    owner_t *o = k_owner_new(OWN_BUFFER, NULL);
    if (o == NULL)
        return PyErr_NoMemory();
    Py_buffer *b = &o->view;
    if (PyObject_GetBuffer(obj, b, PyBUF_RECORDS_RO) < 0) {
        PyErr_Clear();
        k_owner_release(o);  /* view.obj is NULL: nothing to release but the owner */
        Py_RETURN_NONE;
    }
    int code = format_code(b->format, b->itemsize);
    int nd = b->ndim;
    int64_t shape[FAST_DIMS], strides[FAST_DIMS], lo = 0, hi = 0, size = 1, isz;
    if (code < 0 || nd < 1 || nd > FAST_DIMS || b->suboffsets != NULL)
        goto give_up;
    isz = DINFO[code].itemsize;
    for (int k = nd - 1; k >= 0; k--) {
        /* (PyBUF_RECORDS_RO asks for strides; without them the export is C order) */
        int64_t n = b->shape[k], st = b->strides ? b->strides[k] : k == nd - 1 ? isz : strides[k + 1] * shape[k + 1] * isz;
        if (st % isz != 0)
            goto give_up;
        shape[k] = n;
        strides[k] = st / isz;
        size *= n;  /* the export's elements exist: no overflow */
        if (n > 0) {
            if (strides[k] < 0)
                lo += (n - 1) * strides[k];
            else
                hi += (n - 1) * strides[k];
        }
    }
    /* empty, or elements not aligned to their size (C reads typed values):
     * the Python path (_foreign.wrap) decides, copying unaligned data */
    if (size == 0 || ((uintptr_t)b->buf + (uintptr_t)(lo * isz)) % (uintptr_t)isz != 0)
        goto give_up;
    PyObject *capsule = PyCapsule_New(o, owner_capsule_name, owner_destructor);
    if (capsule == NULL) {
        k_owner_release(o);
        return NULL;
    }
    /* from here the capsule alone releases the export */
    PyObject *addr = PyLong_FromVoidPtr((char *)b->buf + lo * isz);
    PyObject *ptr = addr ? PyObject_CallOneArg(foreign_ptr, addr) : NULL;
    Py_XDECREF(addr);
    PyObject *st = storage_steal(ptr, capsule, PyLong_FromLongLong((hi - lo + 1) * isz), b->readonly, 1,
                                 b->readonly ? str_read_only_why : Py_None);
    if (st == NULL)
        return NULL;
    PyObject *lay = new_layout_steal(tuple_i64(shape, nd), tuple_i64(strides, nd),
                                     PyLong_FromLongLong(-lo), PyLong_FromLongLong(size));
    if (lay == NULL) {
        Py_DECREF(st);
        return NULL;
    }
    Py_INCREF(DINFO[code].dtype);
    return new_array_steal(st, lay, DINFO[code].dtype);
give_up:
    k_owner_release(o);  /* releases the export */
    Py_RETURN_NONE;
}

/* setup_buffers(ars_owner_new, ars_owner_release, capsule name, capsule
 * destructor (addresses), offsetof(ars_owner, view), sizeof(ars_pybuffer),
 * address -> char* function, the read-only reason): once, from _array. */
static PyObject *core_setup_buffers(PyObject *mod, PyObject *args) {
    (void)mod;
    unsigned long long pn, pr, pname, pdestr;
    Py_ssize_t view_off, view_size;
    PyObject *fp, *why;
    if (!PyArg_ParseTuple(args, "KKKKnnOU:setup_buffers", &pn, &pr, &pname, &pdestr, &view_off,
                          &view_size, &fp, &why))
        return NULL;
    if (view_off != (Py_ssize_t)offsetof(owner_t, view) || view_size != (Py_ssize_t)sizeof(Py_buffer)) {
        PyErr_SetString(PyExc_RuntimeError, "arrstride._core.setup_buffers: ars_owner's layout is not the expected one");
        return NULL;
    }
    k_owner_new = (owner_new_fn)(uintptr_t)pn;
    k_owner_release = (owner_release_fn)(uintptr_t)pr;
    owner_capsule_name = (const char *)(uintptr_t)pname;
    owner_destructor = (PyCapsule_Destructor)(uintptr_t)pdestr;
    REPLACE(foreign_ptr, fp);
    REPLACE(str_read_only_why, why);
    buffers_ready = 1;
    Py_RETURN_NONE;
}

/* A Storage of an ars_alloc block of nbytes held by an ARS_OWN_BLOCK owner
 * capsule: what Storage.allocate makes for blocks from small_block on, made
 * here without its Python calls (a 160 KB result's storage took 1.8 us there).
 * None (new reference) when the parts are not bound yet or the block cannot
 * be had: Storage.allocate then decides (it raises the MemoryError). */
static PyObject *owned_block_storage(Py_ssize_t nbytes) {
    if (k_alloc == NULL || !buffers_ready)
        Py_RETURN_NONE;
    void *raw = k_alloc(nbytes);
    if (raw == NULL)
        Py_RETURN_NONE;
    owner_t *o = k_owner_new(OWN_BLOCK, raw);
    if (o == NULL) {
        k_free_block(raw);
        return PyErr_NoMemory();
    }
    PyObject *capsule = PyCapsule_New(o, owner_capsule_name, owner_destructor);
    if (capsule == NULL) {
        k_owner_release(o);
        return NULL;
    }
    /* from here the capsule alone gives the block back */
    PyObject *addr = PyLong_FromVoidPtr(raw);
    PyObject *ptr = addr ? PyObject_CallOneArg(foreign_ptr, addr) : NULL;
    Py_XDECREF(addr);
    return storage_steal(ptr, capsule, PyLong_FromSsize_t(nbytes), 0, 0, Py_None);
}

/* setup_blocks(ars_alloc, ars_free): the addresses of the block allocator,
 * for owned_block_storage (once, after setup and setup_buffers). */
static PyObject *core_setup_blocks(PyObject *mod, PyObject *args) {
    (void)mod;
    unsigned long long pa, pf;
    if (!PyArg_ParseTuple(args, "KK:setup_blocks", &pa, &pf))
        return NULL;
    k_alloc = (void *(*)(int64_t))(uintptr_t)pa;
    k_free_block = (void (*)(void *))(uintptr_t)pf;
    Py_RETURN_NONE;
}

static PyObject *core_setup(PyObject *mod, PyObject *args) {
    (void)mod;
    if (ready) {
        PyErr_SetString(PyExc_RuntimeError, "arrstride._core.setup runs once, when arrstride is imported");
        return NULL;
    }
    PyObject *array, *layout, *storage, *dtypes, *probe, *contig, *contig_of, *small, *large, *status;
    unsigned long long probe_addr, pu, pb, pc, pm, pw, pr, pbn, pun;
    PyObject *blas;
    Py_ssize_t block;
    if (!PyArg_ParseTuple(args, "O!O!O!O!OKO!OOOnOKKKKKKKKO:setup", &PyType_Type, &array, &PyType_Type,
                          &layout, &PyType_Type, &storage, &PyTuple_Type, &dtypes, &probe, &probe_addr,
                          &PyDict_Type, &contig, &contig_of, &small, &large, &block, &status, &pu, &pb, &pc, &pm, &pw, &pr, &pbn, &pun, &blas))
        return NULL;
    if (!PyType_IsSubtype((PyTypeObject *)array, &ArrayBaseType)) {
        PyErr_SetString(PyExc_TypeError, "arrstride._core.setup: Array must derive from ArrayBase");
        return NULL;
    }
    PyTypeObject *lt = (PyTypeObject *)layout, *stt = (PyTypeObject *)storage;
    if ((off_shape = slot_offset(lt, "shape")) < 0 || (off_strides = slot_offset(lt, "strides")) < 0
        || (off_offset = slot_offset(lt, "offset")) < 0 || (off_size = slot_offset(lt, "size")) < 0
        || (off_ptr = slot_offset(stt, "ptr")) < 0 || (off_nbytes = slot_offset(stt, "nbytes")) < 0
        || (off_readonly = slot_offset(stt, "readonly")) < 0
        || (off_external = slot_offset(stt, "external")) < 0
        || (off_owner = slot_offset(stt, "_owner")) < 0
        || (off_why = slot_offset(stt, "_readonly_why")) < 0)
        return NULL;
    /* the cdata's char*: right after the object header and the ctype pointer */
    off_cdata = sizeof(PyObject) + sizeof(void *);
    PyTypeObject *cbase = Py_TYPE(probe);
    while (cbase->tp_base != NULL && cbase->tp_base != &PyBaseObject_Type)
        cbase = cbase->tp_base;
    if ((unsigned long long)(uintptr_t)*(char **)((char *)probe + off_cdata) != probe_addr) {
        PyErr_SetString(PyExc_RuntimeError, "arrstride._core.setup: cffi's cdata layout is not the expected one");
        return NULL;
    }
    Py_ssize_t nd = PyTuple_GET_SIZE(dtypes);
    if (nd > NCODES) {
        PyErr_SetString(PyExc_ValueError, "arrstride._core.setup: too many dtypes");
        return NULL;
    }
    REPLACE(DTYPES, dtypes);
    memset(DINFO, 0, sizeof DINFO);
    for (Py_ssize_t k = 0; k < nd; k++) {
        PyObject *d = PyTuple_GET_ITEM(dtypes, k);
        PyObject *code = PyObject_GetAttrString(d, "code"), *isz = PyObject_GetAttrString(d, "itemsize"),
                 *kind = PyObject_GetAttrString(d, "kind");
        int ok = code && isz && kind && PyUnicode_Check(kind) && PyLong_AsLong(code) == k;
        long itemsize = ok ? PyLong_AsLong(isz) : 0;
        const char *ks = ok ? PyUnicode_AsUTF8(kind) : NULL;
        Py_XDECREF(code);
        Py_XDECREF(isz);
        Py_XDECREF(kind);
        if (!ok || ks == NULL || itemsize <= 0 || itemsize > 16) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "arrstride._core.setup: dtypes must be indexed by code");
            return NULL;
        }
        DINFO[k].dtype = d;
        DINFO[k].itemsize = (int)itemsize;
        DINFO[k].code = (int)k;
        DINFO[k].kind = ks[0] == 'b' ? K_BOOL : ks[0] == 'i' ? K_INT : ks[0] == 'u' ? K_UINT
                      : ks[0] == 'f' ? K_FLOAT : K_COMPLEX;
    }
    REPLACE(ArrayType, (PyTypeObject *)array);
    REPLACE(LayoutType, lt);
    REPLACE(StorageType, stt);
    REPLACE(CDataBase, cbase);
    REPLACE(CONTIG, contig);
    REPLACE(contiguous_of, contig_of);
    REPLACE(allocate_small, small);
    REPLACE(allocate_large, large);
    REPLACE(check_status, status);
    small_block = block;
    k_unary_flat = (unary_fn)(uintptr_t)pu;
    k_binary_flat = (binary_fn)(uintptr_t)pb;
    k_cast = (cast_fn)(uintptr_t)pc;
    k_matmul = (matmul_fn)(uintptr_t)pm;
    k_where = (where_fn)(uintptr_t)pw;
    k_reduce = (reduce_fn)(uintptr_t)pr;
    k_binary = (binary_nd_fn)(uintptr_t)pbn;
    k_unary = (unary_nd_fn)(uintptr_t)pun;
    REPLACE(ensure_blas, blas);
    blas_ready = 0;
    ready = 1;
    Py_RETURN_NONE;
}

/* bind(fallbacks: dict, operators: dict): the Python implementations behind
 * the slots, bound by _operators (imported last). */
static PyObject *core_bind(PyObject *mod, PyObject *args) {
    (void)mod;
    PyObject *fallbacks, *operators;
    if (!PyArg_ParseTuple(args, "O!O!:bind", &PyDict_Type, &fallbacks, &PyDict_Type, &operators))
        return NULL;
    for (int k = 0; k < F_COUNT; k++) {
        PyObject *f = PyDict_GetItemString(fallbacks, FALLBACK_NAMES[k]);
        if (f == NULL) {
            PyErr_Format(PyExc_KeyError, "arrstride._core.setup: no fallback for %s", FALLBACK_NAMES[k]);
            return NULL;
        }
        REPLACE(FALLBACK[k], f);
    }
    for (int k = 0; k < O_COUNT; k++) {
        PyObject *t = PyDict_GetItemString(operators, OPERATOR_NAMES[k]);
        PyObject *ew = NULL, *fw = NULL, *rf = NULL, *ip = NULL;
        if (t == NULL || !PyTuple_Check(t) || !PyArg_ParseTuple(t, "O|OOO", &ew, &fw, &rf, &ip)) {
            PyErr_Clear();
            PyErr_Format(PyExc_KeyError, "arrstride._core.setup: operator %s needs (elementwise[, forward, reflected, inplace])",
                         OPERATOR_NAMES[k]);
            return NULL;
        }
        if (!PyObject_TypeCheck(ew, &ElementwiseType)) {
            PyErr_Format(PyExc_TypeError, "arrstride._core.setup: operator %s needs an Elementwise", OPERATOR_NAMES[k]);
            return NULL;
        }
        REPLACE(OPS[k].ew, ew);
        REPLACE(OPS[k].forward, fw);
        REPLACE(OPS[k].reflected, rf);
        REPLACE(OPS[k].inplace, ip);
    }
    Py_RETURN_NONE;
}

static PyMethodDef core_methods[] = {
    {"setup", core_setup, METH_VARARGS, "Bind the Python classes and the kernels."},
    {"bind", core_bind, METH_VARARGS, "Bind the Python implementations behind the slots."},
    {"new", (PyCFunction)(void (*)(void))core_new, METH_FASTCALL, "new(storage, layout, dtype) -> Array"},
    {"empty", (PyCFunction)(void (*)(void))core_empty, METH_FASTCALL,
     "empty(shape, dtype, zero=False) -> a new contiguous Array, or None (not a fast case)"},
    {"scalar", (PyCFunction)(void (*)(void))core_scalar, METH_FASTCALL,
     "scalar(value[, dtype]) -> 0-d array of a Python scalar (of its kind's default dtype, or dtype when it takes the value as it is), or None"},
    {"reduce_all", (PyCFunction)(void (*)(void))core_reduce_all, METH_FASTCALL,
     "reduce_all(op, x, acc_dtype) -> the 0-d reduction of a dense x, or None"},
    {"reshape", (PyCFunction)(void (*)(void))core_reshape, METH_FASTCALL,
     "reshape(x, shape) -> a view of a dense x under shape, or None"},
    {"reduce_into", (PyCFunction)(void (*)(void))core_reduce_into, METH_FASTCALL,
     "reduce_into(op, x, axes, acc_dtype) -> the reduction over axes with 1 there, or None"},
    {"from_list", core_from_list, METH_O,
     "from_list(list) -> 1-D float64/int64 array of a flat list of floats or ints, or None"},
    {"copy_dense", (PyCFunction)(void (*)(void))core_copy_dense, METH_FASTCALL,
     "copy_dense(dst, src, dense_src=False) -> True when the copy or cast into dense dst was done"},
    {"where", (PyCFunction)(void (*)(void))core_where, METH_FASTCALL,
     "where(condition, x1, x2) -> a new array for dense operands of one shape, or None"},
    {"from_buffer", core_from_buffer, METH_O,
     "from_buffer(obj) -> a zero-copy Array over obj's buffer export, or None"},
    {"setup_buffers", core_setup_buffers, METH_VARARGS, "Bind the owner of buffer exports (once)."},
    {"setup_blocks", core_setup_blocks, METH_VARARGS, "Bind the block allocator (once)."},
    {"concat0", core_concat0, METH_O,
     "concat0(arrays) -> dense arrays of one dtype joined along axis 0, or None"},
    {"matmul", (PyCFunction)(void (*)(void))core_matmul, METH_FASTCALL,
     "matmul(x1, x2) -> x1 @ x2 for 1-D/2-D operands of one dtype, or None"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "arrstride._core",
    "The C base of arrstride.Array and the per-call fast paths (see native/core/core.c).",
    -1, core_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&ArrayBaseType) < 0 || PyType_Ready(&ElementwiseType) < 0)
        return NULL;
    str_char_array = PyUnicode_InternFromString("char[]");
    if (str_char_array == NULL)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&ArrayBaseType);
    Py_INCREF(&ElementwiseType);
    if (PyModule_AddObject(m, "ArrayBase", (PyObject *)&ArrayBaseType) < 0
        || PyModule_AddObject(m, "Elementwise", (PyObject *)&ElementwiseType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

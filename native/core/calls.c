/* arrstride._core: the fast paths of the namespace functions (empty, scalar, reshape, where, ...) (see core.h). */
#include "core.h"

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
PyObject *core_new(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
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
    PyObject *shape = SLOT(args[1], off_shape);
    if (shape != NULL && PyTuple_Check(shape) && PyTuple_GET_SIZE(shape) > ARS_MAX_DIMS) {
        PyErr_Format(PyExc_ValueError, "arrstride: maximum supported dimension for an ndarray is currently %d, "
                     "found %zd", (int)ARS_MAX_DIMS, PyTuple_GET_SIZE(shape));
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

/* empty(shape, dtype, zero=False, value=None) -> a new contiguous Array
 * (zeroed, or every element set to the Python scalar value), or None when
 * shape is not a tuple of ints whose element and byte counts fit, or value
 * is not one the dtype takes as it is (the caller's Python path then checks
 * it and words the error). */
PyObject *core_empty(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (!fast_paths)
        Py_RETURN_NONE;  /* switched off: the general path */
    if (nargs < 2 || nargs > 4 || !ready) {
        PyErr_SetString(PyExc_TypeError, "arrstride._core.empty(shape, dtype, zero=False, value=None)");
        return NULL;
    }
    int code = dtype_code(args[1]);
    if (code < 0 || !PyTuple_CheckExact(args[0]) || PyTuple_GET_SIZE(args[0]) > ARS_MAX_DIMS)
        Py_RETURN_NONE;
    int zero = nargs >= 3 && PyObject_IsTrue(args[2]);
    char item[16];
    int filled = nargs == 4 && args[3] != Py_None;
    if (filled && !pack_scalar(args[3], code, item))
        Py_RETURN_NONE;
    int64_t size = 1, nbytes, isz = DINFO[code].itemsize;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(args[0]); k++) {
        int ok = 1;
        int64_t d = as_i64(PyTuple_GET_ITEM(args[0], k), &ok);
        if (!ok || d < 0 || __builtin_mul_overflow(size, d, &size))
            Py_RETURN_NONE;
    }
    if (__builtin_mul_overflow(size, isz, &nbytes) || nbytes > ((int64_t)1 << 62)
        || ((zero || filled) && nbytes >= small_block))  /* large ones: the allocator's zeroing, the pool's fill */
        Py_RETURN_NONE;
    PyObject *out = empty_array(args[0], code, size);
    if (out == NULL)
        return NULL;
    char *p = array_base((ArrayObject *)out);
    if (zero)
        memset(p, 0, (size_t)nbytes);
    else if (filled && nbytes > 0) {
        memcpy(p, item, (size_t)isz);  /* then doubling copies of what is set */
        for (int64_t done = isz; done < nbytes; done *= 2)
            memcpy(p + done, p, (size_t)(done < nbytes - done ? done : nbytes - done));
    }
    return out;
}

/* scalar(value) -> a 0-d array of the default dtype of a Python bool, int
 * (in int64), float or complex; None for anything else. */
PyObject *core_scalar(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (!fast_paths)
        Py_RETURN_NONE;  /* switched off: the general path */
    if (nargs < 1 || nargs > 2)
        Py_RETURN_NONE;
    PyObject *value = args[0];
    PyTypeObject *t = Py_TYPE(value);
    int code = nargs == 2 && args[1] != Py_None ? dtype_code(args[1])
             : t == &PyFloat_Type ? ARS_FLOAT64 : t == &PyLong_Type ? ARS_INT64
             : t == &PyBool_Type ? ARS_BOOL : t == &PyComplex_Type ? ARS_COMPLEX128 : -1;
    char item[16];
    if (!ready || code < 0 || !pack_scalar(value, code, item))
        Py_RETURN_NONE;
    PyObject *out = empty_dims(NULL, 0, code, 1);
    if (out != NULL)
        memcpy(array_base((ArrayObject *)out), item, DINFO[code].itemsize);
    return out;
}

/* reduce_all(op, x, acc_dtype[, finish, count]) -> a new 0-d array of acc_dtype: the `op`
 * reduction (ARS_RED_*) of every element of a dense x, in one flat pass,
 * then (given) ars_reduce_finish's `finish` (ARS_FIN_MEAN: the sum over
 * count) in place; None when x is not dense (the Python path). */
PyObject *core_reduce_all(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (!fast_paths)
        Py_RETURN_NONE;  /* switched off: the general path */
    view_t v;
    int ok = 1;
    if ((nargs != 3 && nargs != 5) || !read_view(args[1], &v) || !v.dense)
        Py_RETURN_NONE;
    int64_t op = as_i64(args[0], &ok), fin = nargs == 5 ? as_i64(args[3], &ok) : 0;
    int acc = dtype_code(args[2]);
    double count = 0;
    if (nargs == 5) {
        count = PyFloat_AsDouble(args[4]);
        if (count == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
    }
    if (!ok || acc < 0 || op < 0 || op > INT32_MAX || fin < 0 || fin > INT32_MAX)
        Py_RETURN_NONE;
    PyObject *out = empty_dims(NULL, 0, acc, 1);
    if (out == NULL)
        return NULL;
    char *o = array_base((ArrayObject *)out);
    int64_t n = v.size, s = v.itemsize, zero = 0;
    int rc;
    KERNEL(rc, n, k_reduce((int)op, 1, &n, v.data, &s, v.code, o, &zero, 1, acc));
    if (rc == 0 && nargs == 5)
        rc = k_finish((int)fin, o, 1, acc, count, 0.0);  /* the mean of the sum, in place */
    if (run_status(rc) < 0)
        Py_CLEAR(out);
    return out;
}

/* reshape(x, shape) -> a view of a dense x under shape (a tuple of ints, at
 * most one of them -1 standing for the rest), or None (the Python path:
 * other layouts, copies, and every error). */
PyObject *core_reshape(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (!fast_paths)
        Py_RETURN_NONE;  /* switched off: the general path */
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
    int64_t strides[FAST_DIMS], acc = 1;
    for (Py_ssize_t k = nd - 1; k >= 0; k--) {  /* C order's, as _layout.contiguous_strides */
        strides[k] = acc;
        if (__builtin_mul_overflow(acc, dims[k] > 0 ? dims[k] : 1, &acc) && k > 0)
            Py_RETURN_NONE;  /* an empty shape past int64: the Python path */
    }
    return view_of(args[0], dims, strides, (int)nd, v.offset, v.size);
}

/* reduce_into(op, x, axes, acc_dtype[, drop[, finish, count]]) -> a new
 * contiguous array of x's shape with 1 on `axes` (a tuple of distinct
 * normalized ints), or without those dims when drop is True: the `op`
 * reduction of x over them, any layout of x, then (given) ars_reduce_finish's
 * `finish` over count in place (ARS_FIN_MEAN: the mean of the sum); None when
 * not a fast case. */
PyObject *core_reduce_into(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (!fast_paths)
        Py_RETURN_NONE;  /* switched off: the general path */
    view_t v;
    int ok = 1;
    if ((nargs != 4 && nargs != 5 && nargs != 7) || !read_view(args[1], &v) || !PyTuple_CheckExact(args[2])
        || v.ndim == 0 || (nargs > 4 && args[4] != Py_True && args[4] != Py_False))
        Py_RETURN_NONE;
    int64_t op = as_i64(args[0], &ok), fin = nargs == 7 ? as_i64(args[5], &ok) : -1;
    int acc = dtype_code(args[3]), drop = nargs > 4 && args[4] == Py_True;
    double count = 0;
    if (nargs == 7) {
        count = PyFloat_AsDouble(args[6]);
        if (count == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
    }
    if (!ok || acc < 0 || op < 0 || op > INT32_MAX || (nargs == 7 && (fin < 0 || fin > INT32_MAX)))
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
    int64_t kept[FAST_DIMS];  /* the shape without the reduced dims */
    int nkept = 0;
    for (int k = 0; k < v.ndim; k++)
        if (!reduced[k])
            kept[nkept++] = v.shape[k];
    PyObject *out = drop ? empty_dims(kept, nkept, acc, ksize) : empty_dims(kshape, v.ndim, acc, ksize);
    if (out == NULL)
        return NULL;
    char *o = array_base((ArrayObject *)out);
    int rc;
    KERNEL(rc, v.size, k_reduce((int)op, v.ndim, v.shape, v.data, xs, v.code, o, as, ksize, acc));
    if (rc == 0 && fin >= 0)
        rc = k_finish((int)fin, o, ksize, acc, count, 0.0);  /* the mean of the sum, in place */
    if (run_status(rc) < 0)
        Py_CLEAR(out);
    return out;
}

/* from_list(list) -> a 1-D array of a non-empty flat list of exact Python
 * floats (float64) or of exact ints that fit int64 (int64); None otherwise
 * (the Python path: nesting, mixed kinds, bools, dtype rules). */
PyObject *core_from_list(PyObject *mod, PyObject *list) {
    (void)mod;
    if (!fast_paths)
        Py_RETURN_NONE;  /* switched off: the general path */
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
    int code = t == &PyFloat_Type ? ARS_FLOAT64 : ARS_INT64;
    PyObject *out = empty_dims(&len, 1, code, len);
    if (out == NULL)
        return NULL;
    char *p = array_base((ArrayObject *)out);
    for (Py_ssize_t i = 0; i < n; i++)
        if (!pack_scalar(PyList_GET_ITEM(list, i), code, p + DINFO[code].itemsize * i)) {
            Py_DECREF(out);  /* an int past int64: the Python path decides the dtype or the error */
            Py_RETURN_NONE;
        }
    return out;
}

/* where(condition, x1, x2) -> a new array, for a bool condition and x1, x2
 * of one dtype (either may be a Python scalar of the other's kind) in
 * layouts C holds, run by the engine; None otherwise (the Python path). */
PyObject *core_where(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (!fast_paths)
        Py_RETURN_NONE;  /* switched off: the general path */
    view_t c, a, b;
    char ia[16], ib[16];
    if (nargs != 3 || !read_view(args[0], &c) || c.code != ARS_BOOL)
        Py_RETURN_NONE;
    int fa = read_view(args[1], &a), fb = read_view(args[2], &b);
    if ((!fa && !fb) || (fa && fb && a.code != b.code))
        Py_RETURN_NONE;
    int code = fa ? a.code : b.code;
    operand_t ins[3];
    ins[0] = operand_of(&c);
    if (fa)
        ins[1] = operand_of(&a);
    else if (!packed_operand(args[1], code, ia, &ins[1]))
        Py_RETURN_NONE;
    if (fb)
        ins[2] = operand_of(&b);
    else if (!packed_operand(args[2], code, ib, &ins[2]))
        Py_RETURN_NONE;
    ew_call call = {EW_WHERE, 0, code, code, NULL, 0, 0};
    PyObject *r = engine_run(&call, ins, NULL, NULL, OVERLAP_DECLINE);
    if (r == NULL && !PyErr_Occurred())
        Py_RETURN_NONE;
    return r;
}

/* float16 and bfloat16: the Python path computes them in float32. */
static inline int narrow_float(const view_t *v) {
    return v->kind == K_FLOAT && v->itemsize == 2;
}

/* 1 with *axis in [0, ndim) for a Python int (not a bool) naming one of
 * ndim >= 1 dims, from the end when negative; else 0 (the Python path). */
static int axis_of(PyObject *a, int ndim, int64_t *axis) {
    int ok = 1;
    if (!PyLong_CheckExact(a) || ndim < 1)
        return 0;
    int64_t d = as_i64(a, &ok);
    if (!ok || d < -ndim || d >= ndim)
        return 0;
    *axis = d < 0 ? d + ndim : d;
    return 1;
}

/* out when the kernel's status rc is 0; else None (out dropped): the Python
 * path runs the call again and words the error. */
static PyObject *result_or_none(PyObject *out, int rc) {
    if (rc == 0)
        return out;
    Py_DECREF(out);
    Py_RETURN_NONE;
}

/* clip(x, min, max) -> x clamped to [min, max] by the engine, for x of a
 * real, not narrow dtype and each bound None (floats only: no bound), a
 * Python scalar of x's kind that x's dtype holds, or an array of x's dtype;
 * None otherwise (the Python path: bounds beyond an integer dtype's range,
 * other dtypes, errors). */
PyObject *core_clip(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    view_t x, b[2];
    char item[2][16];
    operand_t ins[3];
    if (!fast_paths || nargs != 3 || !read_view(args[0], &x) || x.kind == K_COMPLEX || x.kind == K_BOOL
        || narrow_float(&x))
        Py_RETURN_NONE;
    ins[0] = operand_of(&x);
    for (int i = 0; i < 2; i++) {
        PyObject *bound = args[1 + i];
        if (bound == Py_None) {
            if (x.kind != K_FLOAT)
                Py_RETURN_NONE;
            double inf = i == 0 ? -INFINITY : INFINITY;
            float inff = (float)inf;
            if (x.itemsize == 4)
                memcpy(item[i], &inff, 4);
            else
                memcpy(item[i], &inf, 8);
            ins[1 + i] = scalar_operand(x.code, item[i]);
        } else if (read_view(bound, &b[i])) {
            if (b[i].code != x.code)
                Py_RETURN_NONE;
            ins[1 + i] = operand_of(&b[i]);
        } else if (PyBool_Check(bound) || !packed_operand(bound, x.code, item[i], &ins[1 + i])) {
            Py_RETURN_NONE;
        }
    }
    ew_call call = {EW_CLIP, 0, x.code, x.code, NULL, 0, 0};
    PyObject *r = engine_run(&call, ins, NULL, NULL, OVERLAP_DECLINE);
    if (r == NULL && !PyErr_Occurred())
        Py_RETURN_NONE;
    return r;
}

/* The arrays (a list or tuple of dense arrays of one dtype) joined along
 * axis 0: concatenated (ndim >= 1, the other dims matching) or, with
 * stack, stacked along a new axis 0 (all of one shape); None otherwise (the
 * Python path: promotion, other layouts, errors). */
static PyObject *join0(PyObject *arrays, int stack) {
    if (!fast_paths)
        Py_RETURN_NONE;  /* switched off: the general path */
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
        if (!read_view(items[i], &v[i]) || !v[i].dense || v[i].code != v[0].code || v[i].ndim != v[0].ndim
            || (stack ? v[0].ndim + 1 > FAST_DIMS
                            || memcmp(v[i].shape, v[0].shape, sizeof(int64_t) * v[0].ndim) != 0
                      : v[i].ndim < 1
                            || memcmp(v[i].shape + 1, v[0].shape + 1, sizeof(int64_t) * (v[0].ndim - 1)) != 0
                            || __builtin_add_overflow(total, v[i].shape[0], &total))
            || __builtin_mul_overflow(v[i].size, (int64_t)v[i].itemsize, &nb)
            || __builtin_add_overflow(bytes, nb, &bytes) || bytes > ((int64_t)1 << 62))
            Py_RETURN_NONE;
    }
    int64_t shape[FAST_DIMS];
    int nd = v[0].ndim + stack;
    memcpy(shape + stack, v[0].shape, sizeof(int64_t) * v[0].ndim);
    shape[0] = stack ? count : total;
    PyObject *out = empty_dims(shape, nd, v[0].code, bytes / v[0].itemsize);
    if (out == NULL)
        return NULL;
    char *o = array_base((ArrayObject *)out);
    for (Py_ssize_t i = 0; i < count; i++) {
        size_t n = (size_t)(v[i].size * v[i].itemsize);
        if (n)
            memcpy(o, v[i].data, n);
        o += n;
    }
    return out;
}

/* concat0(arrays) -> the arrays joined along axis 0, for a list or tuple of
 * dense arrays of one dtype and ndim >= 1 whose other dims match; None
 * otherwise. */
PyObject *core_concat0(PyObject *mod, PyObject *arrays) {
    (void)mod;
    return join0(arrays, 0);
}

/* stack0(arrays) -> the arrays stacked along a new axis 0, for a list or
 * tuple of dense arrays of one dtype and shape; None otherwise. */
PyObject *core_stack0(PyObject *mod, PyObject *arrays) {
    (void)mod;
    return join0(arrays, 1);
}

/* matmul(x1, x2) -> x1 @ x2 for 1-D/2-D operands of one dtype with matching
 * inner dims (a narrow float computed in float32, rounded once), or None (the Python path: batches, promotion, errors). */
PyObject *core_matmul(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (!fast_paths)
        Py_RETURN_NONE;  /* switched off: the general path */
    view_t a, b;
    if (nargs != 2 || !read_view(args[0], &a) || !read_view(args[1], &b) || a.code != b.code
        || a.ndim < 1 || a.ndim > 2 || b.ndim < 1 || b.ndim > 2 || DINFO[a.code].kind == K_BOOL
        || !(ars_has_kernels(a.code) || narrow_float(&a)))
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
    /* long products go the Python path, which lets Ctrl-C stop them */
    if ((double)m * (double)n * (double)k >= INTERRUPTIBLE_WORK)
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
    char *o = array_base((ArrayObject *)out);
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

/* Arrays from this size on are sorted by the Python path, which calls the
 * kernel where Ctrl-C can stop it (arrstride/_kernels.py, INTERRUPTIBLE_SORT). */
enum { SORT_FAST_MAX = 1 << 20 };

/* sort(x, axis, descending, stable, argsort) -> x sorted (argsort: the int64
 * indices that sort it) along its last axis, for axis -1 or ndim - 1 and
 * exact bools, in a new contiguous array; None for anything else (other
 * axes, 0-d, complex dtypes, large arrays, every error: the Python path). */
PyObject *core_sort(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    view_t v;
    int64_t axis;
    if (!fast_paths || nargs != 5 || !read_view(args[0], &v) || !strides_fit(&v) || v.size >= SORT_FAST_MAX
        || !axis_of(args[1], v.ndim, &axis) || axis != v.ndim - 1 || v.kind == K_COMPLEX)
        Py_RETURN_NONE;
    for (int k = 2; k < 5; k++)
        if (args[k] != Py_True && args[k] != Py_False)
            Py_RETURN_NONE;
    int arg = args[4] == Py_True, out_code = arg ? ARS_INT64 : v.code, nb = v.ndim - 1;
    PyObject *out = empty_dims(v.shape, v.ndim, out_code, v.size);
    if (out == NULL || v.size == 0)
        return out;
    int64_t n = v.shape[nb], osz = DINFO[out_code].itemsize, acc = osz * n;
    int64_t ist[FAST_DIMS], ost[FAST_DIMS];
    for (int k = nb - 1; k >= 0; k--) {
        ist[k] = v.strides[k] * v.itemsize;
        ost[k] = acc;
        acc *= v.shape[k];
    }
    int rc;
    KERNEL(rc, v.size, k_sort(nb, v.shape, v.data, ist, v.code, n, v.strides[nb] * v.itemsize,
                              array_base((ArrayObject *)out), ost, osz, arg,
                              args[2] == Py_True, args[3] == Py_True));
    return result_or_none(out, rc);
}

/* Masks up to this size are made on the stack by nonzero's fast path. */
enum { NONZERO_STACK = 256 };

/* nonzero(x) -> the coordinates of the nonzero elements of x (at least one
 * dim, any layout and dtype), one int64 array per dim in C order: rows of one
 * (ndim, count) block, as the Python path makes them; None for 0-d x and
 * every error (the Python path). A mask of another dtype is its cast to bool
 * (nonzero: NaN true, -0.0 false), made first. */
PyObject *core_nonzero(PyObject *mod, PyObject *x) {
    (void)mod;
    view_t v;
    if (!fast_paths || !read_view(x, &v) || v.ndim < 1 || !strides_fit(&v))
        Py_RETURN_NONE;
    int64_t mst[FAST_DIMS], count = 0;
    const char *mask = v.data;
    char stack[NONZERO_STACK], *heap = NULL;
    int rc;
    if (v.code == ARS_BOOL) {
        for (int k = 0; k < v.ndim; k++)
            mst[k] = v.strides[k];
    } else {
        char *m = v.size <= NONZERO_STACK ? stack : (heap = malloc((size_t)v.size));
        if (m == NULL)
            Py_RETURN_NONE;
        int64_t acc = 1, sst[FAST_DIMS];
        for (int k = v.ndim - 1; k >= 0; k--) {
            mst[k] = acc;
            sst[k] = v.strides[k] * v.itemsize;
            acc *= v.shape[k];
        }
        KERNEL(rc, v.size, k_cast(v.ndim, v.shape, m, mst, ARS_BOOL, v.data, sst, v.code));
        if (rc != 0) {
            free(heap);
            Py_RETURN_NONE;
        }
        mask = m;
    }
    KERNEL(rc, v.size, k_count_true(v.ndim, v.shape, mask, mst, &count));
    int64_t dims[2] = {v.ndim, count}, one = 1;
    PyObject *out = rc == 0 ? empty_dims(dims, 2, ARS_INT64, v.ndim * count) : NULL;
    if (out != NULL && count > 0) {
        KERNEL(rc, v.size, k_nonzero(v.ndim, v.shape, mask, mst, (int64_t *)(void *)array_base((ArrayObject *)out),
                                     count));
        if (rc != 0)
            Py_CLEAR(out);  /* the mask changed under another thread: the Python path reads it again */
    }
    free(heap);
    if (out == NULL) {
        if (PyErr_Occurred())
            return NULL;
        Py_RETURN_NONE;
    }
    PyObject *t = PyTuple_New(v.ndim);
    for (int d = 0; t != NULL && d < v.ndim; d++) {
        PyObject *row = view_of(out, &count, &one, 1, d * count, count);
        if (row == NULL)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, d, row);
    }
    Py_DECREF(out);
    return t;
}

/* permute(x, axes) -> the view of x whose dim k is x's dim axes[k], for a
 * tuple of ints naming each dim once (negative ones from the end); None for
 * anything else (the Python path words the error). */
PyObject *core_permute(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    view_t v;
    if (!fast_paths || nargs != 2 || !PyTuple_CheckExact(args[1]) || !read_view(args[0], &v)
        || PyTuple_GET_SIZE(args[1]) != v.ndim)
        Py_RETURN_NONE;
    int64_t shape[FAST_DIMS], strides[FAST_DIMS];
    int seen[FAST_DIMS] = {0};
    for (int k = 0; k < v.ndim; k++) {
        PyObject *a = PyTuple_GET_ITEM(args[1], k);
        int ok = 1;
        if (!PyLong_CheckExact(a))
            Py_RETURN_NONE;
        int64_t d = as_i64(a, &ok);
        if (!ok || d < -v.ndim || d >= v.ndim)
            Py_RETURN_NONE;
        if (d < 0)
            d += v.ndim;
        if (seen[d]++)
            Py_RETURN_NONE;
        shape[k] = v.shape[d];
        strides[k] = v.strides[d];
    }
    return view_of(args[0], shape, strides, v.ndim, v.offset, v.size);
}

/* cumulative(op, x, axis, include_initial) -> the cumulative sum (op
 * ARS_LANE_CUMSUM) or product (ARS_LANE_CUMPROD) of x along axis (an int, or
 * None for a 0-d or 1-D x) in a new contiguous array, with dtype=None's rule:
 * bool and signed integers accumulate in and return int64, unsigned ones
 * uint64, the rest their own dtype (a narrow float's running value kept in
 * float32, each rounded to the output); None for other ops and anything the
 * Python path words an error for. */
PyObject *core_cumulative(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    view_t v;
    int ok = 1;
    if (!fast_paths || nargs != 4 || !PyLong_CheckExact(args[0]) || !read_view(args[1], &v) || !strides_fit(&v)
        || (args[3] != Py_True && args[3] != Py_False))
        Py_RETURN_NONE;
    int64_t op = as_i64(args[0], &ok), axis;
    if (!ok || (op != ARS_LANE_CUMSUM && op != ARS_LANE_CUMPROD))
        Py_RETURN_NONE;
    if (args[2] == Py_None) {
        if (v.ndim > 1)
            Py_RETURN_NONE;
        if (v.ndim == 0)  /* one element: a lane of one */
            v.ndim = 1, v.shape[0] = 1, v.strides[0] = 0;
        axis = 0;
    } else if (!axis_of(args[2], v.ndim, &axis)) {
        Py_RETURN_NONE;
    }
    int flag = args[3] == Py_True;
    int code = v.kind == K_BOOL || v.kind == K_INT ? ARS_INT64 : v.kind == K_UINT ? ARS_UINT64 : v.code;
    int64_t shape[FAST_DIMS], size = 1;
    for (int k = 0; k < v.ndim; k++) {
        shape[k] = v.shape[k] + (k == axis ? flag : 0);
        if (__builtin_mul_overflow(size, shape[k], &size))
            Py_RETURN_NONE;
    }
    PyObject *out = empty_dims(shape, v.ndim, code, size);
    if (out == NULL || size == 0)
        return out;
    int64_t bshape[FAST_DIMS], xs[FAST_DIMS], os[FAST_DIMS], osz = DINFO[code].itemsize, acc = osz, ostep = 0;
    int nb = 0;
    for (int k = v.ndim - 1; k >= 0; k--) {  /* out's C-order byte strides, the lane's apart */
        if (k == axis) {
            ostep = acc;
        } else {
            bshape[nb] = v.shape[k];
            xs[nb] = v.strides[k] * v.itemsize;
            os[nb++] = acc;
        }
        acc *= shape[k];
    }
    for (int i = 0, j = nb - 1; i < j; i++, j--) {  /* collected innermost first: back to C order */
        int64_t t = bshape[i]; bshape[i] = bshape[j]; bshape[j] = t;
        t = xs[i]; xs[i] = xs[j]; xs[j] = t;
        t = os[i]; os[i] = os[j]; os[j] = t;
    }
    int rc;
    KERNEL(rc, size, k_lane((int)op, nb, bshape, v.data, xs, v.code, v.shape[axis], v.strides[axis] * v.itemsize,
                            array_base((ArrayObject *)out), os, code, ostep, flag));
    return result_or_none(out, rc);
}

/* How a kernel along lanes reaches x for a reduction to one value per lane:
 * over all of a 0-d, 1-D or dense x (axis None) or along one axis (an int),
 * the lane's length n and byte step, the other dims (nb, their shape and
 * byte strides in x), the result's shape with keepdims (ond, oshape), its
 * byte strides over the other dims for items of osz bytes, and its size. */
typedef struct {
    int64_t n, step, size;
    int nb, ond;
    int64_t bshape[FAST_DIMS], xs[FAST_DIMS], os[FAST_DIMS], oshape[FAST_DIMS];
} lanes_t;

/* 1 with *p filled; 0 when it is not a fast case (an x of several dims and
 * another layout for axis None, an axis that is not an int naming a dim). */
static int plan_lanes(const view_t *v, PyObject *axis_arg, int keep, int64_t osz, lanes_t *p) {
    p->nb = p->ond = 0;
    if (axis_arg == Py_None) {
        if (v->ndim <= 1)
            p->n = v->ndim ? v->shape[0] : 1, p->step = v->ndim ? v->strides[0] * v->itemsize : 0;
        else if (v->dense)
            p->n = v->size, p->step = v->itemsize;
        else
            return 0;
        for (int k = 0; keep && k < v->ndim; k++)
            p->oshape[p->ond++] = 1;
    } else {
        int64_t axis;
        if (!axis_of(axis_arg, v->ndim, &axis))
            return 0;
        p->n = v->shape[axis], p->step = v->strides[axis] * v->itemsize;
        for (int k = 0; k < v->ndim; k++) {
            if (k == axis) {
                if (keep)
                    p->oshape[p->ond++] = 1;
                continue;
            }
            p->oshape[p->ond++] = v->shape[k];
            p->bshape[p->nb] = v->shape[k];
            p->xs[p->nb++] = v->strides[k] * v->itemsize;
        }
    }
    int64_t acc = osz;
    p->size = 1;
    for (int k = p->nb - 1; k >= 0; k--) {
        p->os[k] = acc;
        acc *= p->bshape[k];
        p->size *= p->bshape[k];  /* at most x's size */
    }
    return 1;
}

/* vector_norm(x, axis, keepdims, ord) -> linalg.vector_norm of x (a float32,
 * float64 or complex dtype, any layout) over one axis (an int), or over all
 * of a 0-d or 1-D x or a dense one (None), for a real ord and a bool
 * keepdims, in a new contiguous array of x's real dtype; None otherwise
 * (axis tuples, integer and narrow dtypes, errors: the Python path). */
PyObject *core_vector_norm(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    view_t v;
    if (!fast_paths || nargs != 4 || !read_view(args[0], &v) || !strides_fit(&v)
        || (v.kind != K_FLOAT && v.kind != K_COMPLEX)
        || narrow_float(&v) || (args[2] != Py_True && args[2] != Py_False)
        || !(PyLong_CheckExact(args[3]) || PyFloat_CheckExact(args[3])))
        Py_RETURN_NONE;
    double p = PyFloat_AsDouble(args[3]);
    if (p == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    int kind = p == 2 ? ARS_NORM_2 : p == 1 ? ARS_NORM_1 : p == INFINITY ? ARS_NORM_MAX
             : p == -INFINITY ? ARS_NORM_MIN : p == 0 ? ARS_NORM_0 : ARS_NORM_P;
    int keep = args[2] == Py_True, out_code = v.code == ARS_COMPLEX64 ? ARS_FLOAT32
                                            : v.code == ARS_COMPLEX128 ? ARS_FLOAT64 : v.code;
    lanes_t l;
    if (!plan_lanes(&v, args[1], keep, DINFO[out_code].itemsize, &l))
        Py_RETURN_NONE;
    PyObject *out = empty_dims(l.oshape, l.ond, out_code, l.size);
    if (out == NULL || l.size == 0)
        return out;
    int rc;
    KERNEL(rc, v.size, k_norm(v.code, kind, p, l.nb, l.bshape, array_base((ArrayObject *)out), l.os, v.data, l.xs,
                              l.n, l.step));
    return result_or_none(out, rc);
}

/* searchsorted(x1, x2, side, sorter) -> the int64 insertion indices of x2's
 * elements into the sorted 1-D x1, both arrays of one real dtype
 * in any layout, side "left" or "right" and no sorter, in a new contiguous
 * array of x2's shape; None otherwise (promotion, scalars, sorters, errors:
 * the Python path). */
PyObject *core_searchsorted(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    view_t a, b;
    if (!fast_paths || nargs != 4 || args[3] != Py_None || !PyUnicode_CheckExact(args[2])
        || !read_view(args[0], &a) || !read_view(args[1], &b) || !strides_fit(&a) || !strides_fit(&b)
        || a.ndim != 1 || a.code != b.code || a.kind == K_COMPLEX)
        Py_RETURN_NONE;
    int right;
    if (PyUnicode_CompareWithASCIIString(args[2], "left") == 0)
        right = 0;
    else if (PyUnicode_CompareWithASCIIString(args[2], "right") == 0)
        right = 1;
    else
        Py_RETURN_NONE;
    int64_t bs[FAST_DIMS], os[FAST_DIMS], acc = 8;
    for (int k = b.ndim - 1; k >= 0; k--) {
        bs[k] = b.strides[k] * b.itemsize;
        os[k] = acc;
        acc *= b.shape[k];
    }
    PyObject *out = empty_dims(b.shape, b.ndim, ARS_INT64, b.size);
    if (out == NULL || b.size == 0)
        return out;
    int rc;
    KERNEL(rc, b.size, k_search(a.data, a.shape[0], a.strides[0] * a.itemsize, a.code, right, b.ndim, b.shape,
                                b.data, bs, array_base((ArrayObject *)out), os));
    return result_or_none(out, rc);
}

/* arg(op, x, axis, keepdims) -> argmax (op ARS_LANE_ARGMAX) or argmin of x, a
 * real dtype (a narrow float compared as a float) in any layout: over all of
 * a 0-d, 1-D or dense x (axis None) or along one axis (an int), with a bool
 * keepdims, in a new int64 array; None otherwise (empty lanes, other layouts,
 * errors: the Python path). */
PyObject *core_arg(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    view_t v;
    int ok = 1;
    if (!fast_paths || nargs != 4 || !PyLong_CheckExact(args[0]) || !read_view(args[1], &v) || !strides_fit(&v)
        || (args[3] != Py_True && args[3] != Py_False) || v.kind == K_COMPLEX || v.size == 0)
        Py_RETURN_NONE;
    int64_t op = as_i64(args[0], &ok);
    if (!ok || (op != ARS_LANE_ARGMAX && op != ARS_LANE_ARGMIN))
        Py_RETURN_NONE;
    lanes_t l;
    if (!plan_lanes(&v, args[2], args[3] == Py_True, 8, &l))
        Py_RETURN_NONE;
    PyObject *out = empty_dims(l.oshape, l.ond, ARS_INT64, l.size);
    if (out == NULL)
        return NULL;
    int rc;
    KERNEL(rc, v.size, k_lane((int)op, l.nb, l.bshape, v.data, l.xs, v.code, l.n, l.step,
                              array_base((ArrayObject *)out), l.os, ARS_INT64, 0, 0));
    return result_or_none(out, rc);
}

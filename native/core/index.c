/* arrstride._core: x[key] and x[key] = value (see core.h), and the one key
 * parser both the slots and the Python path (arrstride/_indexing.py) use. */
#include "core.h"

_Static_assert(sizeof(Py_ssize_t) == sizeof(int64_t), "slice indices are int64");

/* ---- the key parser ----------------------------------------------------------------- */

/* What a key means for an array of shape[ndim]: the result's nd dims, each
 * shape[j] long, from axis[j] of the array (-1: a new axis, stride 0) with
 * its stride times step[j]; and the offset moved by at[k] elements along
 * axis shift[k] (k < nshift; at[k] != 0). item[j]: the key item dim j came
 * from (a slice: its step may be past int64). An advanced key (integer
 * arrays, boolean masks) leaves full dims where they index, and lists them
 * in adv (the general path only): (dim, axis, index, position), the index an
 * int (in range) or the array, the position its item's in the key (NumPy's
 * rule for where the broadcast dims go reads it). Each array holds ndim +
 * the key's length. */
typedef struct {
    int nd, nshift, advanced;
    int64_t *shape, *step, *at;
    int *axis, *item, *shift;
    PyObject *adv;
} plan_t;

/* A mistake in the key, for the message Python builds (_errors.key_error):
 * what kind, the item (or index, or count) it names, and the axis. */
typedef struct {
    const char *what;
    PyObject *got;   /* a new reference, or NULL */
    int64_t axis;
} key_mistake;

enum { K_DECLINE = 0, K_PARSED = 1, K_ERROR = -1 };

static int mistake(key_mistake *m, const char *what, PyObject *got, int64_t axis) {
    m->what = what;
    m->got = got;
    m->axis = axis;
    return K_DECLINE;
}

/* The dims of an Array (cfields or its Layout's shape, whose dims are at
 * most int64's largest); a mask's or index array's. */
static int ndim_of(PyObject *arr) {
    ArrayObject *a = (ArrayObject *)arr;
    if (a->cfields)
        return a->nd;
    PyObject *shape = a->layout != NULL ? SLOT(a->layout, off_shape) : NULL;
    return shape != NULL && PyTuple_Check(shape) ? (int)PyTuple_GET_SIZE(shape) : -1;
}

static int64_t dim_of(PyObject *arr, int k) {
    ArrayObject *a = (ArrayObject *)arr;
    if (a->cfields)
        return array_shape(a)[k];
    int ok = 1;
    int64_t d = as_i64(PyTuple_GET_ITEM(SLOT(a->layout, off_shape), k), &ok);
    return ok ? d : -1;
}

/* A slice the slot takes without running Python code: of ints and None
 * (the slot's other items: an int, None, ...). */
static inline int plain_slice(PyObject *it) {
    PySliceObject *s = (PySliceObject *)it;
    return (s->start == Py_None || PyLong_CheckExact(s->start))
        && (s->stop == Py_None || PyLong_CheckExact(s->stop))
        && (s->step == Py_None || PyLong_CheckExact(s->step));
}

/* The general path's view of item it (a new reference, or NULL with an
 * error or *m set): an array-like (list, tuple, bool, anything with
 * __array_interface__, NumPy scalars too) made an Array by convert, an
 * object with __index__ its int; the rest as it is. As _indexing's rules:
 * a bool is a mask, never an int. */
static PyObject *general_item(PyObject *it, PyObject *convert, key_mistake *m) {
    if (it == Py_None || it == Py_Ellipsis || PySlice_Check(it) || PyLong_CheckExact(it))
        return Py_NewRef(it);
    if (PyObject_TypeCheck(it, ArrayType))
        return Py_NewRef(it);
    PyObject *r;
    int like = PyBool_Check(it) || PyList_Check(it) || PyTuple_Check(it);
    if (!like) {
        r = PyObject_GetAttrString(it, "__array_interface__");
        if (r == NULL && !PyErr_ExceptionMatches(PyExc_AttributeError))
            return NULL;
        PyErr_Clear();
        like = r != NULL;
        Py_XDECREF(r);
    }
    if (like) {
        r = PyObject_CallOneArg(convert, it);
        if (r != NULL && !PyObject_TypeCheck(r, ArrayType))
            Py_SETREF(r, PyErr_Format(PyExc_TypeError, "index_key: convert gave a %.50s",
                                      Py_TYPE(r)->tp_name));
        return r;
    }
    PyErr_Clear();
    r = PyNumber_Index(it);
    if (r == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        mistake(m, "type", Py_NewRef(it), 0);
    }
    return r;
}

/* A plain slice's part (None or an int), as PySlice_Unpack reads it:
 * clamped to Py_ssize_t's range. */
static inline Py_ssize_t slice_part(PyObject *o, Py_ssize_t none) {
    if (o == Py_None)
        return none;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    return overflow > 0 ? PY_SSIZE_T_MAX : overflow < 0 ? PY_SSIZE_T_MIN : (Py_ssize_t)v;
}

/* PySlice_Unpack, without its calls for a plain slice (its step not zero). */
static inline int unpack_slice(PyObject *it, Py_ssize_t *start, Py_ssize_t *stop, Py_ssize_t *step) {
    if (!plain_slice(it))
        return PySlice_Unpack(it, start, stop, step);
    PySliceObject *s = (PySliceObject *)it;
    *step = slice_part(s->step, 1);
    if (*step < -PY_SSIZE_T_MAX)  /* so that -step cannot overflow */
        *step = -PY_SSIZE_T_MAX;
    *start = slice_part(s->start, *step < 0 ? PY_SSIZE_T_MAX : 0);
    *stop = slice_part(s->stop, *step < 0 ? PY_SSIZE_T_MIN : PY_SSIZE_T_MAX);
    return 0;
}

/* Whether the slice's step is zero, as `s.step == 0` decides: 1, 0, or -1
 * with an error. */
static int zero_step(PyObject *step) {
    if (step == Py_None)
        return 0;
    if (PyLong_CheckExact(step)) {
        int overflow;
        return PyLong_AsLongLongAndOverflow(step, &overflow) == 0 && !overflow;
    }
    PyObject *zero = PyLong_FromLong(0);
    if (zero == NULL)
        return -1;
    int r = PyObject_RichCompareBool(step, zero, Py_EQ);
    Py_DECREF(zero);
    return r;
}

/* One advanced item into p->adv: (dim, axis, index, position in the key);
 * index is a new reference, stolen (NULL: an error is set). 0, or -1 with an
 * error. */
static int add_advanced(plan_t *p, int dim, int axis, PyObject *index, Py_ssize_t position) {
    PyObject *e = index == NULL ? NULL : Py_BuildValue("(iiNn)", dim, axis, index, position);
    int rc = e == NULL || PyList_Append(p->adv, e) < 0 ? -1 : 0;
    Py_XDECREF(e);
    return rc;
}

/* Parse the key items[0..nk) for an array of shape[ndim] (empty: it has no
 * element) into p. convert == NULL: the slot's mode, which takes plain items
 * only (ints, None, ..., slices of ints) and a result of at most FAST_DIMS dims, and declines
 * (K_DECLINE) anything else, mistakes included, without an error set. Else the general mode: items (the key's
 * items, owned by the caller) are replaced by general_item's view of them,
 * mistakes come back in *m (K_DECLINE with m->what set), an error from Python
 * code as K_ERROR. Each pass goes item by item, so the first mistake in the
 * key is the one reported: conversions, ... and dtypes; then the count of
 * indices; then slices, ints and mask shapes. Inlined into both callers, so
 * that the slot's copy (convert == NULL) carries none of the general mode. */
static inline __attribute__((always_inline)) int parse_items(PyObject **items, Py_ssize_t nk, int ndim, const int64_t *shape, int empty,
                       PyObject *convert, plan_t *p, key_mistake *m) {
    int used = 0, ellipsis = 0, general = convert != NULL;
    p->advanced = 0;
    /* the general mode's first pass: each item converted and classified, and
     * the count of indices; the slot's mode does without (below) */
    for (Py_ssize_t k = 0; general && k < nk; k++) {
        PyObject *it = general_item(items[k], convert, m);  /* items: the general path's copy */
        if (it == NULL)
            return m->what != NULL ? K_DECLINE : K_ERROR;
        Py_SETREF(items[k], it);
        if (it == Py_Ellipsis) {
            if (ellipsis++)
                return mistake(m, "ellipsis", NULL, 0);
        } else if (PyLong_CheckExact(it) || PySlice_Check(it)) {
            used++;
        } else if (it != Py_None) {  /* an Array: a mask of its dims, or integer indices */
            int kind = dtype_code(((ArrayObject *)it)->dtype), nd = ndim_of(it);
            kind = kind < 0 ? -1 : DINFO[kind].kind;
            if (kind == K_BOOL && nd >= 0)
                used += nd;
            else if (kind == K_INT || kind == K_UINT)
                used++;
            else
                return mistake(m, "dtype", Py_NewRef(it), 0);
            p->advanced = 1;
        }
    }
    if (used > ndim)
        return mistake(m, "too_many", PyLong_FromLong(used), 0);
    /* live: the view so far has elements. Past an empty slice (or in an
     * empty array) the offset stays, as in _layout.slice_dim and select. */
    int od = 0, axis = 0, live = !empty;
    p->nshift = 0;
    /* (the slot's mode: at most FAST_DIMS dims, and no more indices than dims) */
#define DIM(n, ax, st, k) do {                                                             \
        if (!general && od == FAST_DIMS)                                                   \
            return K_DECLINE;                                                              \
        p->shape[od] = (n), p->axis[od] = (ax), p->step[od] = (st);                        \
        if (general)                                                                       \
            p->item[od] = (k);                                                             \
        od++;                                                                              \
    } while (0)
#define SHIFT(ax, i) (p->shift[p->nshift] = (ax), p->at[p->nshift++] = (i))
    for (Py_ssize_t k = 0; k < nk; k++) {
        PyObject *it = items[k];
        if (it == Py_None) {
            DIM(1, -1, 0, -1);
        } else if (it == Py_Ellipsis) {
            if (!general) {  /* the dims the items on both sides index */
                if (ellipsis++)
                    return K_DECLINE;
                used = axis;
                for (Py_ssize_t r = k + 1; r < nk; r++)
                    used += items[r] != Py_None && items[r] != Py_Ellipsis;
                if (used > ndim)
                    return K_DECLINE;
            }
            for (int e = ndim - used; e > 0; e--, axis++)
                DIM(shape[axis], axis, 1, -1);
        } else if (PySlice_Check(it)) {
            if (!general && (axis == ndim || !plain_slice(it)))
                return K_DECLINE;
            int64_t n = shape[axis];
            Py_ssize_t start, stop, step;
            PyObject *kstep = ((PySliceObject *)it)->step;
            int z = kstep == Py_None ? 0 : zero_step(kstep);
            if (z != 0)
                return z < 0 ? K_ERROR : general ? mistake(m, "step", NULL, 0) : K_DECLINE;
            if (unpack_slice(it, &start, &stop, &step) < 0)
                return K_ERROR;  /* only a general item runs __index__ */
            if (!general && (step == PY_SSIZE_T_MAX || step <= -PY_SSIZE_T_MAX))
                return K_DECLINE;  /* a step past int64, clamped: the general path's */
            int64_t len = PySlice_AdjustIndices((Py_ssize_t)n, &start, &stop, step);
            if (live && len > 0 && start != 0)
                SHIFT(axis, start);
            live &= len > 0;
            DIM(len, axis, step, (int)k);
            axis++;
        } else if (PyLong_CheckExact(it)) {
            if (!general && axis == ndim)
                return K_DECLINE;
            int64_t n = shape[axis];
            int ok = 1;
            int64_t i = as_i64(it, &ok);  /* past int64: out of every dim's range */
            if (!ok || i < -n || i >= n)
                return general ? mistake(m, "bounds", Py_NewRef(it), axis) : K_DECLINE;
            if (i < 0)
                i += n;
            if (p->advanced) {  /* joins the advanced index (NumPy's rule) */
                if (add_advanced(p, od, axis, PyLong_FromLongLong(i), k) < 0)
                    return K_ERROR;
                DIM(n, axis, 1, -1);
            } else if (live && i != 0) {
                SHIFT(axis, i);
            }
            axis++;
        } else if (!general) {
            return K_DECLINE;
        } else {  /* an Array: its indices (or mask) go to the Python path */
            int nd = 1;
            if (DINFO[dtype_code(((ArrayObject *)it)->dtype)].kind == K_BOOL) {
                nd = ndim_of(it);
                for (int d = 0; d < nd; d++) {  /* a mask dim of 0 selects nothing from any dim */
                    int64_t md = dim_of(it, d);
                    if (md != shape[axis + d] && md != 0)
                        return mistake(m, "mask", Py_NewRef(it), axis);
                }
            }
            if (add_advanced(p, od, axis, Py_NewRef(it), k) < 0)
                return K_ERROR;
            if (nd == 0)  /* a 0-d mask: a new axis, selected whole or not at all */
                DIM(1, -1, 0, -1);
            for (int d = 0; d < nd; d++, axis++)
                DIM(shape[axis], axis, 1, -1);
        }
    }
    for (; axis < ndim; axis++)
        DIM(shape[axis], axis, 1, -1);
#undef DIM
#undef SHIFT
    p->nd = od;
    return K_PARSED;
}

/* The slot's parse of key for v: 1 with the plan in p (arrays of FAST_DIMS),
 * 0 not a plain basic key (or a mistake: the general path reports it). */
static int parse_plain(const view_t *v, PyObject *key, plan_t *p) {
    PyObject **items = &key;
    Py_ssize_t nk = 1;
    if (PyTuple_Check(key)) {
        items = &PyTuple_GET_ITEM(key, 0);
        nk = PyTuple_GET_SIZE(key);
    }
    return parse_items(items, nk, v->ndim, v->shape, v->size == 0, NULL, p, NULL) == K_PARSED;
}

/* v indexed by a basic key, in out: 1, or 0 not a fast case (a key of other
 * items, a mistake, a step or layout value past int64). */
static int index_basic(const view_t *v, PyObject *key, view_t *out) {
    int64_t step[FAST_DIMS], at[FAST_DIMS];
    int axis[FAST_DIMS], sh[FAST_DIMS];
    plan_t p;
    p.adv = NULL, p.item = NULL;
    p.shape = out->shape, p.step = step, p.at = at, p.axis = axis, p.shift = sh;
    if (!parse_plain(v, key, &p))
        return 0;
    int64_t offset = v->offset, shift, size = 1;
    for (int k = 0; k < p.nshift; k++)
        if (__builtin_mul_overflow(at[k], v->strides[sh[k]], &shift) || __builtin_add_overflow(offset, shift, &offset))
            return 0;
    for (int j = 0; j < p.nd; j++) {
        size *= out->shape[j];  /* at most v's size */
        if (axis[j] < 0)
            out->strides[j] = 0;
        else if (__builtin_mul_overflow(v->strides[axis[j]], step[j], &out->strides[j]))
            return 0;
    }
    out->ndim = p.nd;
    out->offset = offset;
    out->size = size;
    return 1;
}

/* _core.index_key(x, key, convert): the general path's parse of key for the
 * Array x (any layout, any number of dims): (shape, axes, steps, starts, adv)
 * as plan_t describes them (_layout.index_view makes the view), or a mistake
 * (what, got, axis) with what a str (_errors.key_error words it). convert
 * makes an Array of an array-like item (_indexing._as_array). */
PyObject *core_index_key(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (nargs != 3 || !ready || !PyObject_TypeCheck(args[0], ArrayType)) {
        PyErr_SetString(PyExc_TypeError, "index_key(x, key, convert): x must be an arrstride array");
        return NULL;
    }
    ArrayObject *x = (ArrayObject *)args[0];
    PyObject *key = args[1], *convert = args[2], *items = NULL, *out = NULL;
    int ndim = ndim_of((PyObject *)x);
    Py_ssize_t nk = PyTuple_Check(key) ? PyTuple_GET_SIZE(key) : 1;
    key_mistake m = {NULL, NULL, 0};
    plan_t p = {0};
    if (ndim < 0 || nk > INT_MAX / 2 - ndim) {
        PyErr_SetString(PyExc_TypeError, "index_key: x has no layout, or the key is too long");
        return NULL;
    }
    size_t cap = (size_t)ndim + (size_t)nk + 1;
    int64_t *buf = PyMem_Malloc(cap * (4 * sizeof(int64_t) + 3 * sizeof(int)));
    if (buf == NULL)
        return PyErr_NoMemory();
    p.shape = buf, p.step = buf + cap, p.at = buf + 2 * cap;
    int64_t *xshape = buf + 3 * cap;
    p.axis = (int *)(buf + 4 * cap), p.item = p.axis + cap, p.shift = p.item + cap;
    int empty = 0;
    for (int a = 0; a < ndim; a++) {
        xshape[a] = dim_of((PyObject *)x, a);
        empty |= xshape[a] == 0;
    }
    p.adv = PyList_New(0);
    items = PyTuple_New(nk);
    if (p.adv == NULL || items == NULL)
        goto done;
    for (Py_ssize_t k = 0; k < nk; k++)
        PyTuple_SET_ITEM(items, k, Py_NewRef(PyTuple_Check(key) ? PyTuple_GET_ITEM(key, k) : key));
    int rc = parse_items(&PyTuple_GET_ITEM(items, 0), nk, ndim, xshape, empty, convert, &p, &m);
    if (rc == K_ERROR)
        goto done;
    if (rc == K_PARSED) {
        PyObject *steps = PyTuple_New(p.nd), *axes = PyTuple_New(p.nd);
        for (int j = 0; steps != NULL && axes != NULL && j < p.nd; j++) {
            PyObject *s = p.item[j] >= 0 && (p.step[j] == PY_SSIZE_T_MAX || p.step[j] <= -PY_SSIZE_T_MAX)
                ? PyNumber_Index(((PySliceObject *)PyTuple_GET_ITEM(items, p.item[j]))->step)
                : PyLong_FromLongLong(p.step[j]);  /* the exact step of one PySlice_Unpack clamped */
            PyObject *a = PyLong_FromLong(p.axis[j]);
            PyTuple_SET_ITEM(steps, j, s);
            PyTuple_SET_ITEM(axes, j, a);
            if (s == NULL || a == NULL)
                break;
        }
        int64_t *starts = xshape;  /* (read no more) the index each axis moves the offset by */
        memset(starts, 0, sizeof(int64_t) * (size_t)ndim);
        for (int k = 0; k < p.nshift; k++)
            starts[p.shift[k]] = p.at[k];
        PyObject *parts[5] = {tuple_i64(p.shape, p.nd), axes, steps, tuple_i64(starts, ndim),
                              PyList_AsTuple(p.adv)};
        int ok = !PyErr_Occurred();
        for (int k = 0; k < 5; k++)
            ok &= parts[k] != NULL;
        out = ok ? PyTuple_New(5) : NULL;
        for (int k = 0; k < 5; k++) {
            if (out != NULL)
                PyTuple_SET_ITEM(out, k, parts[k]);
            else
                Py_XDECREF(parts[k]);
        }
    }
done:
    if (m.what != NULL && !PyErr_Occurred())
        out = Py_BuildValue("(sOL)", m.what, m.got != NULL ? m.got : Py_None, (long long)m.axis);
    Py_XDECREF(m.got);
    Py_XDECREF(items);
    Py_XDECREF(p.adv);
    PyMem_Free(buf);
    return out;
}

/* ---- x[key] ------------------------------------------------------------------------ */

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
    if (w->code != ARS_BOOL || !v->dense || w->ndim > v->ndim || w->ndim == 0
        || memcmp(w->shape, v->shape, sizeof(int64_t) * w->ndim) != 0)
        return 0;
    operand_t wo = operand_of(w), vo = operand_of(v);
    if (w->dense) {
        if (write_meets(&wo, &vo) == MEET_OVERLAP)
            return 0;
        *bytes = w->data;
    } else {
        char *m = malloc((size_t)w->size + 1);
        if (m == NULL)
            return 0;
        /* the mask's elements in C order: one copy by the kernel library's
         * iterator (bool: strides in bytes) */
        int64_t ms[FAST_DIMS], ws[FAST_DIMS], acc = 1;
        for (int k = w->ndim - 1; k >= 0; k--) {
            ms[k] = acc;
            ws[k] = w->shape[k] > 1 ? w->strides[k] : 0;
            acc *= w->shape[k];
        }
        int rc;
        KERNEL(rc, w->size, k_cast(w->ndim, w->shape, m, ms, ARS_BOOL, w->data, ws, ARS_BOOL));
        if (rc != 0) {
            free(m);
            return 0;
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

/* The index at p, an element of an integer dtype code: 1 with it in *out,
 * 0 when it does not fit int64 (the Python path then raises). */
static int read_index(const char *p, int code, int64_t *out) {
    switch (code) {
    case ARS_INT8: *out = *(const int8_t *)p; return 1;
    case ARS_INT16: { int16_t t; memcpy(&t, p, 2); *out = t; return 1; }
    case ARS_INT32: { int32_t t; memcpy(&t, p, 4); *out = t; return 1; }
    case ARS_INT64: memcpy(out, p, 8); return 1;
    case ARS_UINT8: *out = *(const uint8_t *)p; return 1;
    case ARS_UINT16: { uint16_t t; memcpy(&t, p, 2); *out = t; return 1; }
    case ARS_UINT32: { uint32_t t; memcpy(&t, p, 4); *out = t; return 1; }
    case ARS_UINT64: { uint64_t t; memcpy(&t, p, 8); *out = (int64_t)t; return t <= INT64_MAX; }
    default: return 0;
    }
}

/* x[idx] for a dense x of at least one dim and a dense integer array idx of
 * at least one dim: the rows x[i] for each i of idx, in a new array of shape
 * idx.shape + x.shape[1:], by the kernel library's gather (ars_take: each
 * index checked as it is read, the source prefetched, on the pool when
 * large); indices of another integer dtype are read into int64 first. NULL
 * without an exception when it is not a fast case (an index out of range
 * included: the Python path words the error). */
static PyObject *gather_rows(const view_t *v, const view_t *w) {
    int kind = DINFO[w->code].kind;
    if ((kind != K_INT && kind != K_UINT) || !v->dense || !w->dense || v->ndim < 1 || w->ndim < 1
        || w->ndim + v->ndim - 1 > FAST_DIMS)
        return NULL;
    int64_t dims[FAST_DIMS], block = 1, n = v->shape[0];
    int nd = w->ndim + v->ndim - 1;
    memcpy(dims, w->shape, sizeof(int64_t) * w->ndim);
    for (int k = 1; k < v->ndim; k++) {
        dims[w->ndim + k - 1] = v->shape[k];
        block *= v->shape[k];  /* at most v's size */
    }
    int64_t size;
    if (__builtin_mul_overflow(w->size, block, &size))
        return NULL;
    if (size == 0) {  /* nothing is read, but every index is still checked */
        for (int64_t i = 0; i < w->size; i++) {
            int64_t j;
            if (!read_index(w->data + i * w->itemsize, w->code, &j) || j < -n || j >= n)
                return NULL;
        }
        return empty_dims(dims, nd, v->code, 0);
    }
    const char *idx = w->data;
    int64_t *tmp = NULL;
    if (w->code != ARS_INT64) {
        tmp = malloc(sizeof(int64_t) * (size_t)w->size);
        if (tmp == NULL)
            return NULL;
        for (int64_t i = 0; i < w->size; i++)
            if (!read_index(w->data + i * w->itemsize, w->code, &tmp[i])) {
                free(tmp);
                return NULL;
            }
        idx = (const char *)tmp;
    }
    PyObject *out = empty_dims(dims, nd, v->code, size);
    if (out != NULL) {
        /* (index, element of the row): out C-ordered, idx read once per row,
         * the row's elements at one source offset per index */
        int64_t isz = v->itemsize, bb = block * isz, bad = 0;
        int64_t shape[2] = {w->size, block}, os[2] = {bb, isz}, is[2] = {8, 0}, ss[2] = {0, isz};
        char *dst = array_base((ArrayObject *)out);
        int rc;
        KERNEL(rc, size, k_take(block == 1 ? 1 : 2, shape, dst, os, idx, is, v->data, ss, n, bb, isz, &bad));
        if (rc != 0)
            Py_CLEAR(out);  /* an index out of range: the Python path raises */
    }
    free(tmp);
    return out;
}

/* x[mask] for a bool mask w of v's leading dims (all of them, or the first
 * few: each true element then selects a block of the trailing dims), both in
 * any layout: the mask's count, then one gather in C order (the mask read
 * with stride 0 along the block's dims), each on the pool when large. NULL
 * without an exception when it is not a fast case, or when the mask changed
 * between the count and the gather (another thread writing it): the Python
 * path then reads it again. */
static PyObject *mask_gather(const view_t *v, const view_t *w) {
    if (w->code != ARS_BOOL || w->ndim == 0 || w->ndim > v->ndim || !strides_fit(v)
        || memcmp(w->shape, v->shape, sizeof(int64_t) * w->ndim) != 0)
        return NULL;
    int64_t count = 0, block = 1, vst[FAST_DIMS], mst[FAST_DIMS], dims[FAST_DIMS];
    for (int k = 0; k < v->ndim; k++) {
        vst[k] = v->strides[k] * v->itemsize;
        mst[k] = k < w->ndim ? w->strides[k] : 0;  /* bool: strides in bytes */
        if (k >= w->ndim)
            block *= v->shape[k];  /* at most v's size */
    }
    int rc;
    KERNEL(rc, w->size, k_count_true(w->ndim, w->shape, w->data, mst, &count));
    if (rc != 0)
        return NULL;
    int nd = 1 + v->ndim - w->ndim;
    dims[0] = count;
    memcpy(dims + 1, v->shape + w->ndim, sizeof(int64_t) * (nd - 1));
    PyObject *out = empty_dims(dims, nd, v->code, count * block);
    if (out == NULL || count == 0 || block == 0)
        return out;
    char *dst = array_base((ArrayObject *)out);
    KERNEL(rc, v->size, k_compress(v->ndim, v->shape, v->data, vst, w->data, mst, dst,
                                   v->itemsize, count * block));
    if (rc != 0)
        Py_CLEAR(out);
    return out;
}

/* take(x, indices, axis) -> take along axis 0 (axis None for a 1-D x, or 0,
 * or -ndim) of a dense x by a dense integer array of indices, in range: the
 * rows in C (gather_rows); None for anything else (the Python path). */
PyObject *core_take(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    view_t v, w;
    int ok = 1;
    if (!fast_paths || nargs != 3 || !read_view(args[0], &v) || !read_view(args[1], &w) || v.ndim < 1)
        Py_RETURN_NONE;
    if (args[2] == Py_None) {
        if (v.ndim != 1)
            Py_RETURN_NONE;
    } else {
        int64_t axis = PyLong_CheckExact(args[2]) ? as_i64(args[2], &ok) : -1;
        if (!PyLong_CheckExact(args[2]) || !ok || (axis != 0 && axis != -v.ndim))
            Py_RETURN_NONE;
    }
    PyObject *out = gather_rows(&v, &w);
    if (out == NULL && !PyErr_Occurred())
        Py_RETURN_NONE;
    return out;
}

static PyObject *array_subscript(PyObject *self, PyObject *key) {
    view_t v, w;
    if (fast_paths && read_view(self, &v)) {
        if (index_basic(&v, key, &w))
            return view_of(self, w.shape, w.strides, w.ndim, w.offset, w.size);
        /* x[mask]: the elements (or blocks) where a mask of x's leading dims
         * is true, in C order */
        if (read_view(key, &w)) {
            PyObject *out = mask_gather(&v, &w);
            if (out != NULL || PyErr_Occurred())
                return out;
        }
        /* x[idx]: the rows x[i] for each integer i of idx */
        if (read_view(key, &w)) {
            PyObject *out = gather_rows(&v, &w);
            if (out != NULL || PyErr_Occurred())
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
    operand_t so, vo;
    char item[16];
    int64_t count, block;
    if (!fast_paths || value == NULL || !read_view(self, &v) || v.readonly)
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
                   && (so = operand_of(&s), vo = operand_of(&v), write_meets(&so, &vo) == MEET_APART)) {
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
    if (!index_basic(&v, key, &w) || w.size == 0)
        goto slow;  /* an empty destination: the Python path checks the value */
    char *base = array_base((ArrayObject *)self);
    int isz = v.itemsize;
    /* the destination, as the engine's output (index_basic's w in elements) */
    operand_t o = {first_element(base, w.offset, w.size, isz), w.shape, w.strides, w.ndim, v.code, isz,
                   is_dense(&w), w.size};
    ew_call c = {EW_COPY, 0, v.code, v.code, NULL, 0, 0, 0, {0, 0}};
    operand_t in;
    if (pack_scalar(value, v.code, item)) {
        /* one element into every element of the destination */
        in = scalar_operand(v.code, item);
    } else if (PyErr_Occurred()) {
        return -1;
    } else if (read_view(value, &s) && s.code == v.code && s.ndim == w.ndim
               && memcmp(s.shape, w.shape, sizeof(int64_t) * w.ndim) == 0) {
        /* an array of the destination's dtype and shape: copied first where
         * it overlaps the destination without being it */
        in = operand_of(&s);
    } else {
        goto slow;
    }
    /* declined (no exception): the destination may reach an element twice;
     * the Python path decides */
    PyObject *done = engine_run(&c, &in, self, &o, OVERLAP_COPY);
    if (done != NULL) {
        Py_DECREF(done);
        return 0;
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

PyMappingMethods array_as_mapping = {
    .mp_subscript = array_subscript,
    .mp_ass_subscript = array_ass_subscript,
};

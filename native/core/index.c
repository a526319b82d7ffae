/* arrstride._core: x[key] and x[key] = value (see core.h). */
#include "core.h"

/* ---- x[key] ------------------------------------------------------------------------ */

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
    if (fast_paths && read_view(self, &v)) {
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

PyMappingMethods array_as_mapping = {
    .mp_subscript = array_subscript,
    .mp_ass_subscript = array_ass_subscript,
};

/* arrstride._core: the one elementwise engine (see core.h).
 *
 * Every elementwise kernel call goes through engine_run: the fast paths of
 * the operator slots, the Elementwise objects and where() (operators.c,
 * ewise.c, calls.c), with operands read from views or packed from Python
 * scalars, and the general path of the Python functions (_core.ewise, below),
 * with operands in any layout, after Python has validated, promoted and cast.
 * It owns, once:
 *   broadcasting  the operands' shapes, right-aligned: stride 0 where an
 *                 operand has no dim or a dim of size 1;
 *   output order  a new output follows the memory order of the first input
 *                 that covers its shape without broadcasting (NumPy's order
 *                 "K", PyTorch's TensorIterator), else C order;
 *   overlap       an output given (x op= y, dst[...] = src) must not reach one
 *                 element twice; an input that overlaps it without being it is
 *                 copied first (the general path) or the call is declined (fast
 *                 paths); a copy of one dtype between dense operands of one
 *                 shape is a memmove, exact under overlap. This is the one
 *                 overlap decision of every write (write_inputs);
 *   dtypes        each input of a unary or binary call has its own dtype
 *                 (ew_call's conv, icode): the kernel library casts it into
 *                 the call's dtype, and the result into the output's, block
 *                 by block (no full-size converted copy);
 *   copies        EW_COPY: dst[...] = src, a copy or a cast (astype, copy,
 *                 contiguous, setitem's value, every copy_into);
 *   flat or N-D   one flat kernel call when the output is C-ordered and every
 *                 input is dense with its shape or a single element, else one
 *                 N-D call (the kernel library's iterator merges what it can).
 */
#include "core.h"

static const int NIN[EW_KINDS] = {1, 2, 3, 3, 1, 1};

/* The shape the operands broadcast to (*nd set); 0: they do not. */
static int broadcast(const operand_t *ins, int nin, int64_t *shape, int *nd) {
    int n = 0;
    for (int i = 0; i < nin; i++)
        n = ins[i].nd > n ? ins[i].nd : n;
    if (n > ARS_MAX_DIMS)
        return 0;
    for (int k = 0; k < n; k++)
        shape[k] = 1;
    for (int i = 0; i < nin; i++) {
        const operand_t *o = &ins[i];
        for (int k = 0, j = n - o->nd; k < o->nd; k++, j++) {
            int64_t d = o->shape[k];
            if (d == 1)
                continue;
            if (shape[j] == 1)
                shape[j] = d;
            else if (shape[j] != d)
                return 0;
        }
    }
    *nd = n;
    return 1;
}

/* The output's element strides (ostr) for shape: the memory order of the
 * first input that covers shape without a zero stride, else C order. 1 when
 * that is C order. The caller checked that the sizes' product fits. */
static int order_like(const int64_t *shape, int n, const operand_t *ins, int nin, int64_t *ostr) {
    int64_t acc = 1;
    for (int k = n - 1; k >= 0; k--) {
        ostr[k] = acc;
        acc *= shape[k] > 1 ? shape[k] : 1;
    }
    if (n < 2)
        return 1;
    for (int i = 0; i < nin; i++) {
        const operand_t *v = &ins[i];
        if (v->nd != n || memcmp(v->shape, shape, sizeof(int64_t) * n) != 0)
            continue;
        int ok = 1;
        for (int k = 0; k < n; k++)
            ok &= v->strides[k] != 0 || shape[k] == 1;
        if (!ok)
            continue;
        if (v->dense)
            return 1;
        /* a stable sort of the dims by -|stride| (size-1 dims: key 0) */
        int perm[ARS_MAX_DIMS];
        int64_t key[ARS_MAX_DIMS];
        for (int k = 0; k < n; k++) {
            int64_t a = shape[k] == 1 ? 0 : v->strides[k] < 0 ? -v->strides[k] : v->strides[k];
            key[k] = -a;
            int j = k;
            while (j > 0 && key[perm[j - 1]] > key[k]) {
                perm[j] = perm[j - 1];
                j--;
            }
            perm[j] = k;
        }
        int identity = 1;
        acc = 1;
        for (int j = n - 1; j >= 0; j--) {
            identity &= perm[j] == j;
            ostr[perm[j]] = acc;
            acc *= shape[perm[j]] > 1 ? shape[perm[j]] : 1;
        }
        return identity;
    }
    return 1;
}

/* The element count of shape; 0 with *fits cleared past int64. */
static int64_t count(const int64_t *shape, int n, int *fits) {
    int64_t size = 1;
    *fits = 1;
    for (int k = 0; k < n; k++)
        if (shape[k] == 0)
            return 0;
    for (int k = 0; k < n; k++)
        if (__builtin_mul_overflow(size, shape[k], &size)) {
            *fits = 0;
            return 0;
        }
    *fits = 1;
    return size;
}

/* A new array of dtype code and shape (size elements, > 0) in order_like's
 * layout; *cdense: it is C-ordered. */
static PyObject *new_output(int code, const int64_t *shape, int n, int64_t size, const operand_t *ins,
                            int nin, int64_t *ostr, int *cdense) {
    int64_t nbytes;
    if (__builtin_mul_overflow(size, (int64_t)DINFO[code].itemsize, &nbytes) || nbytes > ((int64_t)1 << 62)) {
        PyErr_SetString(PyExc_MemoryError, "arrstride: array too large");
        return NULL;
    }
    *cdense = order_like(shape, n, ins, nin, ostr);
    PyObject *st = new_storage((Py_ssize_t)nbytes);
    if (st == NULL)
        return NULL;
    return array_of(st, code, n, shape, ostr, 0, size);
}

/* An empty array of dtype code and shape (C order). */
static PyObject *new_empty(int code, const int64_t *shape, int n) {
    if (n <= FAST_DIMS)
        return empty_dims(shape, n, code, 0);
    PyObject *t = tuple_i64(shape, n);
    if (t == NULL)
        return NULL;
    PyObject *out = empty_array(t, code, 0);
    Py_DECREF(t);
    return out;
}

/* Same first element, item size and steps over shape (dims of size > 1). */
static int same_view(const operand_t *a, const operand_t *b) {
    if (a->data != b->data || a->nd != b->nd || a->itemsize != b->itemsize)
        return 0;
    for (int k = 0; k < a->nd; k++)
        if (a->shape[k] != b->shape[k] || (a->shape[k] > 1 && a->strides[k] != b->strides[k]))
            return 0;
    return 1;
}

/* How an input v meets a given output o of a write (both non-empty): APART
 * (no byte in common), SAME (the output itself: each element is read before
 * it is written) or OVERLAP (v must be copied first, or the call declined).
 * The one overlap test of every write: the engine's, and the [] slots' (a
 * mask or a value beside the array written). */
int write_meets(const operand_t *v, const operand_t *o) {
    if (same_view(v, o))
        return MEET_SAME;
    return operands_disjoint(v, o) ? MEET_APART : MEET_OVERLAP;
}

/* o's elements copied (cast to dtype code `code`) into a new C-ordered block
 * (kept alive by *keep); o then reads the copy, with strides written to cstr.
 * -1 on error. */
int cast_operand(operand_t *o, int code, int64_t *cstr, PyObject **keep) {
    int64_t ds[ARS_MAX_DIMS], ss[ARS_MAX_DIMS], isz = DINFO[code].itemsize, acc = isz, nbytes;
    if (__builtin_mul_overflow(o->size, isz, &nbytes)) {
        PyErr_NoMemory();
        return -1;
    }
    PyObject *st = new_storage((Py_ssize_t)nbytes);
    if (st == NULL)
        return -1;
    char *dst = storage_address(st);
    for (int k = o->nd - 1; k >= 0; k--) {
        ss[k] = o->shape[k] > 1 ? o->strides[k] * o->itemsize : 0;  /* inside the storage */
        ds[k] = acc;
        cstr[k] = acc / isz;
        acc *= o->shape[k];
    }
    int rc;
    KERNEL(rc, o->size, k_cast(o->nd, o->shape, dst, ds, code, o->data, ss, o->code));
    if (run_status(rc) < 0) {
        Py_DECREF(st);
        return -1;
    }
    *keep = st;
    o->data = dst, o->strides = cstr, o->dense = 1, o->code = code, o->itemsize = (int)isz;
    return 0;
}

/* One kernel call of c over dims (nd dims: the shape, then the byte strides of
 * the output and of each input); flat: nd = 1 over dense operands, where the
 * unary and binary kernels have flat entries. */
static inline __attribute__((always_inline)) int call_kernel(const ew_call *c, int flat, int nd, int64_t *dims,
                                                             char *o, const char *const *in, int64_t size) {
    int rc = 0;
    if (c->conv) {  /* inputs or an output of other dtypes: cast per block */
        int op = c->kind == EW_WHERE ? ARS_CONV_WHERE : c->kind == EW_CLIP ? ARS_CONV_CLIP : c->op;
        KERNEL(rc, size, k_ewise_conv(op, NIN[c->kind], c->code, c->out_code, c->icode, nd, dims, o, in[0],
                                      in[1], in[2]));
        return rc;
    }
    switch (c->kind) {
    case EW_UNARY:
        if (flat)
            KERNEL(rc, size, k_unary_flat(c->op, c->code, size, o, in[0], dims[2]));
        else
            KERNEL(rc, size, k_unary(c->op, c->code, nd, dims, o, in[0]));
        break;
    case EW_BINARY:
        if (flat)
            KERNEL(rc, size, k_binary_flat(c->op, c->code, size, o, in[0], dims[2], in[1], dims[3]));
        else
            KERNEL(rc, size, k_binary(c->op, c->code, nd, dims, o, in[0], in[1]));
        break;
    case EW_WHERE:
        KERNEL(rc, size, k_where(DINFO[c->out_code].itemsize, nd, dims, o, in[0], in[1], in[2]));
        break;
    case EW_CLIP:
        KERNEL(rc, size, k_clip(c->code, nd, dims, o, in[0], in[1], in[2]));
        break;
    case EW_ISIN:
        KERNEL(rc, size, k_isin(c->code, c->icode[0], nd, dims, o, in[0], c->set, c->nset, c->invert));
        break;
    case EW_COPY:  /* (a copy when the dtypes agree) */
        KERNEL(rc, size, k_cast(nd, dims, o, dims + nd, c->out_code, in[0], dims + 2 * nd, c->code));
        break;
    }
    return rc;
}

/* One flat kernel call of c over size elements: the output dense in C order,
 * each input dense with its shape or a single element (byte step 0). */
static inline __attribute__((always_inline)) int run_flat(const ew_call *c, const operand_t *ins, int nin,
                                                          char *o, int64_t size) {
    int64_t dims[5] = {size, DINFO[c->out_code].itemsize};
    const char *data[3] = {NULL, NULL, NULL};
    for (int i = 0; i < nin; i++) {
        dims[2 + i] = ins[i].size == 1 ? 0 : ins[i].itemsize;
        data[i] = ins[i].data;
    }
    return call_kernel(c, 1, 1, dims, o, data, size);
}

/* c over the operands ins (NIN[c->kind] of them): into out (vout its view;
 * its shape must be the broadcast shape, and it must not reach an element
 * twice), or into a new array of dtype c->out_code when out is NULL. Returns
 * the output (a new reference), or NULL: with an exception on an error, or
 * without one when the call is declined (shapes that do not broadcast, a
 * given output of another shape or reaching an element twice, an input that
 * overlaps the output under OVERLAP_DECLINE): the caller's general path
 * decides those. */
static PyObject *engine_general(const ew_call *c, const operand_t *ins, PyObject *out, const operand_t *vout,
                                int overlap) __attribute__((noinline));

PyObject *engine_run(const ew_call *c, const operand_t *ins, PyObject *out, const operand_t *vout,
                     int overlap) {
    /* The common cases first, with a small frame: dense inputs of one shape
     * (or single elements beside them) into a new C-ordered output, or into a
     * dense output they are or lie apart from: one flat call. */
    int nin = NIN[c->kind];
    const operand_t *lead = NULL;
    for (int i = 0; i < nin && out == NULL; i++) {
        const operand_t *v = &ins[i];
        if (v->nd == 0)
            continue;
        int same = v->dense && (lead == NULL || v->nd == lead->nd);
        for (int k = 0; same && lead != NULL && k < v->nd; k++)
            same = v->shape[k] == lead->shape[k];
        if (!same)
            return engine_general(c, ins, out, vout, overlap);
        lead = v;
    }
    char *o;
    if (out == NULL) {
        if (lead == NULL || lead->size == 0 || lead->nd > FAST_DIMS)
            return engine_general(c, ins, out, vout, overlap);
        out = empty_dims(lead->shape, lead->nd, c->out_code, lead->size);
        if (out == NULL)
            return NULL;
        o = array_base((ArrayObject *)out);
    } else {
        /* into a dense output: inputs that are it, or single elements or
         * dense arrays of its shape apart from it */
        if (!vout->dense || vout->size == 0)
            return engine_general(c, ins, out, vout, overlap);
        for (int i = 0; i < nin; i++) {
            const operand_t *v = &ins[i];
            int ok = v->nd == 0 || (v->dense && v->nd == vout->nd);
            for (int k = 0; ok && k < v->nd; k++)
                ok = v->shape[k] == vout->shape[k];
            if (!ok)
                return engine_general(c, ins, out, vout, overlap);
            int64_t nbytes = vout->size * vout->itemsize;  /* inside the storage */
            if (c->kind == EW_COPY && c->code == c->out_code && v->nd == 0 && nbytes <= 256) {
                /* a few elements set to one: cheaper than a kernel call (and
                 * exact even when that element is one of them: every write
                 * stores the value it holds) */
                for (int64_t j = 0; j < nbytes; j += v->itemsize)
                    memcpy((char *)vout->data + j, v->data, (size_t)v->itemsize);
                return Py_NewRef(out);
            }
            int meet = write_meets(v, vout);
            if (c->kind == EW_COPY && c->code == c->out_code && v->nd > 0
                && (meet == MEET_OVERLAP || nbytes <= (1 << 16))) {
                /* a copy of one dtype between dense arrays of one shape: a
                 * memmove, exact under overlap (and cheapest when small) */
                memmove((char *)vout->data, v->data, (size_t)nbytes);
                return Py_NewRef(out);
            }
            if (meet == MEET_OVERLAP)
                return engine_general(c, ins, out, vout, overlap);
        }
        lead = vout;
        o = (char *)vout->data;
        Py_INCREF(out);
    }
    int rc = run_flat(c, ins, nin, o, lead->size);
    if (rc != 0 && run_status(rc) < 0)
        Py_CLEAR(out);
    return out;
}

/* engine_run's every case. */
static PyObject *engine_general(const ew_call *c, const operand_t *ins, PyObject *out, const operand_t *vout,
                                int overlap) {
    int nin = NIN[c->kind], n, fits;
    int64_t shape[ARS_MAX_DIMS], ostr[ARS_MAX_DIMS];
    operand_t all[4];  /* a given output takes part: the inputs broadcast to its shape */
    memcpy(all, ins, sizeof(operand_t) * nin);
    if (out != NULL)
        all[nin] = *vout;
    if (!broadcast(all, nin + (out != NULL), shape, &n))
        return NULL;
    int64_t size = count(shape, n, &fits);
    if (!fits) {  /* (a given output's size fits) */
        PyErr_SetString(PyExc_MemoryError, "arrstride: array too large: its element count does not fit in int64");
        return NULL;
    }
    operand_t own[3];
    int64_t cstr[3][ARS_MAX_DIMS];
    PyObject *keep[3] = {NULL, NULL, NULL};
    int cdense;
    char *o;
    int osz = DINFO[c->out_code].itemsize;
    if (out == NULL) {
        if (size == 0)
            return new_empty(c->out_code, shape, n);
        out = new_output(c->out_code, shape, n, size, ins, nin, ostr, &cdense);
        if (out == NULL)
            return NULL;
        o = array_base((ArrayObject *)out);
    } else {
        if (vout->nd != n || memcmp(vout->shape, shape, sizeof(int64_t) * n) != 0)
            return NULL;
        if (size == 0)
            return Py_NewRef(out);
        if (overlap != OVERLAP_COPY_CHECKED && !operand_nests(vout))
            return NULL;  /* (the caller decides exactly: _layout.has_internal_overlap) */
        for (int i = 0; i < nin; i++) {
            if (write_meets(&ins[i], vout) != MEET_OVERLAP)
                continue;
            if (overlap == OVERLAP_DECLINE)
                goto decline;
            if (ins != own) {
                memcpy(own, ins, sizeof(operand_t) * nin);
                ins = own;
            }
            if (cast_operand(&own[i], own[i].code, cstr[i], &keep[i]) < 0)
                goto fail;
        }
        memcpy(ostr, vout->strides, sizeof(int64_t) * n);
        cdense = vout->dense;
        o = (char *)vout->data;
        Py_INCREF(out);
    }
    /* flat: a C-ordered output and inputs that are dense with its shape, or one element */
    int flat = cdense;
    for (int i = 0; i < nin && flat; i++)
        flat = ins[i].size == 1 || (ins[i].dense && ins[i].nd == n
                                    && memcmp(ins[i].shape, shape, sizeof(int64_t) * n) == 0);
    int rc;
    if (flat) {
        rc = run_flat(c, ins, nin, o, size);
    } else {
        int64_t dims[(2 + 3) * ARS_MAX_DIMS];
        const char *data[3] = {NULL, NULL, NULL};
        for (int k = 0; k < n; k++) {
            dims[k] = shape[k];
            dims[n + k] = shape[k] > 1 ? ostr[k] * osz : 0;  /* inside the storage */
        }
        for (int i = 0; i < nin; i++) {
            const operand_t *v = &ins[i];
            int64_t *s = dims + (2 + i) * n;
            for (int k = 0, j = v->nd - n; k < n; k++, j++)
                s[k] = j >= 0 && v->shape[j] > 1 ? v->strides[j] * v->itemsize : 0;
            data[i] = v->data;
        }
        rc = call_kernel(c, 0, n, dims, o, data, size);
    }
    if (run_status(rc) < 0)
        Py_CLEAR(out);
    for (int i = 0; i < 3; i++)
        Py_XDECREF(keep[i]);
    return out;
decline:
fail:
    for (int i = 0; i < 3; i++)
        Py_XDECREF(keep[i]);
    return NULL;
}

/* ---- the general path's entry ------------------------------------------------------- */

/* o: any Array of arrstride (its C fields, or its Layout's values copied
 * into shape and strides, ARS_MAX_DIMS each). 1 done; 0 with an exception;
 * -1 for an empty array with a dim past int64 (nothing to compute); -2 for
 * more than ARS_MAX_DIMS dims. */
static int read_any(PyObject *x, operand_t *o, int64_t *shape, int64_t *strides, const char *what) {
    if (!PyObject_TypeCheck(x, ArrayType)) {
        PyErr_Format(PyExc_TypeError, "arrstride._core.ewise: %s is not an arrstride array", what);
        return 0;
    }
    ArrayObject *a = (ArrayObject *)x;
    int code = dtype_code(a->dtype);
    char *base = array_base(a);
    if (code < 0 || base == NULL) {
        PyErr_Format(PyExc_TypeError, "arrstride._core.ewise: %s has no dtype or storage of arrstride", what);
        return 0;
    }
    int64_t offset;
    o->code = code, o->itemsize = DINFO[code].itemsize;
    if (a->cfields) {
        o->nd = a->nd, o->shape = array_shape(a), o->strides = array_strides(a), o->dense = a->dense, o->size = a->size;
        offset = a->offset;
    } else {
        PyObject *lay = a->layout;
        PyObject *ts = SLOT(lay, off_shape), *tt = SLOT(lay, off_strides);
        Py_ssize_t n = PyTuple_GET_SIZE(ts);
        if (n > ARS_MAX_DIMS)
            return -2;  /* more dims than the kernels take */
        int ok = 1, empty = 0, huge = 0;
        for (Py_ssize_t k = 0; k < n; k++) {
            int fit = 1;
            shape[k] = as_i64(PyTuple_GET_ITEM(ts, k), &fit);
            huge |= !fit;
            empty |= fit && shape[k] == 0;
        }
        if (huge)
            return -1;  /* a dim past int64: only an empty array has one */
        for (Py_ssize_t k = 0; k < n; k++) {
            int fit = 1;
            strides[k] = as_i64(PyTuple_GET_ITEM(tt, k), &fit);
            if (!fit || shape[k] <= 1 || empty)
                strides[k] = 0;  /* a stride never followed */
            ok &= fit || shape[k] <= 1 || empty;
        }
        int fit = 1;
        offset = empty ? 0 : as_i64(SLOT(lay, off_offset), &fit);
        if (!ok || !fit) {
            PyErr_Format(PyExc_ValueError, "arrstride._core.ewise: %s has a layout past int64", what);
            return 0;
        }
        o->nd = (int)n, o->shape = shape, o->strides = strides;
        o->size = empty ? 0 : count(shape, (int)n, &fit);
        if (!empty && !fit)
            o->size = INT64_MAX;  /* a broadcast view past int64 elements: as many as can be */
        o->dense = dense_dims((int)n, shape, strides);
    }
    o->data = first_element(base, offset, o->size, o->itemsize);
    return 1;
}

/* ewise(kind, op, code, out_code, out, *inputs) -> out, a new array when out
 * is None, or None when an input is an empty array with a dim past int64
 * (the caller makes the empty result). kind: EW_UNARY (x), EW_BINARY (x1, x2),
 * EW_WHERE (condition, x1, x2), EW_CLIP (x, lo, hi), EW_ISIN (x, set: a
 * C-ordered array of dtype code, sorted in place; op = invert). The inputs
 * are arrays of dtype code (the condition: bool), or of any dtype for
 * EW_UNARY, EW_BINARY and isin's x (cast into code per block, as astype
 * casts; an out_code other than the kernel's output dtype: the result cast
 * into it), whose shapes broadcast; an output given has the broadcast shape
 * and does not reach an element twice (Python checked both, with their
 * messages). */
PyObject *core_ewise(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    ew_call c = {0};
    int ok = nargs >= 6 && ready;
    for (int k = 0; k < 4 && ok; k++) {
        long v = PyLong_AsLong(args[k]);
        ok = !(v == -1 && PyErr_Occurred()) && v >= 0 && v < 1 << 16;
        if (k == 0) c.kind = (int)v;
        if (k == 1) c.op = (int)v;
        if (k == 2) c.code = (int)v;
        if (k == 3) c.out_code = (int)v;
    }
    if (!ok || c.kind >= EW_KINDS || c.code >= NCODES || c.out_code >= NCODES
        || nargs != 5 + NIN[c.kind] + (c.kind == EW_ISIN)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "arrstride._core.ewise(kind, op, code, out_code, out, *inputs): "
                                             "bad arguments");
        return NULL;
    }
    int nin = NIN[c.kind];
    operand_t ins[3], vout;
    int64_t shapes[4][ARS_MAX_DIMS], strides[4][ARS_MAX_DIMS];
    static const char *names[3] = {"input 1", "input 2", "input 3"};
    int huge = 0;
    PyObject *out = args[4] == Py_None ? NULL : args[4];
    for (int i = 0; i <= nin; i++) {
        if (i == nin && out == NULL)
            break;
        int r = i < nin ? read_any(args[5 + i], &ins[i], shapes[i], strides[i], names[i])
                        : read_any(out, &vout, shapes[3], strides[3], "the output");
        if (r == -2)
            run_status(ARS_ERR_NDIM);
        if (r == 0 || r == -2)
            return NULL;
        huge |= r < 0;
    }
    if (out != NULL) {
        if (huge)
            return Py_NewRef(out);  /* empty: nothing to write */
        PyObject *ost = ((ArrayObject *)out)->storage;
        if (ost != NULL && SLOT(ost, off_readonly) != Py_False) {
            PyErr_SetString(PyExc_ValueError, "arrstride._core.ewise: the output is read-only");
            return NULL;
        }
        if (vout.code != c.out_code) {
            PyErr_SetString(PyExc_TypeError, "arrstride._core.ewise: the output has another dtype than the call's");
            return NULL;
        }
    } else if (huge) {
        Py_RETURN_NONE;
    }
    if (c.kind == EW_ISIN) {
        operand_t set;
        int r = read_any(args[5 + nin], &set, shapes[3], strides[3], "the set");
        if (r == 0)
            return NULL;
        if (set.code != c.code) {
            PyErr_SetString(PyExc_TypeError, "arrstride._core.ewise: the set has another dtype than the call's");
            return NULL;
        }
        if (set.size > 0 && (r < 0 || !set.dense)) {
            PyErr_SetString(PyExc_ValueError, "arrstride._core.ewise: the set is not C-ordered");
            return NULL;
        }
        c.set = (char *)set.data, c.nset = set.size, c.invert = c.op != 0;
    }
    if (c.kind == EW_UNARY || c.kind == EW_BINARY || c.kind == EW_WHERE || c.kind == EW_CLIP) {
        /* inputs of any dtype, cast per block (where's condition: bool); an
         * output of another dtype than code (a narrow float computed in
         * float32, a comparison's bool, ...) goes through the kernel
         * library's check against the kernel's own output dtype, and is cast
         * on store when they differ */
        if (c.kind == EW_WHERE && (ins[0].code != ARS_BOOL || c.out_code != c.code)) {
            PyErr_SetString(PyExc_TypeError, "arrstride._core.ewise: where's condition has another dtype "
                                             "than bool, or its out_code another than code");
            return NULL;
        }
        c.conv = c.out_code != c.code;
        for (int i = 0; i < nin; i++) {
            c.icode[i] = ins[i].code;
            c.conv |= ins[i].code != c.code && !(c.kind == EW_WHERE && i == 0);
        }
    } else {
        c.icode[0] = ins[0].code;  /* isin's x: of any dtype, cast per block */
        for (int i = c.kind == EW_ISIN; i < nin; i++)
            if (ins[i].code != c.code) {
                PyErr_Format(PyExc_TypeError, "arrstride._core.ewise: %s has another dtype than the call's",
                             names[i]);
                return NULL;
            }
    }
    PyObject *r = engine_run(&c, ins, out, out ? &vout : NULL, OVERLAP_COPY);
    if (r == NULL && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "arrstride._core.ewise: the operands do not broadcast to the output's "
                                          "shape, or the output reaches an element twice");
    return r;
}

/* empty_ordered(code, x) -> a new uninitialized array of x's shape and dtype
 * code in the engine's output order (x's memory order when it has no zero
 * stride, else C order), or None when x is empty with a dim past int64 or
 * has more than ARS_MAX_DIMS dims. */
PyObject *core_empty_ordered(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    long code = nargs == 2 ? PyLong_AsLong(args[0]) : -1;
    if (code < 0 || code >= NCODES || !ready || DINFO[code].dtype == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "arrstride._core.empty_ordered(code, x): bad arguments");
        return NULL;
    }
    operand_t x;
    int64_t shape[ARS_MAX_DIMS], strides[ARS_MAX_DIMS], ostr[ARS_MAX_DIMS];
    int r = read_any(args[1], &x, shape, strides, "x");
    if (r <= 0) {
        if (r < 0)
            Py_RETURN_NONE;  /* a dim past int64, or many dims: the caller makes it (C order) */
        return NULL;
    }
    int cdense, fits;
    if (x.size == 0)
        return new_empty((int)code, x.shape, x.nd);
    if (count(x.shape, x.nd, &fits), !fits) {
        PyErr_SetString(PyExc_MemoryError, "arrstride: array too large: its element count does not fit in int64");
        return NULL;
    }
    return new_output((int)code, x.shape, x.nd, x.size, &x, 1, ostr, &cdense);
}

/* ---- copies and casts: the engine's EW_COPY ------------------------------------------- */

/* copy_into(dst, src, checked) -> True when dst[...] = src was written (a
 * copy, or a cast when the dtypes differ, as astype casts), src broadcasting
 * to dst's shape; src overlapping dst without being it is copied first.
 * False when declined: dst may reach an element twice (its dims do not
 * simply nest) and checked is False (the caller decides exactly and refuses
 * it, or calls again with checked True), or either has more than
 * ARS_MAX_DIMS dims. None when dst is empty with a dim past int64. */
PyObject *core_copy_into(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (nargs != 3 || !ready) {
        PyErr_SetString(PyExc_TypeError, "arrstride._core.copy_into(dst, src, checked): bad arguments");
        return NULL;
    }
    operand_t in, vout;
    int64_t shapes[2][ARS_MAX_DIMS], strides[2][ARS_MAX_DIMS];
    int r = read_any(args[0], &vout, shapes[0], strides[0], "the output");
    if (r == 0)
        return NULL;
    if (r == -1)
        Py_RETURN_TRUE;  /* empty: nothing to write */
    int rs = read_any(args[1], &in, shapes[1], strides[1], "the source");
    if (rs == 0)
        return NULL;
    if (r == -2 || rs == -2)
        Py_RETURN_FALSE;
    if (vout.size == 0)
        Py_RETURN_TRUE;
    if (rs == -1) {
        PyErr_SetString(PyExc_ValueError, "arrstride._core.copy_into: the source is empty, the output is not");
        return NULL;
    }
    PyObject *ost = ((ArrayObject *)args[0])->storage;
    if (ost != NULL && SLOT(ost, off_readonly) != Py_False) {
        PyErr_SetString(PyExc_ValueError, "arrstride._core.copy_into: the output is read-only");
        return NULL;
    }
    ew_call c = {EW_COPY, 0, in.code, vout.code, NULL, 0, 0, 0, {0, 0}};
    PyObject *out = engine_run(&c, &in, args[0], &vout, args[2] == Py_True ? OVERLAP_COPY_CHECKED : OVERLAP_COPY);
    if (out == NULL) {
        if (PyErr_Occurred())
            return NULL;
        if (args[2] != Py_True)
            Py_RETURN_FALSE;
        PyErr_SetString(PyExc_ValueError, "arrstride._core.copy_into: the source does not broadcast to the "
                                          "output's shape");
        return NULL;
    }
    Py_DECREF(out);
    Py_RETURN_TRUE;
}

/* cast(code, x, corder=False) -> a new array of x's shape and dtype code
 * holding x's values (a copy when code is x's dtype), in the engine's output
 * order (x's memory order when it has no zero stride, else C order), or in
 * C order when corder is True: astype's, copy's and _copy_contiguous's one
 * kernel call. None when x is empty with a dim past int64 or has more than
 * ARS_MAX_DIMS dims (more than FAST_DIMS in C order): the caller makes
 * those. */
PyObject *core_cast(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    long code = nargs == 2 || nargs == 3 ? PyLong_AsLong(args[0]) : -1;
    if (code < 0 || code >= NCODES || !ready || DINFO[code].dtype == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "arrstride._core.cast(code, x, corder=False): bad arguments");
        return NULL;
    }
    operand_t x;
    int64_t shape[ARS_MAX_DIMS], strides[ARS_MAX_DIMS];
    int r = read_any(args[1], &x, shape, strides, "x");
    if (r <= 0) {
        if (r < 0)
            Py_RETURN_NONE;
        return NULL;
    }
    ew_call c = {EW_COPY, 0, x.code, (int)code, NULL, 0, 0, 0, {0, 0}};
    if (nargs < 3 || args[2] != Py_True)
        return engine_run(&c, &x, NULL, NULL, OVERLAP_COPY);
    /* C order: a new C-ordered output given to the engine */
    if (x.nd > FAST_DIMS)
        Py_RETURN_NONE;
    PyObject *out = empty_dims(x.shape, x.nd, (int)code, x.size);
    if (out == NULL || x.size == 0)
        return out;
    int64_t cstr[FAST_DIMS], acc = 1;
    for (int k = x.nd - 1; k >= 0; k--) {
        cstr[k] = acc;
        acc *= x.shape[k];
    }
    operand_t vout = {array_base((ArrayObject *)out), x.shape, cstr, x.nd, (int)code, DINFO[code].itemsize, 1,
                      x.size};
    PyObject *done = engine_run(&c, &x, out, &vout, OVERLAP_COPY_CHECKED);
    Py_DECREF(out);
    return done;
}

/* overlaps(dst, src) -> whether a write into dst must copy src first when
 * it does not go element for element (a scatter): src shares a byte with
 * dst (write_meets: anything but apart). False when either is empty. */
PyObject *core_overlaps(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (nargs != 2 || !ready) {
        PyErr_SetString(PyExc_TypeError, "arrstride._core.overlaps(dst, src): bad arguments");
        return NULL;
    }
    operand_t a, b;
    int64_t shapes[2][ARS_MAX_DIMS], strides[2][ARS_MAX_DIMS];
    int ra = read_any(args[0], &a, shapes[0], strides[0], "dst");
    if (ra == 0)
        return NULL;
    int rb = read_any(args[1], &b, shapes[1], strides[1], "src");
    if (rb == 0)
        return NULL;
    if (ra == -1 || rb == -1 || (ra > 0 && a.size == 0) || (rb > 0 && b.size == 0))
        Py_RETURN_FALSE;
    if (ra == -2 || rb == -2)
        Py_RETURN_TRUE;  /* more dims than C reads: assume they do */
    return PyBool_FromLong(write_meets(&b, &a) != MEET_APART);
}

/* arrstride._core: Elementwise and the elementwise engine: broadcasting, the output's order, the kernel call (see core.h). */
#include "core.h"

/* ---- Elementwise: the object behind each elementwise function ------------------------ */

/* dims for ars_binary: the broadcast shape of dense a and b (right-aligned),
 * then the byte strides of a C-ordered output (items of out_itemsize), of a
 * and of b (0 along broadcast dims). 1 done (*nd set), 0 the shapes do not broadcast here. */
int broadcast_dims(const view_t *a, const view_t *b, int64_t out_itemsize, int64_t *dims, int *nd) {
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
view_t scalar_view(const view_t *like, char *item) {
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
    PyObject *out = new_array_fields(st, Py_NewRef(DINFO[oc].dtype), nd, dims, ostr, 0, size);
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
PyObject *ew_fast(ElementwiseObject *e, PyObject *a, PyObject *b) {
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
        out = empty_like(&va, e->out[va.code], &out_data);
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
    view_t *v;
    if (fa && fb) {
        if (va.code != vb.code)
            return NULL;
        if (!va.dense || !vb.dense)
            return ew_strided(e, &va, &vb);
        if (va.ndim != vb.ndim || memcmp(va.shape, vb.shape, sizeof(int64_t) * va.ndim) != 0)
            return ew_broadcast(e, &va, &vb);
        pa = va.data, sa = va.itemsize, pb = vb.data, sb = vb.itemsize, v = &va;
    } else if (fa) {
        if (!pack_scalar(b, va.code, item))
            return NULL;
        if (!va.dense) {
            view_t sc = scalar_view(&va, item);
            return ew_strided(e, &va, &sc);
        }
        pa = va.data, sa = va.itemsize, pb = item, sb = 0, v = &va;
    } else if (fb) {
        if (!pack_scalar(a, vb.code, item))
            return NULL;
        if (!vb.dense) {
            view_t sc = scalar_view(&vb, item);
            return ew_strided(e, &sc, &vb);
        }
        pa = item, sa = 0, pb = vb.data, sb = vb.itemsize, v = &vb;
    } else {
        return NULL;
    }
    int oc = e->out[v->code];
    if (oc < 0)
        return NULL;
    out = empty_like(v, oc, &out_data);
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
    if (kwnames == NULL && n == e->nargs && ready && fast_paths) {
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

PyTypeObject ElementwiseType = {
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

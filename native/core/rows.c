/* arrstride._core: `for row in x`: ArrayBase's tp_iter and the row iterator (see core.h).
 *
 * iter(x) of an array C can read (read_view) with at least one dim gives a
 * RowIter that makes each x[i] directly: a row is one Array object holding
 * its layout in C (no Layout is made unless Python asks); x[i]'s storage (hence its read-only flag and
 * lifetime) and dtype are x's. The offsets are _layout.select's: offset +
 * i * strides[0], and offset itself for every row of an empty x. The storage
 * and dtype are the ones read with the layout when the iterator is made
 * (assigning x._storage meanwhile cannot pair a layout with a smaller
 * storage). Anything
 * else (0-d, a layout C cannot read, the fast paths switched off) calls the
 * Python implementation bound as "iter" (_array._iter_rows), which owns the
 * TypeError of a 0-d array. */
#include "core.h"

typedef struct {
    PyObject_HEAD
    PyObject *array;    /* the array iterated; NULL once exhausted */
    PyObject *storage;  /* its storage and dtype when the iterator was made */
    PyObject *dtype;
    int nd, dense;      /* the rows' dims, density, shape, strides and size */
    int64_t shape[FAST_DIMS], strides[FAST_DIMS], size;
    int64_t offset, step, i, n;
} RowIterObject;

static int rows_traverse(RowIterObject *it, visitproc visit, void *arg) {
    Py_VISIT(it->array);
    Py_VISIT(it->storage);
    Py_VISIT(it->dtype);
    return 0;
}

static int rows_clear(RowIterObject *it) {
    Py_CLEAR(it->array);
    Py_CLEAR(it->storage);
    Py_CLEAR(it->dtype);
    return 0;
}

static void rows_dealloc(RowIterObject *it) {
    PyObject_GC_UnTrack(it);
    rows_clear(it);
    PyObject_GC_Del(it);
}

static PyObject *rows_next(RowIterObject *it) {
    if (it->array == NULL)
        return NULL;
    if (it->i >= it->n) {
        rows_clear(it);  /* exhausted: let the array go, as a generator does */
        return NULL;
    }
    /* in range: the array reaches offset + i * step for every i < n (checked in array_iter) */
    int64_t off = it->offset + it->i * it->step;
    it->i++;
    return new_array_known(Py_NewRef(it->storage), Py_NewRef(it->dtype), it->nd, it->shape, it->strides,
                           off, it->size, it->dense);
}

static PyObject *rows_length_hint(RowIterObject *it, PyObject *unused) {
    (void)unused;
    return PyLong_FromLongLong(it->array == NULL ? 0 : it->n - it->i);
}

static PyMethodDef rows_methods[] = {
    {"__length_hint__", (PyCFunction)rows_length_hint, METH_NOARGS, "rows left"},
    {NULL, NULL, 0, NULL}};

PyTypeObject RowIterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "arrstride._core.RowIterator",
    .tp_basicsize = sizeof(RowIterObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "iter(x) of an arrstride array: x[0], x[1], ... (views).",
    .tp_dealloc = (destructor)rows_dealloc,
    .tp_traverse = (traverseproc)rows_traverse,
    .tp_clear = (inquiry)rows_clear,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)rows_next,
    .tp_methods = rows_methods,
};

/* ArrayBase's tp_iter. */
PyObject *array_iter(PyObject *self) {
    view_t v;
    if (!fast_paths || !read_view_shared(self, &v) || v.ndim == 0)
        return call_fallback(F_ITER, &self, 1);
    ArrayObject *a = (ArrayObject *)self;
    int64_t n = v.shape[0], step = v.strides[0], last;
    /* every row's offset is reached by x (non-empty) or is x's own (empty) */
    if (v.size > 0 && (__builtin_mul_overflow(n - 1, step, &last)
                       || __builtin_add_overflow(v.offset, last, &last)))
        return call_fallback(F_ITER, &self, 1);
    RowIterObject *it = PyObject_GC_New(RowIterObject, &RowIterType);
    if (it == NULL)
        return NULL;
    it->array = Py_NewRef(self);
    it->storage = Py_NewRef(a->storage);
    it->dtype = Py_NewRef(a->dtype);
    it->nd = v.ndim - 1;
    for (int k = 1; k < v.ndim; k++) {
        it->shape[k - 1] = v.shape[k];
        it->strides[k - 1] = v.strides[k];
    }
    it->size = n > 0 ? v.size / n : 0;
    it->dense = it->size == 0 || dense_dims(it->nd, it->shape, it->strides);  /* the same for every row */
    it->offset = v.offset;
    it->step = v.size > 0 ? step : 0;
    it->i = 0;
    it->n = n;
    PyObject_GC_Track(it);
    return (PyObject *)it;
}

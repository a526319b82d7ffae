/* arrstride._core: ArrayBase: the fields, float/int/bool/complex/index of one element, .T and .mT, and the type itself (see core.h). */
#include "core.h"

/* ---- ArrayBase ------------------------------------------------------------------ */

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
    {"_dtype", T_OBJECT_EX, offsetof(ArrayObject, dtype), 0, NULL},
    {"__weaklistoffset__", T_PYSSIZET, offsetof(ArrayObject, weakrefs), READONLY, NULL},
    {NULL, 0, 0, 0, NULL}};

PyObject *call_fallback(int which, PyObject *const *args, Py_ssize_t nargs) {
    PyObject *f = FALLBACK[which];
    if (f == NULL) {
        PyErr_Format(PyExc_RuntimeError, "arrstride: %s is not bound (arrstride._core.setup)",
                     FALLBACK_NAMES[which]);
        return NULL;
    }
    return PyObject_Vectorcall(f, args, nargs, NULL);
}
/* ---- float(x), int(x), bool(x), complex(x), operator.index(x) -------------------------- */

/* The one element of a one-element array as a Python scalar, or NULL without
 * an exception when the Python path must decide. */
static PyObject *one_element(PyObject *self, int *code) {
    view_t v;
    if (!fast_paths || !read_view(self, &v) || v.size != 1)
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

PyObject *array_float(PyObject *self) {
    return convert_one(self, KINDS_REAL, PyNumber_Float, F_FLOAT);
}

PyObject *array_int(PyObject *self) {
    return convert_one(self, KINDS_REAL, PyNumber_Long, F_INT);
}

PyObject *array_index(PyObject *self) {
    return convert_one(self, KINDS_INT, NULL, F_INDEX);
}

int array_bool(PyObject *self) {
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
/* ---- x.T, x.mT ----------------------------------------------------------------------- */

/* The view with the last two dims swapped (T: of a 2-D array only); every
 * other case, errors included, is the Python implementation's. */
static PyObject *swap_last(PyObject *self, int only_2d, int which) {
    view_t v;
    if (fast_paths && read_view(self, &v) && v.ndim >= 2 && (!only_2d || v.ndim == 2)) {
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

/* ---- the layout: x._layout, x.shape, x.ndim, x.size ------------------------------------ */

static PyObject *array_get_layout(PyObject *self, void *c) {
    (void)c;
    return array_layout((ArrayObject *)self);
}

static PyObject *array_get_shape(PyObject *self, void *c) {
    (void)c;
    PyObject *lay = array_layout((ArrayObject *)self);
    if (lay == NULL)
        return NULL;
    PyObject *shape = Py_TYPE(lay) == LayoutType ? SLOT(lay, off_shape) : NULL;
    PyObject *r = shape != NULL ? Py_NewRef(shape) : PyObject_GetAttrString(lay, "shape");
    Py_DECREF(lay);
    return r;
}

static PyObject *array_get_ndim(PyObject *self, void *c) {
    (void)c;
    ArrayObject *a = (ArrayObject *)self;
    if (a->cfields)
        return PyLong_FromLong(a->nd);
    PyObject *shape = array_get_shape(self, NULL);
    if (shape == NULL)
        return NULL;
    Py_ssize_t n = PyObject_Length(shape);
    Py_DECREF(shape);
    return n < 0 ? NULL : PyLong_FromSsize_t(n);
}

static PyObject *array_get_size(PyObject *self, void *c) {
    (void)c;
    ArrayObject *a = (ArrayObject *)self;
    if (a->cfields)
        return PyLong_FromLongLong(a->size);
    PyObject *lay = array_layout(a);
    if (lay == NULL)
        return NULL;
    PyObject *r = PyObject_GetAttrString(lay, "size");
    Py_DECREF(lay);
    return r;
}

static PyObject *array_get_storage(PyObject *self, void *c) {
    (void)c;
    return array_storage((ArrayObject *)self);
}

/* x._storage = st: the same memory seen another way (a read-only alias);
 * an array with inline data gets its Storage first, so st can share it. */
static int array_set_storage(PyObject *self, PyObject *value, void *c) {
    (void)c;
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "_storage cannot be deleted");
        return -1;
    }
    ArrayObject *a = (ArrayObject *)self;
    if (array_has_inline(a)) {
        PyObject *st = array_storage(a);
        if (st == NULL)
            return -1;
        Py_DECREF(st);
    }
    REPLACE(a->storage, value);
    track_if_cyclic(a);
    return 0;
}

static PyGetSetDef array_getset[] = {
    {"_storage", array_get_storage, array_set_storage, "The Storage: the memory the array views.", NULL},
    {"_layout", array_get_layout, NULL, "The Layout: shape, strides (in elements), offset, size.", NULL},
    {"shape", array_get_shape, NULL, "The array's dimensions, a tuple of ints.", NULL},
    {"ndim", array_get_ndim, NULL, "The number of dimensions.", NULL},
    {"size", array_get_size, NULL, "The number of elements.", NULL},
    {"T", array_get_T, NULL, "The transpose of a 2-D array (a view).", NULL},
    {"mT", array_get_mT, NULL, "The transpose of the last two dims (a view).", NULL},
    {"__array_struct__", array_get_array_struct, NULL, "NumPy's array interface in C: the elements in place.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef array_methods[] = {
    {"__complex__", array_complex, METH_NOARGS, "complex(x) of a one-element array"},
    {NULL, NULL, 0, NULL}};
PyTypeObject ArrayBaseType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "arrstride._core.ArrayBase",
    .tp_basicsize = sizeof(ArrayObject),
    .tp_itemsize = 1,  /* the dims, strides and inline data after the struct */
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
    .tp_iter = array_iter,
};

/* arrstride._core: new Arrays, Layouts and Storages without Python frames; the status of a kernel call (see core.h). */
#include "core.h"

/* ---- construction ---------------------------------------------------------------- */

/* A new Array holding the three references given (stolen). */
PyObject *new_array_steal(PyObject *storage, PyObject *layout, PyObject *dtype) {
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
PyObject *new_layout_steal(PyObject *shape, PyObject *strides, PyObject *offset, PyObject *size) {
    const Py_ssize_t offsets[4] = {off_shape, off_strides, off_offset, off_size};
    PyObject *values[4] = {shape, strides, offset, size};
    return new_with_slots(LayoutType, 4, offsets, values);
}

/* A Storage of its slots: ptr (a cffi char*), owner and nbytes are stolen
 * (NULL for any: nothing is made and the others are released). */
PyObject *storage_steal(PyObject *ptr, PyObject *owner, PyObject *nbytes, int readonly,
                        int external, PyObject *why) {
    const Py_ssize_t offsets[6] = {off_ptr, off_owner, off_nbytes, off_readonly, off_external, off_why};
    PyObject *values[6] = {ptr, owner, nbytes, Py_NewRef(readonly ? Py_True : Py_False),
                           Py_NewRef(external ? Py_True : Py_False), Py_NewRef(why)};
    return new_with_slots(StorageType, 6, offsets, values);
}

/* A new writable Storage of nbytes (unzeroed). */
PyObject *new_storage(Py_ssize_t nbytes) {
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
PyObject *contiguous_layout(PyObject *shape) {
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
PyObject *empty_array(PyObject *shape, int code, int64_t size) {
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
PyObject *empty_dims(const int64_t *dims, int nd, int code, int64_t size) {
    PyObject *shape = tuple_i64(dims, nd);
    if (shape == NULL)
        return NULL;
    PyObject *out = empty_array(shape, code, size);
    Py_DECREF(shape);
    return out;
}

PyObject *tuple_i64(const int64_t *v, int n) {
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
PyObject *view_of(PyObject *self, const int64_t *shape, const int64_t *strides, int ndim,
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

/* 0 for a kernel's status 0; else the exception check_status raises, and -1. */
int run_status(int rc) {
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
PyObject *empty_like(PyObject *self, const view_t *v, int code, char **data) {
    PyObject *shape = SLOT(((ArrayObject *)self)->layout, off_shape);
    PyObject *out = empty_array(shape, code, v->size);
    if (out != NULL)
        *data = storage_address(((ArrayObject *)out)->storage);
    return out;
}

/* arrstride._core: new Arrays, Layouts and Storages without Python frames;
 * read_view for views that outlive the call (which may give an array its
 * Storage); the status of a kernel call (see core.h). */
#include "core.h"

/* ---- construction ---------------------------------------------------------------- */

/* The layout's values into a's C fields (cfields = 1), when it is a Layout
 * of at most a->dims_room dims whose values fit int64; else cfields = 0. */
static void parse_layout(ArrayObject *a) {
    PyObject *lay = a->layout;
    a->cfields = 0;
    if (lay == NULL || Py_TYPE(lay) != LayoutType)
        return;
    PyObject *shape = SLOT(lay, off_shape), *strides = SLOT(lay, off_strides);
    if (shape == NULL || strides == NULL || !PyTuple_CheckExact(shape) || !PyTuple_CheckExact(strides))
        return;
    Py_ssize_t n = PyTuple_GET_SIZE(shape);
    if (n > a->dims_room || PyTuple_GET_SIZE(strides) != n)
        return;
    int ok = 1;
    a->nd = (int)n;
    a->offset = as_i64(SLOT(lay, off_offset), &ok);
    a->size = as_i64(SLOT(lay, off_size), &ok);
    int64_t *sh = array_shape(a), *st = array_strides(a);
    for (Py_ssize_t k = 0; k < n; k++) {
        sh[k] = as_i64(PyTuple_GET_ITEM(shape, k), &ok);
        st[k] = as_i64(PyTuple_GET_ITEM(strides, k), &ok);
    }
    if (!ok) {
        a->nd = 0;
        return;
    }
    a->dense = a->size == 0 || dense_dims(a->nd, sh, st);
    a->cfields = 1;
}

/* Whether none of obj's slots at the offsets given refers to an object the
 * garbage collector follows (so obj cannot be part of a reference cycle). */
static int slots_acyclic(PyObject *obj, int n, const Py_ssize_t *offsets) {
    for (int k = 0; k < n; k++) {
        PyObject *v = SLOT(obj, offsets[k]);
        if (v != NULL && PyObject_IS_GC(v) && PyObject_GC_IsTracked(v))
            return 0;
    }
    return 1;
}

/* Whether an array of this storage can be part of a reference cycle. Memory
 * whose owner holds no references (a Block, an allocation's capsule) cannot:
 * its dtype and layout refer to no array. Such a Storage is untracked too,
 * so a million small arrays cost the collector nothing. */
static int storage_may_cycle(PyObject *storage) {
    const Py_ssize_t storage_refs[3] = {off_ptr, off_owner, off_why};
    if (storage == NULL || (Py_TYPE(storage) == StorageType && !PyObject_GC_IsTracked(storage)))
        return 0;  /* (a Storage is untracked once found acyclic: its slots never change) */
    if (Py_TYPE(storage) == StorageType && slots_acyclic(storage, 3, storage_refs)) {
        if (PyObject_GC_IsTracked(storage))
            PyObject_GC_UnTrack(storage);
        return 0;
    }
    return 1;
}

/* The collector tracks a (untracked so far, or tracked) once its storage may
 * be part of a cycle. */
void track_if_cyclic(ArrayObject *a) {
    if (!PyObject_GC_IsTracked((PyObject *)a) && storage_may_cycle(a->storage))
        PyObject_GC_Track(a);
}

/* A new Array of storage and dtype (stolen; released if it cannot be made;
 * storage NULL: the data is inline, inline_bytes of it), with room for
 * `room` dims and no layout yet. */
static ArrayObject *alloc_array(PyObject *storage, PyObject *dtype, int room, Py_ssize_t inline_bytes) {
    Py_ssize_t extra = 16 * (Py_ssize_t)room + inline_bytes;
    ArrayObject *a = PyObject_GC_NewVar(ArrayObject, ArrayType, extra);
    if (a == NULL) {
        Py_XDECREF(storage);
        Py_DECREF(dtype);
        return NULL;
    }
    memset((char *)a + sizeof(PyVarObject), 0, sizeof(ArrayObject) - sizeof(PyVarObject));
    a->storage = storage;
    a->dtype = dtype;
    a->dims_room = (unsigned char)room;
    track_if_cyclic(a);
    return a;
}

/* The dims a Layout object holds, when C can keep them (else 0). */
static int layout_dims(PyObject *lay) {
    if (lay == NULL || Py_TYPE(lay) != LayoutType)
        return 0;
    PyObject *shape = SLOT(lay, off_shape);
    if (shape == NULL || !PyTuple_CheckExact(shape) || PyTuple_GET_SIZE(shape) > FAST_DIMS)
        return 0;
    return (int)PyTuple_GET_SIZE(shape);
}

/* A new Array holding the three references given (stolen). */
PyObject *new_array_steal(PyObject *storage, PyObject *layout, PyObject *dtype) {
    ArrayObject *a = alloc_array(storage, dtype, layout_dims(layout), 0);
    if (a == NULL) {
        Py_DECREF(layout);
        return NULL;
    }
    a->layout = layout;
    parse_layout(a);
    return (PyObject *)a;
}

/* A new Array of storage and dtype (stolen) with the layout given by its
 * values (nd <= FAST_DIMS; size: the product of the dims): no Layout object
 * is made until Python asks for one (array_layout). */
PyObject *new_array_fields(PyObject *storage, PyObject *dtype, int nd, const int64_t *shape,
                           const int64_t *strides, int64_t offset, int64_t size) {
    return new_array_known(storage, dtype, nd, shape, strides, offset, size,
                           size == 0 || dense_dims(nd, shape, strides));
}

static void set_fields(ArrayObject *a, int nd, const int64_t *shape, const int64_t *strides,
                       int64_t offset, int64_t size, int dense) {
    int64_t *sh = array_shape(a), *st = array_strides(a);
    a->nd = nd;
    a->offset = offset;
    a->size = size;
    for (int k = 0; k < nd; k++) {
        sh[k] = shape[k];
        st[k] = strides[k];
    }
    a->dense = (unsigned char)dense;
    a->cfields = 1;
}

/* new_array_fields with the layout's density known (dense: C order's
 * strides, dims of size 1 aside, or empty), as for every row of one array. */
PyObject *new_array_known(PyObject *storage, PyObject *dtype, int nd, const int64_t *shape,
                          const int64_t *strides, int64_t offset, int64_t size, int dense) {
    ArrayObject *a = alloc_array(storage, dtype, nd, 0);
    if (a == NULL)
        return NULL;
    set_fields(a, nd, shape, strides, offset, size, dense);
    return (PyObject *)a;
}

/* A new contiguous array (C order's strides given) whose nbytes of data are
 * inline: no Storage, no Block, one object. */
static PyObject *new_array_inline(int code, int nd, const int64_t *shape, const int64_t *strides,
                                  int64_t size, Py_ssize_t nbytes) {
    ArrayObject *a = alloc_array(NULL, Py_NewRef(DINFO[code].dtype), nd, nbytes);
    if (a == NULL)
        return NULL;
    set_fields(a, nd, shape, strides, 0, size, 1);
    return (PyObject *)a;
}

/* a's Storage (a new reference). An array whose data is inline gets one now:
 * the data moves into a Block that its views and exports share, and stays
 * there. */
PyObject *array_storage(ArrayObject *a) {
    if (a->storage == NULL) {
        Py_ssize_t nbytes = array_inline_bytes(a);
        if (nbytes <= 0) {
            PyErr_SetString(PyExc_AttributeError, "_storage");
            return NULL;
        }
        PyObject *st = new_storage(nbytes);
        if (st == NULL)
            return NULL;
        char *to = storage_address(st);
        if (to == NULL) {
            Py_DECREF(st);
            PyErr_SetString(PyExc_RuntimeError, "arrstride: a small block has no address");
            return NULL;
        }
        memcpy(to, array_inline(a), (size_t)nbytes);
        a->storage = st;
        track_if_cyclic(a);
    }
    return Py_NewRef(a->storage);
}

/* read_view for a view whose data pointer outlives the call (an export, a
 * row iterator): an array with inline data gets its Storage first, so the
 * pointer stays the array's for as long as its memory lives. */
int read_view_shared(PyObject *self, view_t *v) {
    if (!ready || !PyObject_TypeCheck(self, ArrayType))
        return 0;
    ArrayObject *a = (ArrayObject *)self;
    if (array_has_inline(a)) {
        PyObject *st = array_storage(a);
        if (st == NULL) {
            PyErr_Clear();  /* not a fast case: the Python path raises it again */
            return 0;
        }
        Py_DECREF(st);
    }
    return read_view(self, v);
}

/* a's Layout (a new reference), made from its fields the first time; NULL
 * with AttributeError for an array that has none (made without a layout). */
PyObject *array_layout(ArrayObject *a) {
    if (a->layout == NULL) {
        if (!a->cfields) {
            PyErr_SetString(PyExc_AttributeError, "_layout");
            return NULL;
        }
        PyObject *lay = new_layout_steal(tuple_i64(array_shape(a), a->nd), tuple_i64(array_strides(a), a->nd),
                                         PyLong_FromLongLong(a->offset), PyLong_FromLongLong(a->size));
        if (lay == NULL)
            return NULL;
        PyObject_GC_UnTrack(lay);  /* tuples of ints and ints: no cycle */
        if (a->layout == NULL)  /* (nothing above can run Python code, but stay safe) */
            a->layout = lay;
        else
            Py_DECREF(lay);
    }
    return Py_NewRef(a->layout);
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

/* ---- Block: a small block's memory and its owner, one object -------------------------- */

static void block_dealloc(PyObject *self) {
    PyObject_Free(self);
}

static PyObject *block_address(PyObject *self, void *c) {
    (void)c;
    return PyLong_FromVoidPtr(((BlockObject *)self)->data);
}

static PyObject *block_nbytes(PyObject *self, void *c) {
    (void)c;
    return PyLong_FromSsize_t(((BlockObject *)self)->nbytes);
}

static PyGetSetDef block_getset[] = {
    {"address", block_address, NULL, "the address of the first byte (16-byte aligned)", NULL},
    {"nbytes", block_nbytes, NULL, "the block's size in bytes", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject BlockType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "arrstride._core.Block",
    .tp_basicsize = sizeof(BlockObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .tp_doc = "A small array's memory, owned by this object (freed with it).",
    .tp_dealloc = block_dealloc,
    .tp_getset = block_getset,
};

/* A Block of nbytes (unzeroed), its data 16-byte aligned. */
static PyObject *new_block(Py_ssize_t nbytes) {
    if (nbytes < 1)
        nbytes = 1;
    BlockObject *b = (BlockObject *)PyObject_Malloc(sizeof(BlockObject) + 15 + (size_t)nbytes);
    if (b == NULL)
        return PyErr_NoMemory();
    PyObject_Init((PyObject *)b, &BlockType);
    b->nbytes = nbytes;
    b->data = (char *)(((uintptr_t)(b + 1) + 15) & ~(uintptr_t)15);
    return (PyObject *)b;
}

/* A Storage of an ars_alloc block of nbytes held by an ARS_OWN_BLOCK owner
 * capsule: what Storage.allocate makes for blocks from small_block on, made
 * here without its Python calls (a 160 KB result's storage took 1.8 us there).
 * None (new reference) when the parts are not bound yet or the block cannot
 * be had: Storage.allocate then decides (it raises the MemoryError). */
PyObject *owned_block_storage(Py_ssize_t nbytes) {
    if (k_alloc == NULL || !buffers_ready)
        Py_RETURN_NONE;
    void *raw = k_alloc(nbytes);
    if (raw == NULL)
        Py_RETURN_NONE;
    owner_t *o = k_owner_new(ARS_OWN_BLOCK, raw);
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
    PyObject *block = new_block(nbytes);
    if (block == NULL)
        return NULL;
    return storage_steal(Py_NewRef(Py_None), block, PyLong_FromSsize_t(nbytes), 0, 0, Py_None);
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

static int too_large(int64_t size, int code, int64_t *nbytes) {
    if (__builtin_mul_overflow(size, (int64_t)DINFO[code].itemsize, nbytes) || *nbytes > ((int64_t)1 << 62)) {
        PyErr_SetString(PyExc_MemoryError, "arrstride: array too large");
        return 1;
    }
    return 0;
}

/* A new contiguous array of a shape tuple with _layout's cached Layout (the
 * way for more than FAST_DIMS dims, and strides past int64 beside a 0 dim). */
static PyObject *empty_with_layout(PyObject *shape, int code, int64_t size) {
    int64_t nbytes;
    if (too_large(size, code, &nbytes))
        return NULL;
    PyObject *lay = contiguous_layout(shape);
    if (lay == NULL)
        return NULL;
    PyObject *st = new_storage((Py_ssize_t)nbytes);
    if (st == NULL) {
        Py_DECREF(lay);
        return NULL;
    }
    return new_array_steal(st, lay, Py_NewRef(DINFO[code].dtype));
}

/* A new contiguous array of nd dims (at most FAST_DIMS; size: their
 * product) and dtype code. */
PyObject *empty_dims(const int64_t *dims, int nd, int code, int64_t size) {
    int64_t nbytes, strides[FAST_DIMS], acc = 1;
    if (too_large(size, code, &nbytes))
        return NULL;
    for (int k = nd - 1; k >= 0; k--) {  /* C order's strides, as _layout.contiguous_strides */
        strides[k] = acc;
        if (__builtin_mul_overflow(acc, dims[k] > 0 ? dims[k] : 1, &acc) && k > 0) {
            PyObject *shape = tuple_i64(dims, nd);  /* an empty shape past int64 */
            if (shape == NULL)
                return NULL;
            PyObject *out = empty_with_layout(shape, code, size);
            Py_DECREF(shape);
            return out;
        }
    }
    if (nbytes > 0 && nbytes <= INLINE_BYTES)
        return new_array_inline(code, nd, dims, strides, size, (Py_ssize_t)nbytes);
    PyObject *st = new_storage((Py_ssize_t)nbytes);
    if (st == NULL)
        return NULL;
    return new_array_known(st, Py_NewRef(DINFO[code].dtype), nd, dims, strides, 0, size, 1);
}

/* empty_dims for a shape given as a tuple of ints (size: their product). */
PyObject *empty_array(PyObject *shape, int code, int64_t size) {
    Py_ssize_t nd = PyTuple_GET_SIZE(shape);
    int64_t dims[FAST_DIMS];
    int ok = nd <= FAST_DIMS;
    for (Py_ssize_t k = 0; ok && k < nd; k++)
        dims[k] = as_i64(PyTuple_GET_ITEM(shape, k), &ok);
    return ok ? empty_dims(dims, (int)nd, code, size) : empty_with_layout(shape, code, size);
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

/* An Array of memory from outside: the storage of [start, start + nbytes),
 * kept alive (and released) by `owner` (stolen: with it the memory goes on
 * any failure), external, read-only with the reason `why` when readonly,
 * and the layout of nd dims (offset in elements from start). */
PyObject *foreign_array(PyObject *owner, const char *start, int64_t nbytes, int readonly, PyObject *why,
                        int code, int nd, const int64_t *shape, const int64_t *strides, int64_t offset,
                        int64_t size) {
    PyObject *addr = PyLong_FromVoidPtr((void *)start);
    PyObject *ptr = addr ? PyObject_CallOneArg(foreign_ptr, addr) : NULL;
    Py_XDECREF(addr);
    PyObject *st = storage_steal(ptr, owner, PyLong_FromLongLong(nbytes), readonly, 1,
                                 readonly ? why : Py_None);
    if (st == NULL)
        return NULL;
    return array_of(st, code, nd, shape, strides, offset, size);
}

/* A new Array of storage (stolen) and dtype code with the layout given by
 * its values: in C fields up to FAST_DIMS dims, else with a Layout object. */
PyObject *array_of(PyObject *storage, int code, int nd, const int64_t *shape, const int64_t *strides,
                   int64_t offset, int64_t size) {
    if (nd <= FAST_DIMS)
        return new_array_fields(storage, Py_NewRef(DINFO[code].dtype), nd, shape, strides, offset, size);
    PyObject *lay = new_layout_steal(tuple_i64(shape, nd), tuple_i64(strides, nd),
                                     PyLong_FromLongLong(offset), PyLong_FromLongLong(size));
    if (lay == NULL) {
        Py_DECREF(storage);
        return NULL;
    }
    return new_array_steal(storage, lay, Py_NewRef(DINFO[code].dtype));
}

/* A view of `self` (described by v) with the given layout values. */
PyObject *view_of(PyObject *self, const int64_t *shape, const int64_t *strides, int ndim,
                  int64_t offset, int64_t size) {
    ArrayObject *a = (ArrayObject *)self;
    PyObject *st = array_storage(a);
    if (st == NULL)
        return NULL;
    return new_array_fields(st, Py_NewRef(a->dtype), ndim, shape, strides, offset, size);
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

/* A new contiguous array of v's shape and dtype code `code`; its data
 * pointer in *data. */
PyObject *empty_like(const view_t *v, int code, char **data) {
    PyObject *out = empty_dims(v->shape, v->ndim, code, v->size);
    if (out != NULL)
        *data = array_base((ArrayObject *)out);
    return out;
}

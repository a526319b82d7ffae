/* arrstride._core: the buffer protocol both ways (memoryview(x); asarray of an exporter) and owned blocks (see core.h). */
#include "core.h"

/* ---- the buffer protocol: memoryview(x), numpy.asarray(x) --------------------------- */

/* The struct format of a dtype code (native order). 64-bit integers are C
 * long where long has 64 bits, as NumPy's int64 is: a "q" export became
 * NumPy's distinct longlong type, which C extensions that switch on the type
 * number refuse (SciPy's 1-D rank_filter: "Unsupported array type"). */
static const char *format_of(int code) {
    const dinfo *d = &DINFO[code];
    const int long64 = sizeof(long) == 8;
    switch (d->kind) {
    case K_BOOL: return "?";
    case K_INT: return d->itemsize == 1 ? "b" : d->itemsize == 2 ? "h" : d->itemsize == 4 ? "i" : long64 ? "l" : "q";
    case K_UINT: return d->itemsize == 1 ? "B" : d->itemsize == 2 ? "H" : d->itemsize == 4 ? "I" : long64 ? "L" : "Q";
    case K_FLOAT: return d->itemsize == 4 ? "f" : "d";
    default: return d->itemsize == 8 ? "Zf" : "Zd";
    }
}

/* An export of x's elements, in place (any strides, when the consumer takes
 * strides; a read-only storage exports read-only). view->internal holds the
 * shape and byte strides until the release. A layout the C view cannot
 * read (dims past int64) is refused with BufferError; NumPy then takes
 * __array_interface__. */
static int array_getbuffer(PyObject *self, Py_buffer *view, int flags) {
    view_t v;
    view->obj = NULL;
    if (!read_view(self, &v)) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_BufferError, "arrstride.Array: this layout has no buffer export (use __array_interface__)");
        return -1;
    }
    if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE && v.readonly) {
        PyErr_SetString(PyExc_BufferError, "arrstride.Array: the array is read-only");
        return -1;
    }
    int strided = (flags & PyBUF_STRIDES) == PyBUF_STRIDES;
    int want_c = (flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS
              || (flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS
              || (flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS;
    if ((!strided || want_c) && !v.dense) {
        PyErr_SetString(PyExc_BufferError, "arrstride.Array: the array is not C-contiguous");
        return -1;
    }
    if ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && v.ndim > 1 && v.size > 1) {
        int big = 0;  /* C order is F order when at most one dim exceeds 1 */
        for (int k = 0; k < v.ndim; k++)
            big += v.shape[k] > 1;
        if (big > 1) {
            PyErr_SetString(PyExc_BufferError, "arrstride.Array: the array is not Fortran-contiguous");
            return -1;
        }
    }
    Py_ssize_t *mem = PyMem_Malloc(sizeof(Py_ssize_t) * (2 * (size_t)v.ndim + 1));
    if (mem == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int64_t c = v.itemsize;
    for (int k = v.ndim - 1; k >= 0; k--) {
        mem[k] = (Py_ssize_t)v.shape[k];
        /* a size-1 dim's stride is free (and may not fit in bytes); C order's otherwise */
        mem[v.ndim + k] = v.shape[k] > 1 ? (Py_ssize_t)(v.strides[k] * v.itemsize) : (Py_ssize_t)c;
        if (v.shape[k] > 1)
            c *= v.shape[k];
    }
    view->buf = v.data;
    view->obj = Py_NewRef(self);
    view->len = (Py_ssize_t)(v.size * v.itemsize);  /* an empty array: 0 */
    view->readonly = v.readonly;
    view->itemsize = v.itemsize;
    view->format = (flags & PyBUF_FORMAT) ? (char *)format_of(v.code) : NULL;
    view->ndim = v.ndim;
    view->shape = (flags & PyBUF_ND) == PyBUF_ND ? mem : NULL;
    view->strides = strided ? mem + v.ndim : NULL;
    view->suboffsets = NULL;
    view->internal = mem;
    return 0;
}

static void array_releasebuffer(PyObject *self, Py_buffer *view) {
    (void)self;
    PyMem_Free(view->internal);
}

PyBufferProcs array_as_buffer = {
    .bf_getbuffer = array_getbuffer,
    .bf_releasebuffer = array_releasebuffer,
};
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
static void *(*k_alloc)(int64_t);         /* ars_alloc: blocks from small_block on (setup_blocks) */
static void (*k_free_block)(void *);      /* ars_free (setup_blocks) */

/* The dtype code of a buffer's struct format and itemsize (native order), or -1. */
static int format_code(const char *fmt, Py_ssize_t itemsize) {
    if (fmt == NULL)
        fmt = "B";
    if (*fmt == '@' || *fmt == '=' || *fmt == '<')
        fmt++;
    int kind;
    if (fmt[0] == 'Z' && (fmt[1] == 'f' || fmt[1] == 'd') && fmt[2] == 0)
        kind = K_COMPLEX;
    else if (fmt[0] == 0 || fmt[1] != 0)
        return -1;
    else if (fmt[0] == '?')
        kind = K_BOOL;
    else if (strchr("bhilqn", fmt[0]))
        kind = K_INT;
    else if (strchr("BHILQN", fmt[0]))
        kind = K_UINT;
    else if (fmt[0] == 'f' || fmt[0] == 'd')
        kind = K_FLOAT;
    else
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
PyObject *core_from_buffer(PyObject *mod, PyObject *obj) {
    (void)mod;
    PyBufferProcs *bp = Py_TYPE(obj)->tp_as_buffer;
    if (!ready || !fast_paths || !buffers_ready || bp == NULL || bp->bf_getbuffer == NULL || PyObject_TypeCheck(obj, ArrayType))
        Py_RETURN_NONE;
    owner_t *o = k_owner_new(ARS_OWN_BUFFER, NULL);
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
    if (size == 0)
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
PyObject *core_setup_buffers(PyObject *mod, PyObject *args) {
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

/* setup_blocks(ars_alloc, ars_free): the addresses of the block allocator,
 * for owned_block_storage (once, after setup and setup_buffers). */
PyObject *core_setup_blocks(PyObject *mod, PyObject *args) {
    (void)mod;
    unsigned long long pa, pf;
    if (!PyArg_ParseTuple(args, "KK:setup_blocks", &pa, &pf))
        return NULL;
    k_alloc = (void *(*)(int64_t))(uintptr_t)pa;
    k_free_block = (void (*)(void *))(uintptr_t)pf;
    Py_RETURN_NONE;
}

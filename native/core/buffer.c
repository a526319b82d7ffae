/* arrstride._core: numpy.asarray(x) through __array_struct__, asarray of a buffer exporter, owned blocks (see core.h). */
#include "core.h"

/* ---- numpy.asarray(x): NumPy's __array_struct__ ---------------------------------------- */

/* No buffer protocol on purpose: torch.asarray takes any buffer exporter
 * before DLPack and reads its bytes as its default dtype, 1-D (a float64
 * array came back as float32 garbage; a transposed one as "could not
 * retrieve buffer"). Without it torch.asarray takes x.__dlpack__. NumPy
 * still gets the elements in place through C: __array_struct__, a capsule
 * of NumPy's PyArrayInterface (version 2), which NumPy asks for right after
 * the buffer protocol. The struct, its shape and its byte strides are one
 * allocation that the capsule frees; NumPy keeps x itself as the new
 * array's base. */
typedef struct {
    int two;              /* 2: the interface's version */
    int nd;
    char typekind;        /* 'b', 'i', 'u', 'f', 'c' */
    int itemsize;
    int flags;            /* NumPy's NPY_ARRAY_* bits below */
    Py_ssize_t *shape;    /* npy_intp */
    Py_ssize_t *strides;  /* in bytes */
    void *data;
    PyObject *descr;      /* NULL: typekind and itemsize say it */
} ars_array_interface;

#define ARS_NPY_C_CONTIGUOUS 0x0001
#define ARS_NPY_ALIGNED 0x0100
#define ARS_NPY_NOTSWAPPED 0x0200
#define ARS_NPY_WRITEABLE 0x0400
#define ARS_NPY_ARR_HAS_DESCR 0x0800

static void array_struct_free(PyObject *capsule) {
    PyMem_Free(PyCapsule_GetPointer(capsule, NULL));
}

PyObject *array_get_array_struct(PyObject *self, void *c) {
    (void)c;
    view_t v;
    if (!read_view_shared(self, &v)) {
        /* a layout the C view cannot read (dims past int64): NumPy goes on
         * to __array_interface__ */
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_AttributeError, "__array_struct__");
        return NULL;
    }
    ars_array_interface *ai = PyMem_Malloc(sizeof(*ai) + sizeof(Py_ssize_t) * (2 * (size_t)v.ndim + 1));
    if (ai == NULL)
        return PyErr_NoMemory();
    Py_ssize_t *mem = (Py_ssize_t *)(ai + 1);
    for (int k = v.ndim - 1; k >= 0; k--) {
        mem[k] = (Py_ssize_t)v.shape[k];
        /* a size-1 dim's stride is free (and may not fit in bytes) */
        mem[v.ndim + k] = v.shape[k] > 1 ? (Py_ssize_t)(v.strides[k] * v.itemsize) : (Py_ssize_t)v.itemsize;
    }
    static const char kinds[] = {[K_BOOL] = 'b', [K_INT] = 'i', [K_UINT] = 'u', [K_FLOAT] = 'f', [K_COMPLEX] = 'c'};
    ai->two = 2;
    ai->nd = v.ndim;
    ai->typekind = kinds[v.kind];
    ai->itemsize = v.itemsize;
    ai->flags = ARS_NPY_ALIGNED | ARS_NPY_NOTSWAPPED | (v.readonly ? 0 : ARS_NPY_WRITEABLE)
              | (v.dense ? ARS_NPY_C_CONTIGUOUS : 0);
    ai->shape = mem;
    ai->strides = mem + v.ndim;
    ai->data = v.data;
    ai->descr = NULL;
    /* NumPy's own dtype object, when NumPy is loaded (it is when it asks):
     * the DType's .dtype (its NumPy twin, from the Python dtype table; a
     * dtype NumPy lacks raises there, and NumPy sees that error). NumPy then
     * skips parsing a type string (~0.4 us) */
    static PyObject *np_dtype[NCODES];
    if (np_dtype[v.code] == NULL) {
        PyObject *name = PyUnicode_FromString("numpy");
        PyObject *np = name != NULL ? PyImport_GetModule(name) : NULL;
        Py_XDECREF(name);
        PyErr_Clear();
        if (np != NULL) {
            Py_DECREF(np);
            np_dtype[v.code] = PyObject_GetAttrString(DINFO[v.code].dtype, "dtype");
            if (np_dtype[v.code] == NULL) {
                PyMem_Free(ai);
                return NULL;
            }
        }
    }
    if (np_dtype[v.code] != NULL) {
        ai->descr = np_dtype[v.code];
        ai->flags |= ARS_NPY_ARR_HAS_DESCR;
    }
    PyObject *capsule = PyCapsule_New(ai, NULL, array_struct_free);
    if (capsule == NULL)
        PyMem_Free(ai);
    return capsule;
}

/* ---- asarray(buffer exporter): a zero-copy view ----------------------------------------- */

static PyObject *str_read_only_why;      /* Storage.foreign's reason for read-only memory */

/* The dtype code of a buffer's struct format and itemsize (native order), or -1. */
static int format_code(const char *fmt, Py_ssize_t itemsize) {
    if (fmt == NULL)
        fmt = "B";
    if (*fmt == '@')  /* native sizes only: '<'/'=' (standard sizes) go to the Python path */
        fmt++;
    int kind;
    Py_ssize_t size;  /* the format's own item size: an export that disagrees is refused */
    if (fmt[0] == 'Z' && (fmt[1] == 'f' || fmt[1] == 'd') && fmt[2] == 0) {
        kind = K_COMPLEX;
        size = fmt[1] == 'f' ? 8 : 16;
    } else if (fmt[0] == 0 || fmt[1] != 0)
        return -1;
    else if (fmt[0] == '?')
        kind = K_BOOL, size = 1;
    else if (strchr("bhilqn", fmt[0]))
        kind = K_INT, size = fmt[0] == 'b' ? 1 : fmt[0] == 'h' ? 2 : fmt[0] == 'i' ? (Py_ssize_t)sizeof(int)
             : fmt[0] == 'l' ? (Py_ssize_t)sizeof(long) : 8;
    else if (strchr("BHILQN", fmt[0]))
        kind = K_UINT, size = fmt[0] == 'B' ? 1 : fmt[0] == 'H' ? 2 : fmt[0] == 'I' ? (Py_ssize_t)sizeof(int)
             : fmt[0] == 'L' ? (Py_ssize_t)sizeof(long) : 8;
    else if (fmt[0] == 'e' || fmt[0] == 'f' || fmt[0] == 'd')
        kind = K_FLOAT, size = fmt[0] == 'e' ? 2 : fmt[0] == 'f' ? 4 : 8;
    else
        return -1;
    if (size != itemsize)
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
    /* empty, or elements not aligned to their size (C reads typed values):
     * the Python path (_foreign.wrap) decides, copying unaligned data */
    if (size == 0 || ((uintptr_t)b->buf + (uintptr_t)(lo * isz)) % (uintptr_t)isz != 0)
        goto give_up;
    PyObject *capsule = PyCapsule_New(o, owner_capsule_name, owner_destructor);
    if (capsule == NULL) {
        k_owner_release(o);
        return NULL;
    }
    /* from here the capsule alone releases the export */
    return foreign_array(capsule, (char *)b->buf + lo * isz, (hi - lo + 1) * isz, b->readonly,
                         str_read_only_why, code, nd, shape, strides, -lo, size);
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
    k_owner_new = (owner_t *(*)(int, void *))(uintptr_t)pn;
    k_owner_release = (void (*)(owner_t *))(uintptr_t)pr;
    owner_capsule_name = (const char *)(uintptr_t)pname;
    owner_destructor = (PyCapsule_Destructor)(uintptr_t)pdestr;
    REPLACE(foreign_ptr, fp);
    REPLACE(str_read_only_why, why);
    buffers_ready = 1;
    Py_RETURN_NONE;
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

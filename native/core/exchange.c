/* arrstride._core: the DLPack 1.3 C exchange table, type(x).__dlpack_c_exchange_api__ (see core.h).
 *
 * A consumer written in C reads the table from the "dlpack_exchange_api"
 * capsule on the type and calls its function pointers with the GIL held:
 *
 *   managed_tensor_from_py_object_no_sync  x -> a DLManagedTensorVersioned (export)
 *   managed_tensor_to_py_object_no_sync    a DLManagedTensorVersioned -> an Array (import)
 *   managed_tensor_allocator               a prototype DLTensor -> a new exported array
 *   current_work_stream                    NULL: arrstride runs on the CPU, with no streams
 *   dltensor_from_py_object_no_sync        x -> a DLTensor viewing x in place, no owner:
 *       its shape and strides point into the Array's own C fields (core.h), alive as
 *       long as x is (the consumer holds x)
 *
 * Each function takes a fast path for the common case and otherwise calls the
 * Python implementation in arrstride/_dlpack.py, which owns every rule and
 * message (and the exports that need a copy: negative strides, as __dlpack__).
 * Export: the managed tensor comes from ars_dlpack_export_owned (native/src/dlpack.c,
 * the one that __dlpack__ uses) with the array itself as owner: a reference
 * that the deleter drops exactly once, taking the GIL, on any thread.
 * Import: what the producer says is checked as _foreign.wrap checks it (dims
 * >= 0, the span in int64 and in the address space, data not NULL, aligned
 * elements); the fast path takes only a tensor that passes every check and
 * leaves the rest, and every error, to _dlpack.exchange_import. From the call
 * on, the tensor is ours: its deleter runs exactly once, when the last view
 * dies or at once on an error (an ars_owner capsule, as for __dlpack__ imports).
 */
#include "core.h"

/* ---- the DLPack 1.3 exchange table (dlpack.h, "DLPack C exchange protocol") ---------- */

typedef int (*DLPackManagedTensorAllocator)(DLTensor *prototype, DLManagedTensorVersioned **out,
                                            void *error_ctx,
                                            void (*SetError)(void *error_ctx, const char *kind,
                                                             const char *message));
typedef int (*DLPackManagedTensorFromPyObjectNoSync)(void *py_object, DLManagedTensorVersioned **out);
typedef int (*DLPackDLTensorFromPyObjectNoSync)(void *py_object, DLTensor *out);
typedef int (*DLPackCurrentWorkStream)(DLDeviceType device_type, int32_t device_id,
                                       void **out_current_stream);
typedef int (*DLPackManagedTensorToPyObjectNoSync)(DLManagedTensorVersioned *tensor,
                                                   void **out_py_object);

typedef struct DLPackExchangeAPIHeader {
    DLPackVersion version;
    struct DLPackExchangeAPIHeader *prev_api;
} DLPackExchangeAPIHeader;

typedef struct DLPackExchangeAPI {
    DLPackExchangeAPIHeader header;
    DLPackManagedTensorAllocator managed_tensor_allocator;
    DLPackManagedTensorFromPyObjectNoSync managed_tensor_from_py_object_no_sync;
    DLPackManagedTensorToPyObjectNoSync managed_tensor_to_py_object_no_sync;
    DLPackDLTensorFromPyObjectNoSync dltensor_from_py_object_no_sync;
    DLPackCurrentWorkStream current_work_stream;
} DLPackExchangeAPI;

enum { EXCHANGE_MAJOR = 1, EXCHANGE_MINOR = 3 };
static const char CAPSULE_NAME[] = "dlpack_exchange_api";

/* ---- state (setup_exchange) ----------------------------------------------------------- */

typedef void *(*export_owned_fn)(void *, int, const int64_t *, const int64_t *, int, uint64_t, void *,
                                 void (*)(void *));
static export_owned_fn k_export_owned;   /* ars_dlpack_export_owned */
static int (*k_dl_dtype)(uint8_t, uint8_t, uint16_t);  /* ars_dlpack_dtype */
static void (*k_dl_view)(DLTensor *, void *, int, int64_t *, int64_t *, int);  /* ars_dlpack_view */
static PyObject *py_export;              /* _dlpack.exchange_export(x) -> "dltensor_versioned" capsule */
static PyObject *py_import;              /* _dlpack.exchange_import(address) -> Array */
static PyObject *py_allocate;            /* _dlpack.exchange_allocate(address) -> Array */
static PyObject *py_refuse;              /* _dlpack.exchange_refuse(function, rule): raises */
static PyObject *str_dlpack_why;         /* why an imported read-only array is read-only */
static int exchange_ready;

static int refuse(const char *func, const char *rule) {
    if (py_refuse == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "arrstride: the DLPack exchange table is not set up");
        return -1;
    }
    PyObject *r = PyObject_CallFunction(py_refuse, "ss", func, rule);
    Py_XDECREF(r);
    if (!PyErr_Occurred())
        PyErr_SetString(PyExc_RuntimeError, func);
    return -1;
}

/* ---- export ---------------------------------------------------------------------------- */

/* The exported tensor's owner is a reference to the array: dropped once, with
 * the GIL, whichever thread the consumer calls the deleter from (and any
 * exception it has pending set aside). At interpreter exit it is left. */
static void release_array(void *owner) {
    if (!Py_IsInitialized())
        return;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    Py_DECREF((PyObject *)owner);
    PyErr_Restore(t, v, tb);
    PyGILState_Release(g);
}

/* 1: exported into *out; 0: not a fast case (nothing raised); -1: error. */
static int export_fast(PyObject *obj, DLManagedTensorVersioned **out) {
    view_t v;
    if (!fast_paths || !read_view_shared(obj, &v))
        return 0;
    for (int k = 0; k < v.ndim && v.size > 0; k++)
        if (v.strides[k] < 0 && v.shape[k] > 1)
            return 0;  /* exported as a copy, as by __dlpack__ (_dlpack.export says why) */
    Py_INCREF(obj);
    void *m = k_export_owned(v.data, v.ndim, v.shape, v.strides, v.code,
                             v.readonly ? ARS_DLPACK_FLAG_READ_ONLY : 0, obj, release_array);
    if (m == NULL) {
        Py_DECREF(obj);
        PyErr_NoMemory();
        return -1;
    }
    *out = m;
    return 1;
}

static int from_py_object(void *py_object, DLManagedTensorVersioned **out) {
    static const char func[] = "__dlpack_c_exchange_api__.managed_tensor_from_py_object_no_sync";
    if (out == NULL)
        return refuse(func, "out must point to a DLManagedTensorVersioned* to fill");
    *out = NULL;
    if (py_object == NULL)
        return refuse(func, "py_object must be an arrstride array, not NULL");
    PyObject *obj = (PyObject *)py_object;
    int r = export_fast(obj, out);
    if (r != 0)
        return r < 0 ? -1 : 0;
    /* the general path: __dlpack__'s export, its tensor taken out of the capsule */
    PyObject *cap = PyObject_CallOneArg(py_export, obj);
    if (cap == NULL)
        return -1;
    void *m = PyCapsule_GetPointer(cap, "dltensor_versioned");
    if (m == NULL || PyCapsule_SetName(cap, "used_dltensor_versioned") < 0) {
        Py_DECREF(cap);  /* still "dltensor_versioned": its destructor deletes the tensor */
        return -1;
    }
    Py_DECREF(cap);
    *out = m;
    return 0;
}

/* ---- import ---------------------------------------------------------------------------- */

/* An Array viewing m, or NULL: with an exception set, m was taken (and its
 * deleter has run); without one, not a fast case and m is untouched. */
static PyObject *import_fast(DLManagedTensorVersioned *m) {
    if (!fast_paths || !buffers_ready || m->version.major != ARS_DLPACK_MAJOR)
        return NULL;
    DLTensor *t = &m->dl_tensor;
    if (t->device.device_type != kDLCPU)
        return NULL;
    int code = k_dl_dtype(t->dtype.code, t->dtype.bits, t->dtype.lanes);
    if (code < 0 || code >= NCODES || DINFO[code].dtype == NULL)
        return NULL;
    int nd = t->ndim;
    if (nd < 0 || nd > FAST_DIMS || (nd > 0 && (t->shape == NULL || t->strides == NULL)))
        return NULL;
    const int64_t isz = DINFO[code].itemsize, max_bytes = INT64_MAX;
    int64_t shape[FAST_DIMS], strides[FAST_DIMS], lo = 0, hi = 0, size = 1, reach, nbytes;
    for (int k = 0; k < nd; k++) {
        int64_t d = t->shape[k], s = t->strides[k], bytes;
        if (d <= 0 || s == INT64_MIN || __builtin_mul_overflow(s < 0 ? -s : s, isz, &bytes)
            || __builtin_mul_overflow(size, d, &size) || __builtin_mul_overflow(d - 1, s, &reach)
            || __builtin_add_overflow(s < 0 ? lo : hi, reach, s < 0 ? &lo : &hi))
            return NULL;  /* empty (a new storage), or past int64: _foreign.wrap decides */
        shape[k] = d;
        strides[k] = s;
    }
    uintptr_t start, first = (uintptr_t)t->data, end;
    if (__builtin_sub_overflow(hi, lo, &nbytes) || __builtin_add_overflow(nbytes, 1, &nbytes)
        || __builtin_mul_overflow(nbytes, isz, &nbytes) || nbytes > max_bytes
        || first == 0 || t->byte_offset > UINTPTR_MAX - first)
        return NULL;
    first += (uintptr_t)t->byte_offset;
    /* start = first + lo * isz (lo <= 0), inside the address space, elements aligned */
    if ((uintptr_t)(-(lo * isz)) >= first)  /* lo * isz >= -(2**63 - 1): nbytes fits */
        return NULL;
    start = first - (uintptr_t)(-(lo * isz));
    if (__builtin_add_overflow(start, (uintptr_t)nbytes, &end) || start % (uintptr_t)isz != 0)
        return NULL;
    /* from here the tensor is ours: an owner capsule calls its deleter once */
    owner_t *o = k_owner_new(ARS_OWN_DLPACK_VERSIONED, m);
    if (o == NULL)
        return NULL;  /* _dlpack's path raises the MemoryError and deletes m */
    PyObject *capsule = PyCapsule_New(o, owner_capsule_name, owner_destructor);
    if (capsule == NULL) {
        k_owner_release(o);
        return NULL;
    }
    int readonly = (m->flags & ARS_DLPACK_FLAG_READ_ONLY) != 0;
    return foreign_array(capsule, (const char *)start, nbytes, readonly, str_dlpack_why, code, nd, shape,
                         strides, -lo, size);
}

static int to_py_object(DLManagedTensorVersioned *tensor, void **out_py_object) {
    static const char func[] = "__dlpack_c_exchange_api__.managed_tensor_to_py_object_no_sync";
    if (out_py_object == NULL) {
        if (tensor != NULL && tensor->deleter != NULL)
            tensor->deleter(tensor);  /* ours to delete (DLPack: the tensor is stolen) */
        return refuse(func, "out_py_object must point to a PyObject* to fill");
    }
    *out_py_object = NULL;
    PyObject *r = tensor == NULL ? NULL : import_fast(tensor);
    if (r == NULL && !PyErr_Occurred()) {
        PyObject *addr = PyLong_FromVoidPtr(tensor);
        r = addr ? PyObject_CallOneArg(py_import, addr) : NULL;
        Py_XDECREF(addr);
    }
    if (r == NULL)
        return -1;
    *out_py_object = r;
    return 0;
}

/* ---- allocate, stream ------------------------------------------------------------------- */

/* A new array of the prototype's dtype, shape and device (CPU), exported. Errors go
 * to SetError (kind: the exception's type name, message: its text), not to Python. */
static int allocate(DLTensor *prototype, DLManagedTensorVersioned **out, void *error_ctx,
                    void (*SetError)(void *, const char *, const char *)) {
    static const char func[] = "__dlpack_c_exchange_api__.managed_tensor_allocator";
    PyGILState_STATE g = PyGILState_Ensure();
    int rc = -1;
    if (out == NULL)
        refuse(func, "out must point to a DLManagedTensorVersioned* to fill");
    else {
        *out = NULL;
        PyObject *addr = PyLong_FromVoidPtr(prototype);
        PyObject *arr = addr ? PyObject_CallOneArg(py_allocate, addr) : NULL;
        Py_XDECREF(addr);
        if (arr != NULL) {
            rc = from_py_object(arr, out);
            Py_DECREF(arr);
        }
    }
    if (rc < 0) {
        PyObject *t, *v, *tb;
        PyErr_Fetch(&t, &v, &tb);
        PyErr_NormalizeException(&t, &v, &tb);
        PyObject *text = v ? PyObject_Str(v) : NULL;
        const char *message = text ? PyUnicode_AsUTF8(text) : NULL;
        PyErr_Clear();
        if (SetError != NULL)
            SetError(error_ctx, t ? ((PyTypeObject *)t)->tp_name : "RuntimeError",
                     message ? message : func);
        Py_XDECREF(text);
        Py_XDECREF(t);
        Py_XDECREF(v);
        Py_XDECREF(tb);
    }
    PyGILState_Release(g);
    return rc;
}

/* *out = a DLTensor viewing x in place (data at x's first element, x's dims and
 * element strides, CPU). Refused, with the reason raised, for what a bare
 * DLTensor cannot say or a consumer cannot take (the consumer then calls
 * managed_tensor_from_py_object_no_sync, which copies or flags these): a
 * read-only array (a DLTensor has no flags), negative strides (exported as a
 * copy, as by __dlpack__), and a layout C does not hold (more than FAST_DIMS dims). */
static int dltensor_from_py_object(void *py_object, DLTensor *out) {
    static const char func[] = "__dlpack_c_exchange_api__.dltensor_from_py_object_no_sync";
    PyGILState_STATE g = PyGILState_Ensure();
    int rc = -1;
    view_t v;
    PyObject *obj = (PyObject *)py_object;
    if (out == NULL)
        refuse(func, "out must point to a DLTensor to fill");
    else if (obj == NULL || !exchange_ready || !read_view_shared(obj, &v))
        refuse(func, "py_object must be an arrstride array of at most 8 dims (others: "
                     "managed_tensor_from_py_object_no_sync)");
    else if (v.readonly)
        refuse(func, "a read-only array has no DLTensor view (a DLTensor carries no read-only flag: "
                     "managed_tensor_from_py_object_no_sync marks it)");
    else {
        int negative = 0;
        for (int k = 0; k < v.ndim && v.size > 0; k++)
            negative |= v.strides[k] < 0 && v.shape[k] > 1;
        if (negative) {
            refuse(func, "an array with negative strides is exported as a copy "
                         "(managed_tensor_from_py_object_no_sync)");
        } else {
            ArrayObject *a = (ArrayObject *)obj;
            /* shape and strides: the Array's own fields (read_view copied these) */
            k_dl_view(out, v.data, v.ndim, array_shape(a), array_strides(a), v.code);
            rc = 0;
        }
    }
    PyGILState_Release(g);
    return rc;
}

/* The CPU has no work stream: NULL, for every device (DLPack: a CPU-only
 * framework may always answer NULL). */
static int current_work_stream(DLDeviceType device_type, int32_t device_id, void **out_current_stream) {
    (void)device_type;
    (void)device_id;
    if (out_current_stream != NULL)
        *out_current_stream = NULL;
    return 0;
}

static DLPackExchangeAPI exchange_api = {
    .header = {.version = {EXCHANGE_MAJOR, EXCHANGE_MINOR}, .prev_api = NULL},
    .managed_tensor_allocator = allocate,
    .managed_tensor_from_py_object_no_sync = from_py_object,
    .managed_tensor_to_py_object_no_sync = to_py_object,
    .dltensor_from_py_object_no_sync = dltensor_from_py_object,
    .current_work_stream = current_work_stream,
};

/* ---- the module functions ---------------------------------------------------------------- */

/* setup_exchange(ars_dlpack_export_owned, ars_dlpack_dtype, ars_dlpack_view (addresses), export, import,
 * allocate, refuse, read-only reason) -> the "dlpack_exchange_api" capsule: once, from
 * _dlpack, which sets it on Array. */
PyObject *core_setup_exchange(PyObject *mod, PyObject *args) {
    (void)mod;
    unsigned long long pe, pd, pv;
    PyObject *ex, *im, *al, *rf, *why;
    if (!PyArg_ParseTuple(args, "KKKOOOOU:setup_exchange", &pe, &pd, &pv, &ex, &im, &al, &rf, &why))
        return NULL;
    k_dl_view = (void (*)(DLTensor *, void *, int, int64_t *, int64_t *, int))(uintptr_t)pv;
    k_export_owned = (export_owned_fn)(uintptr_t)pe;
    k_dl_dtype = (int (*)(uint8_t, uint8_t, uint16_t))(uintptr_t)pd;
    REPLACE(py_export, ex);
    REPLACE(py_import, im);
    REPLACE(py_allocate, al);
    REPLACE(py_refuse, rf);
    REPLACE(str_dlpack_why, why);
    exchange_ready = 1;
    return PyCapsule_New(&exchange_api, CAPSULE_NAME, NULL);
}

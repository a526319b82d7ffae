/* arrstride._core: the module: setup() and bind(), the fast-path switch, the method table (see core.h; the state is state.c's). */
#include "core.h"

/* ---- setup ------------------------------------------------------------------------- */

static Py_ssize_t slot_offset(PyTypeObject *type, const char *name) {
    PyObject *d = PyDict_GetItemString(type->tp_dict, name);
    if (d == NULL || !Py_IS_TYPE(d, &PyMemberDescr_Type)) {
        PyErr_Format(PyExc_TypeError, "arrstride._core.setup: %s.%s is not a slot", type->tp_name, name);
        return -1;
    }
    PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
    if (m->type != T_OBJECT_EX) {
        PyErr_Format(PyExc_TypeError, "arrstride._core.setup: %s.%s is not an object slot", type->tp_name, name);
        return -1;
    }
    return m->offset;
}

/* The kernels of arrstride._native that _core calls, by name: setup() takes
 * their addresses in a dict (one row here per kernel). */
static const struct { const char *name; void **fn; } KERNELS[] = {
    {"ars_unary_flat", (void **)&k_unary_flat}, {"ars_binary_flat", (void **)&k_binary_flat},
    {"ars_unary", (void **)&k_unary},           {"ars_binary", (void **)&k_binary},
    {"ars_where", (void **)&k_where},           {"ars_clip", (void **)&k_clip},
    {"ars_isin", (void **)&k_isin},             {"ars_cast", (void **)&k_cast},
    {"ars_matmul", (void **)&k_matmul},         {"ars_reduce", (void **)&k_reduce},
    {"ars_reduce_finish", (void **)&k_finish},  {"ars_count_true", (void **)&k_count_true},
    {"ars_compress", (void **)&k_compress},      {"ars_sort", (void **)&k_sort},
    {"ars_nonzero_bool", (void **)&k_nonzero},   {"ars_lane", (void **)&k_lane},
    {"ars_vector_norm", (void **)&k_norm},       {"ars_searchsorted", (void **)&k_search},
    {"ars_ewise_conv", (void **)&k_ewise_conv},  {"ars_take", (void **)&k_take},
};
enum { NKERNELS = sizeof KERNELS / sizeof KERNELS[0] };

/* The names of the kernels setup() wants (a tuple of str). */
static PyObject *core_kernel_names(PyObject *mod, PyObject *unused) {
    (void)mod, (void)unused;
    PyObject *t = PyTuple_New(NKERNELS);
    for (int k = 0; t != NULL && k < NKERNELS; k++) {
        PyObject *name = PyUnicode_FromString(KERNELS[k].name);
        if (name == NULL)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, k, name);
    }
    return t;
}

/* setup(Array, Layout, Storage, dtypes, probe, probe_address, contiguous, contiguous_of,
 *       allocate_large, small_block, check_status, kernels, ensure_blas):
 * the classes and kernels (kernels: {name: address} for kernel_names()),
 * bound by _array as soon as Array exists. */
static PyObject *core_setup(PyObject *mod, PyObject *args) {
    (void)mod;
    if (ready) {
        PyErr_SetString(PyExc_RuntimeError, "arrstride._core.setup runs once, when arrstride is imported");
        return NULL;
    }
    PyObject *array, *layout, *storage, *dtypes, *probe, *contig, *contig_of, *large, *status, *kernels;
    unsigned long long probe_addr;
    PyObject *blas;
    Py_ssize_t block;
    if (!PyArg_ParseTuple(args, "O!O!O!O!OKO!OOnOO!O:setup", &PyType_Type, &array, &PyType_Type,
                          &layout, &PyType_Type, &storage, &PyTuple_Type, &dtypes, &probe, &probe_addr,
                          &PyDict_Type, &contig, &contig_of, &large, &block, &status, &PyDict_Type, &kernels,
                          &blas))
        return NULL;
    void *addresses[NKERNELS];
    for (int k = 0; k < NKERNELS; k++) {
        PyObject *a = PyDict_GetItemString(kernels, KERNELS[k].name);
        addresses[k] = a == NULL ? NULL : PyLong_AsVoidPtr(a);
        if (addresses[k] == NULL) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_KeyError, "arrstride._core.setup: no address for the kernel %s",
                             KERNELS[k].name);
            return NULL;
        }
    }
    if (!PyType_IsSubtype((PyTypeObject *)array, &ArrayBaseType)) {
        PyErr_SetString(PyExc_TypeError, "arrstride._core.setup: Array must derive from ArrayBase");
        return NULL;
    }
    PyTypeObject *lt = (PyTypeObject *)layout, *stt = (PyTypeObject *)storage;
    if ((off_shape = slot_offset(lt, "shape")) < 0 || (off_strides = slot_offset(lt, "strides")) < 0
        || (off_offset = slot_offset(lt, "offset")) < 0 || (off_size = slot_offset(lt, "size")) < 0
        || (off_ptr = slot_offset(stt, "_ptr")) < 0 || (off_nbytes = slot_offset(stt, "nbytes")) < 0
        || (off_readonly = slot_offset(stt, "readonly")) < 0
        || (off_external = slot_offset(stt, "external")) < 0
        || (off_owner = slot_offset(stt, "_owner")) < 0
        || (off_why = slot_offset(stt, "_readonly_why")) < 0)
        return NULL;
    /* the cdata's char*: right after the object header and the ctype pointer */
    off_cdata = sizeof(PyObject) + sizeof(void *);
    PyTypeObject *cbase = Py_TYPE(probe);
    while (cbase->tp_base != NULL && cbase->tp_base != &PyBaseObject_Type)
        cbase = cbase->tp_base;
    if ((unsigned long long)(uintptr_t)*(char **)((char *)probe + off_cdata) != probe_addr) {
        PyErr_SetString(PyExc_RuntimeError, "arrstride._core.setup: cffi's cdata layout is not the expected one");
        return NULL;
    }
    Py_ssize_t nd = PyTuple_GET_SIZE(dtypes);
    if (nd > NCODES) {
        PyErr_SetString(PyExc_ValueError, "arrstride._core.setup: too many dtypes");
        return NULL;
    }
    REPLACE(DTYPES, dtypes);
    memset(DINFO, 0, sizeof DINFO);
    for (Py_ssize_t k = 0; k < nd; k++) {
        PyObject *d = PyTuple_GET_ITEM(dtypes, k);
        PyObject *code = PyObject_GetAttrString(d, "code"), *isz = PyObject_GetAttrString(d, "itemsize"),
                 *kind = PyObject_GetAttrString(d, "kind");
        int ok = code && isz && kind && PyUnicode_Check(kind) && PyLong_AsLong(code) == k;
        long itemsize = ok ? PyLong_AsLong(isz) : 0;
        const char *ks = ok ? PyUnicode_AsUTF8(kind) : NULL;
        Py_XDECREF(code);
        Py_XDECREF(isz);
        Py_XDECREF(kind);
        if (!ok || ks == NULL || itemsize <= 0 || itemsize > 16) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "arrstride._core.setup: dtypes must be indexed by code");
            return NULL;
        }
        PyObject *sc = PyObject_GetAttrString(d, "scalar_compute");
        int held = sc == NULL ? -1 : PyObject_IsTrue(sc);
        Py_XDECREF(sc);
        if (held < 0)
            return NULL;
        DINFO[k].scalar_compute = held;
        DINFO[k].dtype = d;
        DINFO[k].itemsize = (int)itemsize;
        DINFO[k].code = (int)k;
        DINFO[k].kind = ks[0] == 'b' ? K_BOOL : ks[0] == 'i' ? K_INT : ks[0] == 'u' ? K_UINT
                      : ks[0] == 'f' ? K_FLOAT : K_COMPLEX;
    }
    REPLACE(ArrayType, (PyTypeObject *)array);
    REPLACE(LayoutType, lt);
    REPLACE(StorageType, stt);
    REPLACE(CDataBase, cbase);
    REPLACE(CONTIG, contig);
    REPLACE(contiguous_of, contig_of);
    REPLACE(allocate_large, large);
    REPLACE(check_status, status);
    small_block = block;
    for (int k = 0; k < NKERNELS; k++)
        *KERNELS[k].fn = addresses[k];
    REPLACE(ensure_blas, blas);
    blas_ready = 0;
    ready = 1;
    Py_RETURN_NONE;
}

/* bind(fallbacks: dict, operators: dict): the Python implementations behind
 * the slots, bound by _operators (imported last). */
static PyObject *core_bind(PyObject *mod, PyObject *args) {
    (void)mod;
    PyObject *fallbacks, *operators;
    if (!PyArg_ParseTuple(args, "O!O!:bind", &PyDict_Type, &fallbacks, &PyDict_Type, &operators))
        return NULL;
    for (int k = 0; k < F_COUNT; k++) {
        PyObject *f = PyDict_GetItemString(fallbacks, FALLBACK_NAMES[k]);
        if (f == NULL) {
            PyErr_Format(PyExc_KeyError, "arrstride._core.setup: no fallback for %s", FALLBACK_NAMES[k]);
            return NULL;
        }
        REPLACE(FALLBACK[k], f);
    }
    if (bind_operators(operators) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* ---- the fast-path switch ---------------------------------------------------------- */

/* fast_paths() -> True when the fast paths run (ARRSTRIDE_FAST_PATHS unset or 1
 * at import), False when every call takes the general path (0). */
static PyObject *core_fast_paths(PyObject *mod, PyObject *unused) {
    (void)mod;
    (void)unused;
    return PyBool_FromLong(fast_paths);
}

/* set_fast_paths(on) -> the previous setting: for tests, which run one call
 * both ways (the environment variable decides once, at import). */
static PyObject *core_set_fast_paths(PyObject *mod, PyObject *on) {
    (void)mod;
    int t = PyObject_IsTrue(on);
    if (t < 0)
        return NULL;
    PyObject *was = PyBool_FromLong(fast_paths);
    fast_paths = t;
    return was;
}

/* ARRSTRIDE_FAST_PATHS: unset, empty, 1, on, true or yes: on; 0, off, false or
 * no: off (any case, spaces around ignored); anything else raises. */
static int read_fast_paths_env(void) {
    static const char *const off[] = {"0", "off", "false", "no"}, *const on[] = {"1", "on", "true", "yes", ""};
    const char *v = getenv("ARRSTRIDE_FAST_PATHS");
    char word[8];
    size_t n = 0;
    if (v == NULL)
        return 0;
    while (*v == ' ' || *v == '\t')
        v++;
    for (; v[n] && v[n] != ' ' && v[n] != '\t' && n < sizeof word - 1; n++)
        word[n] = (char)(v[n] >= 'A' && v[n] <= 'Z' ? v[n] - 'A' + 'a' : v[n]);
    word[n] = 0;
    const char *rest = v + n;
    while (*rest == ' ' || *rest == '\t')
        rest++;
    for (size_t k = 0; *rest == 0 && k < sizeof off / sizeof *off; k++)
        if (strcmp(word, off[k]) == 0) {
            fast_paths = 0;
            return 0;
        }
    for (size_t k = 0; *rest == 0 && k < sizeof on / sizeof *on; k++)
        if (strcmp(word, on[k]) == 0) {
            fast_paths = 1;
            return 0;
        }
    PyErr_Format(PyExc_ValueError,
                 "ARRSTRIDE_FAST_PATHS: 0 (every call takes the general path) or 1 (the default); got '%.40s'",
                 getenv("ARRSTRIDE_FAST_PATHS"));
    return -1;
}

/* Run Python's signal handlers now (after a kernel a Ctrl-C stopped early:
 * the SIGINT handler raises KeyboardInterrupt). */
static PyObject *core_check_signals(PyObject *mod, PyObject *unused) {
    (void)mod, (void)unused;
    if (PyErr_CheckSignals() < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef core_methods[] = {
    {"check_signals", core_check_signals, METH_NOARGS,
     "check_signals() -> None, or the exception a signal handler raised"},
    {"fast_paths", core_fast_paths, METH_NOARGS,
     "fast_paths() -> whether the fast paths run (ARRSTRIDE_FAST_PATHS at import)"},
    {"set_fast_paths", core_set_fast_paths, METH_O,
     "set_fast_paths(on) -> the previous setting (for tests: one call both ways)"},
    {"setup", core_setup, METH_VARARGS, "Bind the Python classes and the kernels."},
    {"kernel_names", core_kernel_names, METH_NOARGS, "kernel_names() -> the kernels setup() takes"},
    {"ewise", (PyCFunction)(void (*)(void))core_ewise, METH_FASTCALL,
     "ewise(kind, op, code, out_code, out, *inputs) -> the elementwise engine on promoted operands "
     "(see native/core/engine.c)"},
    {"empty_ordered", (PyCFunction)(void (*)(void))core_empty_ordered, METH_FASTCALL,
     "empty_ordered(code, x) -> a new array of x's shape in the engine's output order"},
    {"copy_into", (PyCFunction)(void (*)(void))core_copy_into, METH_FASTCALL,
     "copy_into(dst, src, checked) -> True when dst[...] = src (copy or cast) was done by the engine"},
    {"cast", (PyCFunction)(void (*)(void))core_cast, METH_FASTCALL,
     "cast(code, x, corder=False) -> a new array of x's values in dtype code, in x's memory order or C order"},
    {"overlaps", (PyCFunction)(void (*)(void))core_overlaps, METH_FASTCALL,
     "overlaps(dst, src) -> whether src shares a byte with dst (the engine's overlap test)"},
    {"bind", core_bind, METH_VARARGS, "Bind the Python implementations behind the slots."},
    {"new", (PyCFunction)(void (*)(void))core_new, METH_FASTCALL, "new(storage, layout, dtype) -> Array"},
    {"empty", (PyCFunction)(void (*)(void))core_empty, METH_FASTCALL,
     "empty(shape, dtype, zero=False) -> a new contiguous Array, or None (not a fast case)"},
    {"scalar", (PyCFunction)(void (*)(void))core_scalar, METH_FASTCALL,
     "scalar(value[, dtype]) -> 0-d array of a Python scalar (of its kind's default dtype, or dtype when it takes the value as it is), or None"},
    {"reduce_all", (PyCFunction)(void (*)(void))core_reduce_all, METH_FASTCALL,
     "reduce_all(op, x, acc_dtype) -> the 0-d reduction of a dense x, or None"},
    {"reshape", (PyCFunction)(void (*)(void))core_reshape, METH_FASTCALL,
     "reshape(x, shape) -> a view of a dense x under shape, or None"},
    {"reduce_into", (PyCFunction)(void (*)(void))core_reduce_into, METH_FASTCALL,
     "reduce_into(op, x, axes, acc_dtype[, drop[, finish, count]]) -> the reduction over axes, or None"},
    {"from_list", core_from_list, METH_O,
     "from_list(list) -> 1-D float64/int64 array of a flat list of floats or ints, or None"},
    {"read_sequence", (PyCFunction)(void (*)(void))core_read_sequence, METH_FASTCALL,
     "read_sequence(obj, dtype, leaf, decide) -> nested lists and tuples read once, checked (see seq.c)"},
    {"where", (PyCFunction)(void (*)(void))core_where, METH_FASTCALL,
     "where(condition, x1, x2) -> a new array for dense operands of one shape, or None"},
    {"from_buffer", core_from_buffer, METH_O,
     "from_buffer(obj) -> a zero-copy Array over obj's buffer export, or None"},
    {"setup_buffers", core_setup_buffers, METH_VARARGS, "Bind the owner of buffer exports (once)."},
    {"setup_blocks", core_setup_blocks, METH_VARARGS, "Bind the block allocator (once)."},
    {"index_key", (PyCFunction)(void (*)(void))core_index_key, METH_FASTCALL,
     "index_key(x, key, convert) -> (shape, axes, steps, starts, adv), or a mistake (what, got, axis)"},
    {"stack0", core_stack0, METH_O,
     "stack0(arrays) -> dense arrays of one dtype and shape stacked along a new axis 0, or None"},
    {"concat0", core_concat0, METH_O,
     "concat0(arrays) -> dense arrays of one dtype joined along axis 0, or None"},
    {"sort", (PyCFunction)(void (*)(void))core_sort, METH_FASTCALL,
     "sort(x, axis, descending, stable, argsort) -> sort or argsort along x's last axis, or None"},
    {"permute", (PyCFunction)(void (*)(void))core_permute, METH_FASTCALL,
     "permute(x, axes) -> the view of x with its dims in the order of axes (a tuple of ints), or None"},
    {"cumulative", (PyCFunction)(void (*)(void))core_cumulative, METH_FASTCALL,
     "cumulative(op, x, axis, include_initial) -> cumulative_sum/prod with dtype=None, or None"},
    {"take", (PyCFunction)(void (*)(void))core_take, METH_FASTCALL,
     "take(x, indices, axis) -> take along axis 0 of a dense x by dense integer indices, or None"},
    {"clip", (PyCFunction)(void (*)(void))core_clip, METH_FASTCALL,
     "clip(x, min, max) -> x clamped by scalar or same-dtype bounds, or None"},
    {"vector_norm", (PyCFunction)(void (*)(void))core_vector_norm, METH_FASTCALL,
     "vector_norm(x, axis, keepdims, ord) -> linalg.vector_norm over one axis or all, or None"},
    {"searchsorted", (PyCFunction)(void (*)(void))core_searchsorted, METH_FASTCALL,
     "searchsorted(x1, x2, side, sorter) -> the insertion indices for one dtype and no sorter, or None"},
    {"arg", (PyCFunction)(void (*)(void))core_arg, METH_FASTCALL,
     "arg(op, x, axis, keepdims) -> argmax or argmin over all or one axis, or None"},
    {"nonzero", core_nonzero, METH_O,
     "nonzero(x) -> the coordinates of x's nonzero elements (a tuple of int64 arrays), or None"},
    {"matmul", (PyCFunction)(void (*)(void))core_matmul, METH_FASTCALL,
     "matmul(x1, x2) -> x1 @ x2 for 1-D/2-D operands of one dtype, or None"},
    {"setup_exchange", core_setup_exchange, METH_VARARGS,
     "Bind the DLPack exchange table's Python parts (once); returns its capsule."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "arrstride._core",
    "The C base of arrstride.Array and the per-call fast paths (see native/core/core.h).",
    -1, core_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void) {
    if (read_fast_paths_env() < 0)
        return NULL;
    if (PyType_Ready(&ArrayBaseType) < 0 || PyType_Ready(&ElementwiseType) < 0 || PyType_Ready(&BlockType) < 0
        || PyType_Ready(&RowIterType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&ArrayBaseType);
    Py_INCREF(&ElementwiseType);
    if (PyModule_AddObject(m, "ArrayBase", (PyObject *)&ArrayBaseType) < 0
        || PyModule_AddObject(m, "Elementwise", (PyObject *)&ElementwiseType) < 0
        || PyModule_AddIntConstant(m, "EW_UNARY", EW_UNARY) < 0 || PyModule_AddIntConstant(m, "EW_BINARY", EW_BINARY) < 0
        || PyModule_AddIntConstant(m, "EW_WHERE", EW_WHERE) < 0 || PyModule_AddIntConstant(m, "EW_CLIP", EW_CLIP) < 0
        || PyModule_AddIntConstant(m, "EW_ISIN", EW_ISIN) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

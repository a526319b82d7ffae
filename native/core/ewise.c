/* arrstride._core: Elementwise, the object behind each elementwise function: its fast path hands the engine (engine.c) its operands (see core.h). */
#include "core.h"

/* ---- Elementwise: the object behind each elementwise function ------------------------ */

/* Two arrays of different dtypes, where e's table (made by Python from its
 * rules) names the dtype of one of them as the one both compute in: the
 * engine casts the other into it block by block. NULL without an exception
 * when the call is not a fast case. */
static PyObject *ew_mixed(ElementwiseObject *e, operand_t *ins) {
    int code = e->mixed[ins[0].code][ins[1].code];
    if (code < 0 || e->out[code] < 0)
        return NULL;
    ew_call c = {EW_BINARY, e->op, code, e->out[code], NULL, 0, 0, 1, {ins[0].code, ins[1].code}};
    return engine_run(&c, ins, NULL, NULL, OVERLAP_DECLINE);
}

/* The fast path of e on (a) or (a, b): arrays of one dtype in any layout C
 * holds, or one array and a Python scalar of its kind (unless the dtype holds
 * scalars in its compute dtype, as bfloat16 does), run by the engine;
 * NULL without an exception when the call is not a fast case. */
PyObject *ew_fast(ElementwiseObject *e, PyObject *a, PyObject *b) {
    view_t va, vb;
    char item[16];
    operand_t ins[2];
    int code;
    if (b == NULL) {
        if (!read_view(a, &va))
            return NULL;
        code = va.code, ins[0] = operand_of(&va);
    } else {
        int fa = read_view(a, &va), fb = read_view(b, &vb);
        if (fa && fb) {
            code = va.code, ins[0] = operand_of(&va), ins[1] = operand_of(&vb);
            if (va.code != vb.code)
                return ew_mixed(e, ins);
        } else if (fa) {
            if (!packed_operand(b, va.code, item, &ins[1]))
                return NULL;
            code = va.code, ins[0] = operand_of(&va);
        } else if (fb) {
            if (!packed_operand(a, vb.code, item, &ins[0]))
                return NULL;
            code = vb.code, ins[1] = operand_of(&vb);
        } else {
            return NULL;
        }
    }
    if (e->out[code] < 0)
        return NULL;
    ew_call c = {b == NULL ? EW_UNARY : EW_BINARY, e->op, code, e->out[code], NULL, 0, 0};
    return engine_run(&c, ins, NULL, NULL, OVERLAP_DECLINE);
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
    static char *kwlist[] = {"name", "op", "nargs", "table", "impl", "mixed", NULL};
    PyObject *name, *table, *impl, *mixed = NULL;
    int op, nargs;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "UiiOO|O:Elementwise", kwlist, &name, &op, &nargs,
                                     &table, &impl, &mixed))
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
    memset(e->mixed, -1, sizeof e->mixed);
    if (mixed != NULL && mixed != Py_None) {  /* a dict {(code, code): code} */
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        if (!PyDict_Check(mixed)) {
            Py_DECREF(e);
            PyErr_SetString(PyExc_TypeError, "Elementwise: mixed is a dict {(code, code): code}");
            return NULL;
        }
        while (PyDict_Next(mixed, &pos, &key, &value)) {
            long i, j, c = PyLong_AsLong(value);
            if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) != 2
                || (i = PyLong_AsLong(PyTuple_GET_ITEM(key, 0))) < 0 || i >= NCODES
                || (j = PyLong_AsLong(PyTuple_GET_ITEM(key, 1))) < 0 || j >= NCODES
                || c < 0 || c >= NCODES || (c != i && c != j)) {
                Py_DECREF(e);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "Elementwise: mixed maps two codes to one of them");
                return NULL;
            }
            e->mixed[i][j] = (signed char)c;
        }
    }
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

/* arrstride._core: the operator slots of ArrayBase: x op y, x op= y, op x, comparisons (see core.h). */
#include "core.h"

/* ---- operators --------------------------------------------------------------------- */

/* Binary operators, in the order of OPERATOR_NAMES; each has the Elementwise
 * object of its fast path and the Python implementations of `x op y`
 * (forward, called as (x, y)) and `y op x` (reflected, called as (x, y)). */
enum { O_ADD, O_SUB, O_MUL, O_TRUEDIV, O_FLOORDIV, O_MOD, O_POW, O_AND, O_OR, O_XOR, O_LSHIFT, O_RSHIFT,
       O_LT, O_LE, O_EQ, O_NE, O_GT, O_GE, O_NEG, O_POS, O_ABS, O_INVERT, O_COUNT };
static const char *OPERATOR_NAMES[O_COUNT] = {
    "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor", "lshift", "rshift",
    "lt", "le", "eq", "ne", "gt", "ge", "neg", "pos", "abs", "invert"};
static struct { PyObject *ew, *forward, *reflected, *inplace; } OPS[O_COUNT];

static PyObject *binary_slot(int which, PyObject *a, PyObject *b) {
    if (OPS[which].ew != NULL && ready && fast_paths) {
        PyObject *r = ew_fast((ElementwiseObject *)OPS[which].ew, a, b);
        if (r != NULL || PyErr_Occurred())
            return r;
    }
    int forward = PyObject_TypeCheck(a, ArrayType);
    PyObject *f = forward ? OPS[which].forward : OPS[which].reflected;
    if (f == NULL)
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *args[2] = {forward ? a : b, forward ? b : a};
    return PyObject_Vectorcall(f, args, 2, NULL);
}

/* x op= y in C when x is writable, the result keeps x's dtype and y is an
 * array of x's dtype or a Python scalar of its kind: the engine writes x
 * through its own layout (declining an x that reaches an element twice, a y
 * that does not broadcast to x's shape, or a y that overlaps x without
 * being x); else the Python implementation. */
static PyObject *inplace_slot(int which, PyObject *a, PyObject *b) {
    view_t va, vb;
    char item[16];
    ElementwiseObject *e = (ElementwiseObject *)OPS[which].ew;
    if (e != NULL && ready && fast_paths && read_view(a, &va) && !va.readonly && e->out[va.code] == va.code) {
        operand_t ins[2], vout = operand_of(&va);
        int ok = 1;
        if (read_view(b, &vb))
            ok = vb.code == va.code, ins[1] = operand_of(&vb);
        else
            ok = packed_operand(b, va.code, item, &ins[1]);
        if (ok) {
            ins[0] = vout;
            ew_call c = {EW_BINARY, e->op, va.code, va.code, NULL, 0, 0};
            PyObject *r = engine_run(&c, ins, a, &vout, OVERLAP_DECLINE);
            if (r != NULL || PyErr_Occurred())
                return r;
        }
    }
    if (PyErr_Occurred())
        return NULL;
    if (OPS[which].inplace == NULL)
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *args[2] = {a, b};
    return PyObject_Vectorcall(OPS[which].inplace, args, 2, NULL);
}

static PyObject *unary_slot(int which, PyObject *a) {
    if (OPS[which].ew == NULL) {
        PyErr_Format(PyExc_RuntimeError, "arrstride: operator %s is not bound", OPERATOR_NAMES[which]);
        return NULL;
    }
    return PyObject_CallOneArg(OPS[which].ew, a);
}

#define BINARY_SLOT(name, which) \
    static PyObject *nb_##name(PyObject *a, PyObject *b) { return binary_slot(which, a, b); }
BINARY_SLOT(add, O_ADD)
BINARY_SLOT(sub, O_SUB)
BINARY_SLOT(mul, O_MUL)
BINARY_SLOT(truediv, O_TRUEDIV)
BINARY_SLOT(floordiv, O_FLOORDIV)
BINARY_SLOT(mod, O_MOD)
BINARY_SLOT(and, O_AND)
BINARY_SLOT(or, O_OR)
BINARY_SLOT(xor, O_XOR)
BINARY_SLOT(lshift, O_LSHIFT)
BINARY_SLOT(rshift, O_RSHIFT)
#define INPLACE_SLOT(name, which) \
    static PyObject *nb_i##name(PyObject *a, PyObject *b) { return inplace_slot(which, a, b); }
INPLACE_SLOT(add, O_ADD)
INPLACE_SLOT(sub, O_SUB)
INPLACE_SLOT(mul, O_MUL)
INPLACE_SLOT(truediv, O_TRUEDIV)
INPLACE_SLOT(floordiv, O_FLOORDIV)
INPLACE_SLOT(mod, O_MOD)
INPLACE_SLOT(and, O_AND)
INPLACE_SLOT(or, O_OR)
INPLACE_SLOT(xor, O_XOR)
INPLACE_SLOT(lshift, O_LSHIFT)
INPLACE_SLOT(rshift, O_RSHIFT)

/* x ** y and x **= y; a third argument (pow(x, y, mod)) is not supported */
static PyObject *nb_pow(PyObject *a, PyObject *b, PyObject *mod) {
    if (mod != Py_None)
        Py_RETURN_NOTIMPLEMENTED;
    return binary_slot(O_POW, a, b);
}

static PyObject *nb_ipow(PyObject *a, PyObject *b, PyObject *mod) {
    if (mod != Py_None)
        Py_RETURN_NOTIMPLEMENTED;
    return inplace_slot(O_POW, a, b);
}
#define UNARY_SLOT(name, which) \
    static PyObject *nb_##name(PyObject *a) { return unary_slot(which, a); }
UNARY_SLOT(neg, O_NEG)
UNARY_SLOT(pos, O_POS)
UNARY_SLOT(abs, O_ABS)
UNARY_SLOT(invert, O_INVERT)

PyObject *array_richcompare(PyObject *a, PyObject *b, int op) {
    static const int which[] = {[Py_LT] = O_LT, [Py_LE] = O_LE, [Py_EQ] = O_EQ,
                                [Py_NE] = O_NE, [Py_GT] = O_GT, [Py_GE] = O_GE};
    return binary_slot(which[op], a, b);
}

PyNumberMethods array_as_number = {
    .nb_add = nb_add, .nb_subtract = nb_sub, .nb_multiply = nb_mul,
    .nb_true_divide = nb_truediv, .nb_floor_divide = nb_floordiv, .nb_remainder = nb_mod,
    .nb_power = nb_pow, .nb_inplace_power = nb_ipow,
    .nb_and = nb_and, .nb_or = nb_or, .nb_xor = nb_xor,
    .nb_lshift = nb_lshift, .nb_rshift = nb_rshift,
    .nb_inplace_add = nb_iadd, .nb_inplace_subtract = nb_isub, .nb_inplace_multiply = nb_imul,
    .nb_inplace_true_divide = nb_itruediv, .nb_inplace_floor_divide = nb_ifloordiv,
    .nb_inplace_remainder = nb_imod, .nb_inplace_and = nb_iand, .nb_inplace_or = nb_ior,
    .nb_inplace_xor = nb_ixor, .nb_inplace_lshift = nb_ilshift, .nb_inplace_rshift = nb_irshift,
    .nb_negative = nb_neg, .nb_positive = nb_pos, .nb_absolute = nb_abs, .nb_invert = nb_invert,
    .nb_float = array_float, .nb_int = array_int, .nb_index = array_index, .nb_bool = array_bool,
};

/* The operators' Elementwise objects and Python implementations, from
 * bind()'s dict: name -> (elementwise[, forward, reflected, inplace]). */
int bind_operators(PyObject *operators) {
    for (int k = 0; k < O_COUNT; k++) {
        PyObject *t = PyDict_GetItemString(operators, OPERATOR_NAMES[k]);
        PyObject *ew = NULL, *fw = NULL, *rf = NULL, *ip = NULL;
        if (t == NULL || !PyTuple_Check(t) || !PyArg_ParseTuple(t, "O|OOO", &ew, &fw, &rf, &ip)) {
            PyErr_Clear();
            PyErr_Format(PyExc_KeyError, "arrstride._core.setup: operator %s needs (elementwise[, forward, reflected, inplace])",
                         OPERATOR_NAMES[k]);
            return -1;
        }
        if (!PyObject_TypeCheck(ew, &ElementwiseType)) {
            PyErr_Format(PyExc_TypeError, "arrstride._core.setup: operator %s needs an Elementwise", OPERATOR_NAMES[k]);
            return -1;
        }
        REPLACE(OPS[k].ew, ew);
        REPLACE(OPS[k].forward, fw);
        REPLACE(OPS[k].reflected, rf);
        REPLACE(OPS[k].inplace, ip);
    }
    return 0;
}

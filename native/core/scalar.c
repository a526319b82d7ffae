/* arrstride._core: Python scalars in and out of one element (see core.h). */
#include "core.h"

/* ---- scalars in and out -------------------------------------------------------- */

/* An element of dtype `code` as a Python scalar. */
PyObject *read_scalar(const char *p, int code) {
    switch (code) {
#define R(C, T, MAKE) case C: { T v; memcpy(&v, p, sizeof v); return MAKE; }
    R(ARS_BOOL, uint8_t, PyBool_FromLong(v != 0))
    R(ARS_INT8, int8_t, PyLong_FromLong(v))
    R(ARS_INT16, int16_t, PyLong_FromLong(v))
    R(ARS_INT32, int32_t, PyLong_FromLong(v))
    R(ARS_INT64, int64_t, PyLong_FromLongLong(v))
    R(ARS_UINT8, uint8_t, PyLong_FromLong(v))
    R(ARS_UINT16, uint16_t, PyLong_FromLong(v))
    R(ARS_UINT32, uint32_t, PyLong_FromUnsignedLong(v))
    R(ARS_UINT64, uint64_t, PyLong_FromUnsignedLongLong(v))
    R(ARS_FLOAT32, float, PyFloat_FromDouble(v))
    R(ARS_FLOAT64, double, PyFloat_FromDouble(v))
    case ARS_COMPLEX64: { float v[2]; memcpy(v, p, sizeof v); return PyComplex_FromDoubles(v[0], v[1]); }
    case ARS_COMPLEX128: { double v[2]; memcpy(v, p, sizeof v); return PyComplex_FromDoubles(v[0], v[1]); }
#undef R
    }
    PyErr_SetString(PyExc_SystemError, "arrstride: unknown dtype code");
    return NULL;
}

/* A real value written as one element of a floating dtype (float32 rounds
 * as Python's struct does: past its range to infinity) or complex (imag 0). */
static int pack_real(double d, int code, char *out) {
    switch (code) {
    case ARS_FLOAT32: { float w = (float)d; memcpy(out, &w, 4); return 1; }
    case ARS_FLOAT64: memcpy(out, &d, 8); return 1;
    case ARS_COMPLEX64: { float w[2] = {(float)d, 0.0f}; memcpy(out, w, 8); return 1; }
    case ARS_COMPLEX128: { double w[2] = {d, 0.0}; memcpy(out, w, 16); return 1; }
    }
    return 0;
}

/* The Python scalar `value` packed as one element of dtype `code` into out
 * (16 bytes): 1 done, 0 not a fast case. Fast cases are an exact bool, int,
 * float or complex whose kind the dtype takes as it is, and ints in range;
 * the Python path decides (and words the errors of) everything else. */
int pack_scalar(PyObject *value, int code, char *out) {
    int kind = DINFO[code].kind;
    PyTypeObject *t = Py_TYPE(value);
    if (t == &PyBool_Type) {
        if (kind != K_BOOL)
            return 0;
        out[0] = value == Py_True;
        return 1;
    }
    if (t == &PyFloat_Type)
        return (kind == K_FLOAT || kind == K_COMPLEX) && pack_real(PyFloat_AS_DOUBLE(value), code, out);
    if (t == &PyComplex_Type) {
        if (kind != K_COMPLEX)
            return 0;
        Py_complex c = PyComplex_AsCComplex(value);
        if (code == ARS_COMPLEX64) {
            float w[2] = {(float)c.real, (float)c.imag};
            memcpy(out, w, 8);
        } else {
            double w[2] = {c.real, c.imag};
            memcpy(out, w, 16);
        }
        return 1;
    }
    if (t != &PyLong_Type)
        return 0;
    if (kind == K_FLOAT || kind == K_COMPLEX) {
        double d = PyLong_AsDouble(value);
        if (d == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        return pack_real(d, code, out);
    }
    int overflow;
    long long s = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (s == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (kind == K_INT && !overflow) {
        switch (DINFO[code].itemsize) {
        case 1: if (s < INT8_MIN || s > INT8_MAX) return 0; { int8_t w = (int8_t)s; memcpy(out, &w, 1); } return 1;
        case 2: if (s < INT16_MIN || s > INT16_MAX) return 0; { int16_t w = (int16_t)s; memcpy(out, &w, 2); } return 1;
        case 4: if (s < INT32_MIN || s > INT32_MAX) return 0; { int32_t w = (int32_t)s; memcpy(out, &w, 4); } return 1;
        default: { int64_t w = s; memcpy(out, &w, 8); } return 1;
        }
    }
    if (kind == K_UINT && overflow >= 0) {
        uint64_t v;
        if (overflow) {
            v = PyLong_AsUnsignedLongLong(value);
            if (v == (uint64_t)-1 && PyErr_Occurred()) {
                PyErr_Clear();
                return 0;
            }
        } else if (s < 0) {
            return 0;
        } else {
            v = (uint64_t)s;
        }
        switch (DINFO[code].itemsize) {
        case 1: if (v > UINT8_MAX) return 0; { uint8_t w = (uint8_t)v; memcpy(out, &w, 1); } return 1;
        case 2: if (v > UINT16_MAX) return 0; { uint16_t w = (uint16_t)v; memcpy(out, &w, 2); } return 1;
        case 4: if (v > UINT32_MAX) return 0; { uint32_t w = (uint32_t)v; memcpy(out, &w, 4); } return 1;
        default: memcpy(out, &v, 8); return 1;
        }
    }
    return 0;
}

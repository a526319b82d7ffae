/* arrstride._core: Python scalars in and out of one element (see core.h). */
#include "core.h"

/* ---- scalars in and out -------------------------------------------------------- */

/* One case per row of the C dtype table (ARS_DTYPES, native/src/ars_internal.h),
 * by the row's kind: KB bool, KI signed, KU unsigned, KF real float, KC complex, KN narrow float. */
#define TO_PY_KB(T, v) PyBool_FromLong((v) != 0)
#define TO_PY_KI(T, v) PyLong_FromLongLong((long long)(v))
#define TO_PY_KU(T, v) PyLong_FromUnsignedLongLong((unsigned long long)(v))
#define TO_PY_KF(T, v) PyFloat_FromDouble((double)(v))
#define TO_PY_KC(T, v) PyComplex_FromDoubles(creal(v), cimag(v))
#define TO_PY_KN(T, v) PyFloat_FromDouble(T##_to_double(v))

/* An element of dtype `code` as a Python scalar. */
PyObject *read_scalar(const char *p, int code) {
    switch (code) {
#define R(NAME, T, K) case ARS_##NAME: { T v; memcpy(&v, p, sizeof v); return TO_PY_##K(T, v); }
    ARS_STORAGE_DTYPES(R)
#undef R
    }
    PyErr_SetString(PyExc_SystemError, "arrstride: unknown dtype code");
    return NULL;
}

/* A real value as one element of a floating dtype (float32 rounds as Python's
 * struct does: past its range to infinity) or complex (imag +0); 0 for others. */
#define PACK_REAL_KB(T) return 0;
#define PACK_REAL_KI(T) return 0;
#define PACK_REAL_KU(T) return 0;
#define PACK_REAL_KF(T) { T w = (T)d; memcpy(out, &w, sizeof w); return 1; }
#define PACK_REAL_KC(T) PACK_REAL_KF(T)
#define PACK_REAL_KN(T) { T w = T##_from_double(d); memcpy(out, &w, sizeof w); return 1; }
static int pack_real(double d, int code, char *out) {
    switch (code) {
#define P(NAME, T, K) case ARS_##NAME: PACK_REAL_##K(T)
    ARS_STORAGE_DTYPES(P)
#undef P
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

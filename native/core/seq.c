/* arrstride._core: the one reader of nested Python sequences (asarray of lists
 * and tuples, and through asarray every function that takes them).
 *
 * read_sequence(obj, dtype, leaf, decide) walks obj once. Each list or tuple it
 * meets is read by position against the length it had when the walk reached
 * it (re-checked before every item, so a list that shrinks under the walk is
 * noticed, never read past); a subclass is read through its iterator into a
 * list of the reader's own, and refused when its __len__ disagrees. Every leaf is kept by a strong reference in the reader's
 * own vector: from then on nothing the sequences do (a __del__, another
 * thread, an item's __float__) can change what is converted or where it is
 * written. The shape comes from the walk alone; a ragged nesting, a length
 * lie, a change during the walk or a nesting deeper than MAXDIM is returned
 * to Python as a mistake, (what, detail), for _errors to word.
 *
 * Leaves that are Python numbers (bool, int, float, complex and their
 * subclasses) are read here. Any other leaf goes to leaf(x) -> (dtype, value),
 * Python's conversion of an array, a NumPy scalar or another exporter, whose
 * value (a Python scalar or a fresh nested list) is walked in its place.
 *
 * Python keeps the rules: decide(dtype, shape, kinds, pykinds, typed, lo, hi)
 * gets the requested dtype, the shape, the kinds of every leaf and of the
 * Python leaves alone (KIND_* bits), the dtypes leaf() gave, and the range of
 * the integer leaves (None, None without any), and
 * returns (buf, result): buf a new contiguous array of bool, int64, uint64,
 * float64 or complex128 with room for every leaf, which is filled here, and
 * result what read_sequence returns after the fill. */
#include "core.h"

enum { MAXDIM = 64 };
enum { KIND_BOOL = 1, KIND_INT = 2, KIND_FLOAT = 4, KIND_COMPLEX = 8 };

typedef struct {
    PyObject **leaf;             /* strong references, n of them */
    Py_ssize_t n, cap;
    int ndim, leafdepth;         /* dims seen so far; the depth of the leaves (-1: none yet) */
    int64_t shape[MAXDIM];
    int kinds, pykinds;          /* KIND_* of every leaf; of the leaves not from leaf() */
    int converted;               /* > 0 while walking a value leaf() gave */
    long long lo, hi;            /* the integer leaves' range while it fits int64 */
    PyObject *biglo, *bighi;     /* the extremes past int64 (strong), or NULL */
    PyObject *typed;             /* list: dtypes of the leaves leaf() converted */
    PyObject *leaf_fn;
    PyObject *mistake;           /* (what, detail) once the walk found one */
} reader_t;

static int mistake(reader_t *r, const char *what, PyObject *detail) {
    if (detail == NULL)
        return -1;
    r->mistake = Py_BuildValue("(sN)", what, detail);
    return -1;
}

static PyObject *shape_so_far(const reader_t *r, int depth) {
    return tuple_i64(r->shape, depth < r->ndim ? depth : r->ndim);
}

static int push(reader_t *r, PyObject *x) {
    if (r->n == r->cap) {
        Py_ssize_t cap = r->cap ? 2 * r->cap : 64;
        PyObject **p = PyMem_Realloc(r->leaf, (size_t)cap * sizeof(PyObject *));
        if (p == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        r->leaf = p, r->cap = cap;
    }
    r->leaf[r->n++] = Py_NewRef(x);
    return 0;
}

/* An integer leaf's value into the running range. */
static int track_int(reader_t *r, PyObject *x) {
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(x, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (!overflow) {
        if (v < r->lo)
            r->lo = v;
        if (v > r->hi)
            r->hi = v;
        return 0;
    }
    PyObject **end = overflow < 0 ? &r->biglo : &r->bighi;
    int beyond = *end == NULL ? 1 : PyObject_RichCompareBool(x, *end, overflow < 0 ? Py_LT : Py_GT);
    if (beyond < 0)
        return -1;
    if (beyond)
        Py_XSETREF(*end, Py_NewRef(x));
    return 0;
}

static int leaf_here(reader_t *r, int depth) {
    if (r->leafdepth < 0) {
        r->leafdepth = depth;
        return 0;
    }
    if (depth != r->leafdepth)
        return mistake(r, "ragged", shape_so_far(r, depth));
    return 0;
}

static int walk(reader_t *r, PyObject *x, int depth);

/* An exact list or tuple: its items by position, against the length it had
 * when the walk reached it. */
static int walk_items(reader_t *r, PyObject *x, int depth) {
    int is_list = PyList_Check(x);
    Py_ssize_t n = Py_SIZE(x);
    if (depth >= MAXDIM)
        return mistake(r, "depth", PyLong_FromLong(MAXDIM));
    if (r->leafdepth >= 0 && depth >= r->leafdepth)
        return mistake(r, "ragged", shape_so_far(r, depth));
    if (depth < r->ndim) {
        if (r->shape[depth] != n)
            return mistake(r, "ragged", shape_so_far(r, depth));
    } else {
        r->shape[depth] = n;
        r->ndim = depth + 1;
    }
    if (n == 0)
        return leaf_here(r, depth + 1);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (Py_SIZE(x) != n)  /* changed by code the walk ran (leaf(), a finalizer, another thread) */
            return mistake(r, "changed", PyLong_FromSsize_t(n));
        PyObject *item = Py_NewRef(is_list ? PyList_GET_ITEM(x, i) : PyTuple_GET_ITEM(x, i));
        int rc = walk(r, item, depth + 1);
        Py_DECREF(item);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* A list, tuple or range. A subclass (and a range) is read as NumPy reads
 * it, through its iterator, into a list of its own (PySequence_List); its
 * len() must agree. */
static int walk_sequence(reader_t *r, PyObject *x, int depth) {
    if (PyList_CheckExact(x) || PyTuple_CheckExact(x))
        return walk_items(r, x, depth);
    PyObject *items = PySequence_List(x);
    if (items == NULL)
        return -1;
    Py_ssize_t said = PyObject_Length(x);
    int rc = said < 0 ? -1
           : said != PyList_GET_SIZE(items) ? mistake(r, "length", Py_BuildValue("(nn)", said, PyList_GET_SIZE(items)))
           : walk_items(r, items, depth);
    Py_DECREF(items);
    return rc;
}

static int walk(reader_t *r, PyObject *x, int depth) {
    if (PyList_Check(x) || PyTuple_Check(x) || PyRange_Check(x))
        return walk_sequence(r, x, depth);
    int kind = PyBool_Check(x) ? KIND_BOOL : PyLong_Check(x) ? KIND_INT : PyFloat_Check(x) ? KIND_FLOAT
             : PyComplex_Check(x) ? KIND_COMPLEX : 0;
    if (kind == 0) {  /* an array, a NumPy scalar, an exporter: Python converts it */
        if (Py_EnterRecursiveCall(" in asarray"))
            return -1;
        PyObject *got = PyObject_CallOneArg(r->leaf_fn, x);
        int rc = -1;
        if (got != NULL && (!PyTuple_CheckExact(got) || PyTuple_GET_SIZE(got) != 2))
            PyErr_SetString(PyExc_TypeError, "arrstride._core.read_sequence: leaf() must return (dtype, value)");
        else if (got != NULL && PyList_Append(r->typed, PyTuple_GET_ITEM(got, 0)) == 0) {
            PyObject *v = PyTuple_GET_ITEM(got, 1);
            int plain = PyList_CheckExact(v) || PyBool_Check(v) || PyLong_CheckExact(v) || PyFloat_CheckExact(v)
                        || PyComplex_CheckExact(v);
            if (!plain)
                PyErr_SetString(PyExc_TypeError, "arrstride._core.read_sequence: leaf() must give a list or a Python scalar");
            else {
                r->converted++;
                rc = walk(r, v, depth);
                r->converted--;
            }
        }
        Py_XDECREF(got);
        Py_LeaveRecursiveCall();
        return rc;
    }
    if (leaf_here(r, depth) < 0)
        return -1;
    r->kinds |= kind;
    if (!r->converted)
        r->pykinds |= kind;
    if (kind == KIND_BOOL) {
        int v = x == Py_True;
        r->lo = v < r->lo ? v : r->lo;
        r->hi = v > r->hi ? v : r->hi;
    } else if (kind == KIND_INT && track_int(r, x) < 0)
        return -1;
    return push(r, x);
}

/* The leaves into buf's memory as its dtype (one of the five decide() picks). */
static int fill(reader_t *r, int code, char *p) {
    for (Py_ssize_t i = 0; i < r->n; i++) {
        PyObject *x = r->leaf[i];
        switch (code) {
        case ARS_BOOL: {
            int t = PyObject_IsTrue(x);
            if (t < 0)
                return -1;
            ((uint8_t *)p)[i] = (uint8_t)t;
            break;
        }
        case ARS_INT64: {
            long long v = PyLong_Check(x) ? PyLong_AsLongLong(x) : -1;
            if (!PyLong_Check(x))
                PyErr_SetString(PyExc_TypeError, "asarray: expected integers");
            if (v == -1 && PyErr_Occurred())
                return -1;
            ((int64_t *)p)[i] = v;
            break;
        }
        case ARS_UINT64: {
            unsigned long long v = PyLong_Check(x) ? PyLong_AsUnsignedLongLong(x) : (unsigned long long)-1;
            if (!PyLong_Check(x))
                PyErr_SetString(PyExc_TypeError, "asarray: expected integers");
            if (v == (unsigned long long)-1 && PyErr_Occurred())
                return -1;
            ((uint64_t *)p)[i] = v;
            break;
        }
        case ARS_FLOAT64: {
            double v;
            if (PyFloat_Check(x))
                v = PyFloat_AS_DOUBLE(x);
            else if (PyLong_Check(x)) {
                v = PyLong_AsDouble(x);
                if (v == -1.0 && PyErr_Occurred())
                    return -1;
            } else {
                PyErr_SetString(PyExc_TypeError, "asarray: expected real numbers");
                return -1;
            }
            ((double *)p)[i] = v;
            break;
        }
        default: {  /* ARS_COMPLEX128 */
            Py_complex c = {0.0, 0.0};
            if (PyComplex_Check(x))
                c = ((PyComplexObject *)x)->cval;
            else if (PyFloat_Check(x))
                c.real = PyFloat_AS_DOUBLE(x);
            else {
                c.real = PyLong_AsDouble(x);
                if (c.real == -1.0 && PyErr_Occurred())
                    return -1;
            }
            memcpy(p + 16 * i, &c, 16);
        }
        }
    }
    return 0;
}

static PyObject *range_end(long long v, PyObject *big, int any) {
    if (big != NULL)
        return Py_NewRef(big);
    if (!any)
        Py_RETURN_NONE;
    return PyLong_FromLongLong(v);
}

static PyObject *finish(reader_t *r, PyObject *obj, PyObject *dtype, PyObject *decide) {
    if (walk(r, obj, 0) < 0)
        return Py_XNewRef(r->mistake);  /* NULL when a Python error is set instead */
    int nd = r->leafdepth < 0 ? r->ndim : r->leafdepth;
    int64_t count = 1;
    for (int k = 0; k < nd; k++)
        count *= r->shape[k];  /* the leaves are counted: it cannot exceed them */
    if (count != r->n)
        return Py_BuildValue("(sn)", "changed", r->n);
    int any_int = (r->kinds & (KIND_BOOL | KIND_INT)) != 0;
    PyObject *shape = tuple_i64(r->shape, nd);
    PyObject *lo = range_end(r->lo, r->biglo, any_int), *hi = range_end(r->hi, r->bighi, any_int);
    PyObject *got = shape && lo && hi
                    ? PyObject_CallFunction(decide, "OOiiOOO", dtype, shape, r->kinds, r->pykinds, r->typed, lo, hi) : NULL;
    Py_XDECREF(shape);
    Py_XDECREF(lo);
    Py_XDECREF(hi);
    if (got == NULL)
        return NULL;
    PyObject *buf = PyTuple_CheckExact(got) && PyTuple_GET_SIZE(got) == 2 ? PyTuple_GET_ITEM(got, 0) : NULL;
    if (buf == NULL || !PyObject_TypeCheck(buf, &ArrayBaseType)) {
        Py_DECREF(got);
        PyErr_SetString(PyExc_TypeError, "arrstride._core.read_sequence: decide() must return (array, result)");
        return NULL;
    }
    ArrayObject *a = (ArrayObject *)buf;
    int code = dtype_code(a->dtype);
    PyObject *storage = PyObject_TypeCheck(buf, ArrayType) ? array_storage(a) : NULL;
    PyErr_Clear();  /* no storage: refused below */
    Py_XDECREF(storage);  /* the array holds it */
    char *p = storage != NULL ? storage_address(storage) : NULL;
    Py_ssize_t nbytes = storage != NULL && SLOT(storage, off_nbytes) != NULL
                        ? PyLong_AsSsize_t(SLOT(storage, off_nbytes)) : -1;
    int ok = code == ARS_BOOL || code == ARS_INT64 || code == ARS_UINT64 || code == ARS_FLOAT64
             || code == ARS_COMPLEX128;
    if ((!ok || p == NULL) && r->n > 0) {
        Py_DECREF(got);
        PyErr_SetString(PyExc_TypeError, "arrstride._core.read_sequence: decide() gave no buffer of a Python kind");
        return NULL;
    }
    if (nbytes < 0 || (r->n > 0 && nbytes / DINFO[code].itemsize < r->n)) {
        Py_DECREF(got);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "arrstride._core.read_sequence: decide() gave no room for the leaves");
        return NULL;
    }
    if (fill(r, code, p) < 0) {
        Py_DECREF(got);
        return NULL;
    }
    PyObject *result = Py_NewRef(PyTuple_GET_ITEM(got, 1));
    Py_DECREF(got);
    return result;
}

/* read_sequence(obj, dtype, leaf, decide) -> decide()'s result with its buffer
 * filled, or a mistake (what, detail): see the top of this file. */
PyObject *core_read_sequence(PyObject *mod, PyObject *const *args, Py_ssize_t nargs) {
    (void)mod;
    if (nargs != 4 || !ready) {
        PyErr_SetString(PyExc_TypeError, "read_sequence(obj, dtype, leaf, decide)");
        return NULL;
    }
    reader_t r = {.leafdepth = -1, .lo = INT64_MAX, .hi = INT64_MIN, .leaf_fn = args[2]};
    r.typed = PyList_New(0);
    PyObject *out = r.typed != NULL ? finish(&r, args[0], args[1], args[3]) : NULL;
    for (Py_ssize_t i = 0; i < r.n; i++)
        Py_DECREF(r.leaf[i]);
    PyMem_Free(r.leaf);
    Py_XDECREF(r.biglo);
    Py_XDECREF(r.bighi);
    Py_XDECREF(r.typed);
    Py_XDECREF(r.mistake);
    return out;
}

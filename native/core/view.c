/* arrstride._core: what a fast path reads of an Array (read_view), and the layout tests on it (see core.h). */
#include "core.h"

/* The strides are C order's for the shape (dims of size 1 aside). */
int dense_dims(int nd, const int64_t *shape, const int64_t *strides) {
    int64_t acc = 1;
    for (int k = nd - 1; k >= 0; k--) {
        if (shape[k] != 1 && strides[k] != acc)
            return 0;
        if (__builtin_mul_overflow(acc, shape[k] > 0 ? shape[k] : 1, &acc))
            return 0;  /* dims past int64 beside an empty one */
    }
    return 1;
}

int is_dense(const view_t *v) {
    return dense_dims(v->ndim, v->shape, v->strides);
}

/* What a fast path needs of self, an Array, in v (see view_t): 1, or 0 when
 * self is not one or C does not hold its layout (take the Python path). The
 * layout is the Array's C fields (core.h), read without touching Python
 * objects. */
int read_view(PyObject *self, view_t *v) {
    if (!ready || !PyObject_TypeCheck(self, ArrayType))
        return 0;
    ArrayObject *a = (ArrayObject *)self;
    if (!a->cfields || a->dtype == NULL || (a->storage != NULL && Py_TYPE(a->storage) != StorageType))
        return 0;
    int code = dtype_code(a->dtype);
    if (code < 0)
        return 0;
    char *base = array_base(a);
    if (base == NULL)
        return 0;
    int n = a->nd;
    v->ndim = n;
    v->offset = a->offset;
    v->size = a->size;
    for (int k = 0; k < n; k++) {
        v->shape[k] = array_shape(a)[k];
        v->strides[k] = array_strides(a)[k];
    }
    v->code = code;
    v->itemsize = DINFO[code].itemsize;
    v->kind = DINFO[code].kind;
    v->data = first_element(base, v->offset, v->size, v->itemsize);
    v->readonly = a->storage != NULL && SLOT(a->storage, off_readonly) != Py_False;
    v->dense = a->dense;
    return 1;
}
/* The bytes an operand reaches, [*lo, *hi), from its first element. */
static void reach(const operand_t *v, const char **lo, const char **hi) {
    int64_t l = 0, h = v->itemsize;
    for (int k = 0; k < v->nd; k++) {
        if (v->shape[k] <= 1)
            continue;  /* (a size-1 dim's stride may be anything) */
        int64_t r = (v->shape[k] - 1) * v->strides[k] * v->itemsize;  /* inside the storage */
        if (r < 0)
            l += r;
        else
            h += r;
    }
    *lo = v->data + l, *hi = v->data + h;
}

/* No byte of a is a byte of b; both non-empty. */
int operands_disjoint(const operand_t *a, const operand_t *b) {
    const char *alo, *ahi, *blo, *bhi;
    reach(a, &alo, &ahi);
    reach(b, &blo, &bhi);
    return ahi <= blo || bhi <= alo;
}

/* No two indices of w reach one element: its dims of size > 1, sorted by
 * |stride|, nest without interleaving (what _layout.has_internal_overlap
 * decides at once; 0 leaves the rest to it). */
int operand_nests(const operand_t *w) {
    int64_t st[ARS_MAX_DIMS], sh[ARS_MAX_DIMS];
    int n = 0;
    for (int k = 0; k < w->nd && k < ARS_MAX_DIMS; k++)
        if (w->shape[k] > 1) {
            int64_t s = w->strides[k] < 0 ? -w->strides[k] : w->strides[k];
            int j = n++;
            while (j > 0 && st[j - 1] > s) {
                st[j] = st[j - 1], sh[j] = sh[j - 1];
                j--;
            }
            st[j] = s, sh[j] = w->shape[k];
        }
    int64_t reach = 0;
    for (int k = 0; k < n; k++) {
        if (st[k] == 0 || st[k] <= reach)
            return 0;
        reach += (sh[k] - 1) * st[k];  /* inside the storage: no overflow */
    }
    return 1;
}

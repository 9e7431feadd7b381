/* Text from columns: n records laid out by one template, in one pass.
 *
 * join(n, template) -> bytes
 * join_text(n, template) -> str   (the same text, as a str: written straight into an ASCII
 *                                   str when every piece is ASCII, else decoded as UTF-8)
 *
 * The template is a tuple of items, written in order for each record i = 0..n-1:
 *   bytes                      the same bytes in every record;
 *   (0, data, width, table)    width bytes of data from offset i*width, each mapped
 *                              through table (256 bytes);
 *   (1, start)                 the decimal number start + i;
 *   (2, ints)                  the decimal number ints[i] (a sequence of n ints);
 *   (3, index, choices)        choices[index[i]] (index: n bytes; choices: a tuple of bytes).
 *
 * The module knows no record schema: the caller (sudoku_model/records.py, the one
 * serializer) gives every piece of text; this only interleaves them. It exists because
 * the same interleaving in Python costs a few microseconds a record, the whole cost of
 * writing a verify record. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

enum { K_CONST = -1, K_GRID = 0, K_COUNTER = 1, K_INTS = 2, K_CHOICE = 3 };

typedef struct {
    int kind;
    const char *bytes;      /* K_CONST */
    Py_ssize_t len;         /* K_CONST */
    const unsigned char *data; /* K_GRID, K_CHOICE (index) */
    Py_ssize_t width;       /* K_GRID */
    const unsigned char *table; /* K_GRID */
    int digit_table;        /* K_GRID: table maps 1..9 to '1'..'9' */
    long long start;        /* K_COUNTER */
    long long *ints;        /* K_INTS (owned) */
    PyObject *choices;      /* K_CHOICE (borrowed tuple) */
    Py_buffer views[2];
    int nviews;
} item;

static int digits(long long v)
{
    unsigned long long u = v < 0 ? (unsigned long long)(-(v + 1)) + 1 : (unsigned long long)v;
    int d = 1;
    while (u >= 10) {
        u /= 10;
        d++;
    }
    return d + (v < 0);
}

static char *put_decimal(char *p, long long v)
{
    char tmp[24];
    int k = 0;
    unsigned long long u = v < 0 ? (unsigned long long)(-(v + 1)) + 1 : (unsigned long long)v;
    do {
        tmp[k++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) *p++ = '-';
    while (k) *p++ = tmp[--k];
    return p;
}

/* Whether table maps 1..9 to the ASCII digits and 0 to a symbol up to '0' (the usual
 * grid table, '.' for empty): then eight cells at a time that all hold 0..9 are mapped
 * with word arithmetic, not a lookup. */
static int is_digit_table(const unsigned char *table)
{
    for (int d = 1; d <= 9; d++)
        if (table[d] != '0' + d) return 0;
    return table[0] <= '0'; /* an empty cell's symbol below '0': no borrow between bytes */
}

static void put_grid(char *p, const unsigned char *src, Py_ssize_t width,
                     const unsigned char *table, int digit_table)
{
    Py_ssize_t k = 0;
    if (digit_table) {
        const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
        const uint64_t zero_to = (uint64_t)(unsigned char)(0x30 - table[0]) * ones;
        for (; k + 8 <= width; k += 8) {
            uint64_t w;
            memcpy(&w, src + k, 8);
            /* every byte below 10: no high bit, and no carry into it when adding 0x76 */
            if ((w & high) || ((w + 0x76 * ones) & high)) {
                for (int j = 0; j < 8; j++) p[k + j] = (char)table[src[k + j]];
                continue;
            }
            uint64_t nonzero = ((w + 0x7F * ones) | w) & high; /* 0x80 in each nonzero byte */
            uint64_t zero = ((~nonzero) & high) >> 7;          /* 1 in each zero byte */
            uint64_t out = w + 0x30 * ones - zero * (zero_to & 0xFF);
            memcpy(p + k, &out, 8);
        }
    }
    for (; k < width; k++) p[k] = (char)table[src[k]];
}

static void release(item *items, Py_ssize_t m)
{
    for (Py_ssize_t j = 0; j < m; j++) {
        for (int v = 0; v < items[j].nviews; v++) PyBuffer_Release(&items[j].views[v]);
        PyMem_Free(items[j].ints);
    }
    PyMem_Free(items);
}

static int read_buffer(PyObject *obj, item *it, const char *what, Py_ssize_t need)
{
    Py_buffer *view = &it->views[it->nviews];
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return 0;
    it->nviews++;
    if (view->len < need) {
        PyErr_Format(PyExc_ValueError, "join: %s holds %zd bytes, %zd needed", what, view->len,
                     need);
        return 0;
    }
    return 1;
}

/* Read one template item; 0 with an exception set on a malformed one. */
static int read_item(PyObject *obj, item *it, Py_ssize_t n)
{
    memset(it, 0, sizeof *it);
    if (PyBytes_Check(obj)) {
        it->kind = K_CONST;
        it->bytes = PyBytes_AS_STRING(obj);
        it->len = PyBytes_GET_SIZE(obj);
        return 1;
    }
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) < 2) {
        PyErr_SetString(PyExc_TypeError, "join: a template item is bytes or a tuple (kind, ...)");
        return 0;
    }
    Py_ssize_t size = PyTuple_GET_SIZE(obj);
    long kind = PyLong_AsLong(PyTuple_GET_ITEM(obj, 0));
    if (kind == -1 && PyErr_Occurred()) return 0;
    it->kind = (int)kind;
    switch (kind) {
    case K_GRID: {
        if (size != 4) break;
        it->width = PyLong_AsSsize_t(PyTuple_GET_ITEM(obj, 2));
        if (it->width < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "join: negative width");
            return 0;
        }
        if (!read_buffer(PyTuple_GET_ITEM(obj, 1), it, "a grid column", it->width * n)) return 0;
        it->data = it->views[0].buf;
        if (!read_buffer(PyTuple_GET_ITEM(obj, 3), it, "a table", 256)) return 0;
        it->table = it->views[1].buf;
        it->digit_table = is_digit_table(it->table);
        return 1;
    }
    case K_COUNTER:
        if (size != 2) break;
        it->start = PyLong_AsLongLong(PyTuple_GET_ITEM(obj, 1));
        return !(it->start == -1 && PyErr_Occurred());
    case K_INTS: {
        if (size != 2) break;
        PyObject *fast = PySequence_Fast(PyTuple_GET_ITEM(obj, 1), "join: ints must be a sequence");
        if (!fast) return 0;
        if (PySequence_Fast_GET_SIZE(fast) != n) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "join: an ints column is not n long");
            return 0;
        }
        it->ints = PyMem_Malloc(sizeof(long long) * (size_t)(n ? n : 1));
        if (!it->ints) {
            Py_DECREF(fast);
            PyErr_NoMemory();
            return 0;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            it->ints[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
            if (it->ints[i] == -1 && PyErr_Occurred()) {
                Py_DECREF(fast);
                return 0;
            }
        }
        Py_DECREF(fast);
        return 1;
    }
    case K_CHOICE: {
        if (size != 3) break;
        if (!read_buffer(PyTuple_GET_ITEM(obj, 1), it, "an index column", n)) return 0;
        it->data = it->views[0].buf;
        PyObject *choices = PyTuple_GET_ITEM(obj, 2);
        if (!PyTuple_Check(choices)) {
            PyErr_SetString(PyExc_TypeError, "join: choices must be a tuple of bytes");
            return 0;
        }
        Py_ssize_t m = PyTuple_GET_SIZE(choices);
        for (Py_ssize_t j = 0; j < m; j++) {
            if (!PyBytes_Check(PyTuple_GET_ITEM(choices, j))) {
                PyErr_SetString(PyExc_TypeError, "join: choices must be a tuple of bytes");
                return 0;
            }
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            if (it->data[i] >= m) {
                PyErr_Format(PyExc_ValueError, "join: index %d has no choice (%zd choices)",
                             (int)it->data[i], m);
                return 0;
            }
        }
        it->choices = choices;
        return 1;
    }
    default:
        PyErr_Format(PyExc_ValueError, "join: unknown item kind %ld", kind);
        return 0;
    }
    PyErr_Format(PyExc_ValueError, "join: an item of kind %ld has the wrong length", kind);
    return 0;
}

static int ascii_bytes(const char *s, Py_ssize_t len)
{
    uint64_t high = 0;
    Py_ssize_t k = 0;
    for (; k + 8 <= len; k += 8) { /* eight bytes at a time: a top bit set in any */
        uint64_t w;
        memcpy(&w, s + k, 8);
        high |= w;
    }
    for (; k < len; k++) high |= (unsigned char)s[k];
    return !(high & 0x8080808080808080ULL);
}

/* Whether every byte an item can write is ASCII (a grid's whole table is looked at). */
static int ascii_item(const item *it)
{
    switch (it->kind) {
    case K_CONST:
        return ascii_bytes(it->bytes, it->len);
    case K_GRID:
        return ascii_bytes((const char *)it->table, 256);
    case K_CHOICE: {
        Py_ssize_t m = PyTuple_GET_SIZE(it->choices);
        for (Py_ssize_t j = 0; j < m; j++) {
            PyObject *c = PyTuple_GET_ITEM(it->choices, j);
            if (!ascii_bytes(PyBytes_AS_STRING(c), PyBytes_GET_SIZE(c))) return 0;
        }
        return 1;
    }
    default: /* decimal numbers */
        return 1;
    }
}

static PyObject *join_impl(PyObject *args, int text)
{
    Py_ssize_t n;
    PyObject *template;
    if (!PyArg_ParseTuple(args, text ? "nO!:join_text" : "nO!:join", &n, &PyTuple_Type,
                          &template))
        return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "join: n must be >= 0");
        return NULL;
    }
    Py_ssize_t m = PyTuple_GET_SIZE(template);
    item *items = PyMem_Calloc((size_t)(m ? m : 1), sizeof(item));
    if (!items) return PyErr_NoMemory();
    Py_ssize_t read = 0;
    PyObject *out = NULL;
    for (; read < m; read++) {
        if (!read_item(PyTuple_GET_ITEM(template, read), &items[read], n)) {
            read++;
            goto done;
        }
    }
    /* the length: constants and grids per record, numbers and choices summed */
    Py_ssize_t total = 0;
    for (Py_ssize_t j = 0; j < m; j++) {
        item *it = &items[j];
        Py_ssize_t add = 0;
        switch (it->kind) {
        case K_CONST:
            add = it->len * n;
            break;
        case K_GRID:
            add = it->width * n;
            break;
        case K_COUNTER:
            for (Py_ssize_t i = 0; i < n; i++) add += digits(it->start + i);
            break;
        case K_INTS:
            for (Py_ssize_t i = 0; i < n; i++) add += digits(it->ints[i]);
            break;
        case K_CHOICE:
            for (Py_ssize_t i = 0; i < n; i++)
                add += PyBytes_GET_SIZE(PyTuple_GET_ITEM(it->choices, it->data[i]));
            break;
        }
        if (add > PY_SSIZE_T_MAX - total) {
            PyErr_NoMemory();
            goto done;
        }
        total += add;
    }
    int ascii = text;
    for (Py_ssize_t j = 0; ascii && j < m; j++) ascii = ascii_item(&items[j]);
    char *p;
    if (ascii) { /* the text goes straight into a compact ASCII str: no decoding pass */
        out = PyUnicode_New(total, 127);
        if (!out) goto done;
        p = (char *)PyUnicode_1BYTE_DATA(out);
    } else {
        out = PyBytes_FromStringAndSize(NULL, total);
        if (!out) goto done;
        p = PyBytes_AS_STRING(out);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        for (Py_ssize_t j = 0; j < m; j++) {
            item *it = &items[j];
            switch (it->kind) {
            case K_CONST:
                memcpy(p, it->bytes, (size_t)it->len);
                p += it->len;
                break;
            case K_GRID:
                put_grid(p, it->data + i * it->width, it->width, it->table, it->digit_table);
                p += it->width;
                break;
            case K_COUNTER:
                p = put_decimal(p, it->start + i);
                break;
            case K_INTS:
                p = put_decimal(p, it->ints[i]);
                break;
            case K_CHOICE: {
                PyObject *c = PyTuple_GET_ITEM(it->choices, it->data[i]);
                memcpy(p, PyBytes_AS_STRING(c), (size_t)PyBytes_GET_SIZE(c));
                p += PyBytes_GET_SIZE(c);
                break;
            }
            }
        }
    }
    if (text && !ascii) {
        PyObject *decoded = PyUnicode_DecodeUTF8(PyBytes_AS_STRING(out), total, "strict");
        Py_SETREF(out, decoded);
    }
done:
    release(items, read);
    return out;
}

static PyObject *join(PyObject *self, PyObject *args) { return join_impl(args, 0); }

static PyObject *join_text(PyObject *self, PyObject *args) { return join_impl(args, 1); }

static PyMethodDef methods[] = {
    {"join", join, METH_VARARGS,
     "join(n, template) -> bytes\n\n"
     "n records laid out by one template (a tuple of items written in order for each\n"
     "record i): bytes (the same in every record); (0, data, width, table): width bytes of\n"
     "data from offset i*width mapped through a 256-byte table; (1, start): the decimal\n"
     "start + i; (2, ints): the decimal ints[i]; (3, index, choices): choices[index[i]].\n\n"
     "Raises ValueError or TypeError for a malformed template or columns too short."},
    {"join_text", join_text, METH_VARARGS,
     "join_text(n, template) -> str\n\n"
     "The text of join(n, template) as a str, written straight into an ASCII str when\n"
     "every piece is ASCII, else decoded as UTF-8.\n\n"
     "Raises ValueError or TypeError as join does; UnicodeDecodeError for text that is not\n"
     "UTF-8."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_columns",
    "Text of n records from one template of constant pieces and columns, in one pass.", -1,
    methods,
};

PyMODINIT_FUNC PyInit__columns(void) { return PyModule_Create(&module); }

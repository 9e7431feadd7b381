/* Reading a Sudoku grid out of a satisfied CaDiCaL solver of PySAT: backends.sat._satread.
 *
 *   bind(library, symbol) -> int      look up CaDiCaL's `int Solver::val(int)` in PySAT's
 *                                     already loaded extension; a slot number, or -1
 *   grid(slot, handle, size, cells)   the digit of every cell, or None
 *   grid(slot, handle, size, cells, givens)
 *                                     (digits, free, blocking) or None: also the literals
 *                                     of the cells without a given and their negations
 *
 * Why: PySAT's only model read (`<solver>_model`) builds a Python list of every variable
 * of the solver, up to a thousand integer objects on a 9x9 grid with its guard literals,
 * and decoding it in Python costs as much again: about 60 us against 5 us for these 729
 * calls of val() (tests/benchmarks/bench_pysat_overhead.py). A uniqueness check of a
 * puzzle with two solutions reads two models; that read was most of the backend's
 * overhead over a plain PySAT loop.
 *
 * How: PySAT's handle is a PyCapsule around the C++ `CaDiCaL<version>::Solver *`, and its
 * extension exports the solver's public member functions. A non-static member function
 * `int Solver::val(int)` is called, under the Itanium C++ ABI (Linux, macOS), as a
 * function whose first argument is `this`. That depends on how PySAT builds its
 * extension, so nothing here is trusted blindly: backends/sat/internals.py binds a symbol only for
 * the CaDiCaL versions whose `val` has that signature, and checks every binding once on a
 * small solver of its own against PySAT's model read before using it; anything else (no
 * dlopen, no symbol, a wrong answer) leaves the model read in charge.
 *
 * grid() must only be called while the solver is satisfied (right after a solve that
 * answered SAT): CaDiCaL aborts the process on val() in any other state. Variables are
 * var(cell, digit) = cell * size + digit; a cell with no true digit or with two makes the
 * answer None (rules that do not give every cell one digit are decoded the slow way).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#if defined(__unix__) || defined(__APPLE__)
#include <dlfcn.h>
#define HAVE_DLFCN 1
#endif

typedef int (*val_fn)(void *solver, int lit);

/* One slot per bound symbol (a few CaDiCaL versions at most); never unbound: the
 * library stays loaded for the life of the process (PySAT's extension is never
 * unloaded). */
#define MAX_SLOTS 8
static val_fn slots[MAX_SLOTS];
static int slot_count = 0;

static PyObject *py_bind(PyObject *self, PyObject *args)
{
    const char *library;
    const char *symbol;
    if (!PyArg_ParseTuple(args, "ss", &library, &symbol))
        return NULL;
#ifdef HAVE_DLFCN
    /* RTLD_NOLOAD: only a library Python has loaded already (PySAT's), never a new one */
    void *lib = dlopen(library, RTLD_LAZY | RTLD_NOLOAD);
    if (lib == NULL)
        return PyLong_FromLong(-1);
    void *fn = dlsym(lib, symbol);
    dlclose(lib); /* drops the reference NOLOAD took; Python's own keeps it loaded */
    if (fn == NULL)
        return PyLong_FromLong(-1);
    for (int i = 0; i < slot_count; i++)
        if (slots[i] == (val_fn)fn)
            return PyLong_FromLong(i);
    if (slot_count == MAX_SLOTS)
        return PyLong_FromLong(-1);
    slots[slot_count] = (val_fn)fn;
    return PyLong_FromLong(slot_count++);
#else
    (void)library;
    (void)symbol;
    return PyLong_FromLong(-1);
#endif
}

/* The cells' digits into `digits` (cells of them); 0 when a cell has no true digit or two. */
static int read_digits(val_fn val, void *solver, int size, int cells, int *digits)
{
    int var = 1;
    for (int cell = 0; cell < cells; cell++) {
        int digit = 0;
        for (int d = 1; d <= size; d++, var++) {
            if (val(solver, var) > 0) {
                if (digit)
                    return 0;
                digit = d;
            }
        }
        if (!digit)
            return 0;
        digits[cell] = digit;
    }
    return 1;
}

static PyObject *py_grid(PyObject *self, PyObject *args)
{
    int slot, size, cells;
    PyObject *handle;
    PyObject *givens = Py_None;
    if (!PyArg_ParseTuple(args, "iOii|O", &slot, &handle, &size, &cells, &givens))
        return NULL;
    if (slot < 0 || slot >= slot_count) {
        PyErr_SetString(PyExc_ValueError, "grid(): unbound slot");
        return NULL;
    }
    if (size < 1 || cells < 1 || size > 64 || cells > 64 * 64) {
        PyErr_SetString(PyExc_ValueError, "grid(): size or cells out of range");
        return NULL;
    }
    if (givens != Py_None && (!PyTuple_Check(givens) || PyTuple_GET_SIZE(givens) != cells)) {
        PyErr_SetString(PyExc_ValueError, "grid(): givens must be a tuple of one value a cell");
        return NULL;
    }
    void *solver = PyCapsule_GetPointer(handle, NULL);
    if (solver == NULL)
        return NULL;
    int digits[64 * 64];
    if (!read_digits(slots[slot], solver, size, cells, digits))
        Py_RETURN_NONE;
    PyObject *grid = PyTuple_New(cells);
    if (grid == NULL)
        return NULL;
    for (int cell = 0; cell < cells; cell++) {
        PyObject *item = PyLong_FromLong(digits[cell]); /* small ints: cached */
        if (item == NULL) {
            Py_DECREF(grid);
            return NULL;
        }
        PyTuple_SET_ITEM(grid, cell, item);
    }
    if (givens == Py_None)
        return grid;
    /* The literals of the cells that are not givens, and their negations (the blocking
     * clause of this grid): built here, they cost a tenth of the two Python lists. */
    PyObject *free = PyList_New(0);
    PyObject *blocking = PyList_New(0);
    if (free == NULL || blocking == NULL)
        goto fail;
    for (int cell = 0; cell < cells; cell++) {
        PyObject *given = PyTuple_GET_ITEM(givens, cell);
        int truth = PyObject_IsTrue(given);
        if (truth < 0)
            goto fail;
        if (truth)
            continue;
        long lit = (long)cell * size + digits[cell];
        PyObject *pos = PyLong_FromLong(lit);
        if (pos == NULL)
            goto fail;
        int bad = PyList_Append(free, pos);
        Py_DECREF(pos);
        PyObject *neg = bad ? NULL : PyLong_FromLong(-lit);
        if (neg == NULL)
            goto fail;
        bad = PyList_Append(blocking, neg);
        Py_DECREF(neg);
        if (bad)
            goto fail;
    }
    PyObject *out = PyTuple_Pack(3, grid, free, blocking);
    Py_DECREF(grid);
    Py_DECREF(free);
    Py_DECREF(blocking);
    return out;
fail:
    Py_DECREF(grid);
    Py_XDECREF(free);
    Py_XDECREF(blocking);
    return NULL;
}

static PyMethodDef methods[] = {
    {"bind", py_bind, METH_VARARGS,
     "bind(library, symbol) -> slot: CaDiCaL's Solver::val in an already loaded library, "
     "or -1."},
    {"grid", py_grid, METH_VARARGS,
     "grid(slot, handle, size, cells[, givens]) -> digits, or (digits, free, blocking) "
     "with givens; None when a cell has no true digit or two."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_satread",
    "Reads a Sudoku grid out of a satisfied CaDiCaL solver of PySAT (see _satread.c).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__satread(void) { return PyModule_Create(&module); }

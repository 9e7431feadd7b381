"""Type stub of the column interleaver (see sudoku_model/columns.c)."""

#: One template item: constant bytes, or (kind, ...) as columns.c documents.
Item = bytes | tuple[object, ...]

def join(n: int, template: tuple[Item, ...], /) -> bytes: ...
def join_text(n: int, template: tuple[Item, ...], /) -> str: ...

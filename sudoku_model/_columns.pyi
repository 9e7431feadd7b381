"""Type stub of the column interleaver (see sudoku_model/columns.c)."""

from typing import Union

from typing_extensions import Buffer

#: One template item: constant bytes, or (kind, ...) as columns.c documents.
Item = Union[bytes, tuple[object, ...]]

def join(n: int, template: tuple[Item, ...], /) -> bytes: ...

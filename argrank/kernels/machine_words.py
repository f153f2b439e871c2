"""Eight bytes at a time in compiled loops (numba): an unaligned little-endian load and a trailing-zero count,
LLVM's own operations through numba's extension API, and byte-wise tests in integer arithmetic, for scans that
test eight bytes of text at once.

numba's cache keys a compiled function on its own file alone, and these are compiled into their callers: after a
change here, delete the callers' cached code (the *.nbi and *.nbc files in argrank's __pycache__ folders)."""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

# Words are uint64: numba's int64 arithmetic is signed and may not overflow (LLVM treats an overflow as impossible,
# and a sum past 2^63 made a scan stop at its first word), while uint64 arithmetic wraps. Mixed with int64, numba
# makes uint64 a float: constants and shift counts are uint64 too.
HIGH, LOW7 = np.uint64(0x8080808080808080), np.uint64(0x7F7F7F7F7F7F7F7F)


def repeated(byte: int) -> np.uint64:
    """`byte` in each of a word's eight bytes."""
    return np.uint64(byte * 0x0101010101010101)


@njit(cache=True, nogil=True)
def zero_bytes(word):  # pragma: no cover
    """0x80 in each zero byte of `word`, 0 in the others: no byte's sum carries into the next, so a flag is never
    set by its neighbour (`word ^ repeated(b)` flags the bytes equal to b)."""
    return ~(((word & LOW7) + LOW7) | word) & HIGH


@intrinsic
def load_word(typingctx, array, index):  # pragma: no cover
    """The eight bytes of a uint8 array from `index` on as one uint64, the first byte lowest (x86 and ARM are
    little-endian); the caller keeps index + 8 within the array."""

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        pointer = builder.bitcast(builder.gep(data, [args[1]]), ir.IntType(64).as_pointer())
        return builder.load(pointer, align=1)

    return types.uint64(array, index), codegen


@intrinsic
def trailing_zeros(typingctx, word):  # pragma: no cover
    """The number of zero bits below the lowest set bit of a uint64 (64 for zero)."""

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i64, [i64, ir.IntType(1)]), "llvm.cttz.i64"
        )
        return builder.call(function, [args[0], ir.Constant(ir.IntType(1), 0)])

    return types.int64(word), codegen

"""Eight bytes at a time in compiled loops (numba): an unaligned little-endian load and a trailing-zero count,
LLVM's own operations through numba's extension API, for scans that test eight bytes of text at once."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def load_word(typingctx, array, index):  # pragma: no cover
    """The eight bytes of a uint8 array from `index` on as one int64, the first byte lowest (x86 and ARM are
    little-endian); the caller keeps index + 8 within the array."""

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        pointer = builder.bitcast(builder.gep(data, [args[1]]), ir.IntType(64).as_pointer())
        return builder.load(pointer, align=1)

    return types.int64(array, index), codegen


@intrinsic
def trailing_zeros(typingctx, word):  # pragma: no cover
    """The number of zero bits below the lowest set bit of an int64 (64 for zero)."""

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i64, [i64, ir.IntType(1)]), "llvm.cttz.i64"
        )
        return builder.call(function, [args[0], ir.Constant(ir.IntType(1), 0)])

    return types.int64(word), codegen

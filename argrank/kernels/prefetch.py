"""A prefetch for compiled loops (numba) whose random reads outgrow the cache: the accumulator's running scores,
the chunk memo's hash table. Asking for an address some iterations before it is read hides most of the wait for
memory; numba has no such call, so this is LLVM's prefetch intrinsic through numba's extension API."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

AHEAD = 32  # iterations between an address's prefetch and its read


@intrinsic
def prefetch(typingctx, array, index):  # pragma: no cover
    """Bring the flat element array.flat[index] into the cache, for a write (it never faults, whatever the index)."""

    def codegen(context, builder, signature, args):
        kind = signature.args[0]
        data = context.make_array(kind)(context, builder, args[0]).data
        pointer = builder.gep(data, [args[1]])
        byte = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte, i32, i32, i32]), "llvm.prefetch.p0i8"
        )
        builder.call(function, [builder.bitcast(pointer, byte), i32(1), i32(3), i32(1)])  # write, all levels, data
        return context.get_dummy_value()

    return types.void(array, index), codegen

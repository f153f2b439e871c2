"""The graph's stages as Luigi tasks.

Every process that runs them uses the system allocator for Arrow: Arrow's default (mimalloc) keeps the memory
it frees for its own reuse, out of reach of numpy and scipy, which allocate with malloc, so a stage that hands
large arrays from one to the other (the index build: token codes to a sparse matrix) peaked about 40% higher
at args.me size (1.31 GB instead of 0.93 GB for 37 M tokens).
"""

import pyarrow as pa

pa.set_memory_pool(pa.system_memory_pool())

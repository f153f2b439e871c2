"""The sparse index: a term × document matrix of frequencies with the statistics ranking models need, built
from token lists, stored as memory-mapped arrays, and split into row-range shards whose statistics merge into
the whole collection's."""

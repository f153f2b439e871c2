"""argrank: the library behind the pipeline. Plain functions, no Luigi, so every stage can be tested and reused alone."""

"""The graph's stages as Luigi tasks, thin: they name parameters and paths and call the library (argrank/)."""

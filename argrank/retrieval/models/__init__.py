"""The ranking models, one module each. A module here defines `MODEL`, a `registry.RankingModel` naming the
model, its scorer class, its parameters with their defaults and a description; the registry finds every module
of this package, so adding a model is adding a module."""

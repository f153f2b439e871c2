"""Argument quality: reading Webis-ArgQuality-20-format data, the features and model that predict a premise's
quality (and whether it is an argument at all), the re-ranking that folds the prediction into a run, and the
topic-held-out benchmark that measures both on the real testbed."""

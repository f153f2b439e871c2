"""An experiment's HTML report: per track the comparison with the baseline, per-topic difference plots, the
stance confusion matrices, the chosen images, the perspective scenarios and the nightly trend; one folder,
self-contained (inline CSS, SVG plots and thumbnails beside it), readable offline."""

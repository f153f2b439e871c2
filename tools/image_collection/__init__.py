"""The parts of the embedded image collection's generator, tools/make_image_collection.py: the spec files' reader,
the drawing helpers and kinds of image (charts, scenes), and the web pages around the images (a tiny DOM, layouts)."""

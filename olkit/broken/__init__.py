"""Deliberately broken learners and constants: the book's negative controls.

A proof check earns its place only if it can fail.  Next to each theorem's proof table the book runs
the same checks on a variant of the algorithm with one thing wrong -- a rate three times too large,
a Perceptron that also updates on correct rounds, Winnow promoting by 3, OGD without its projection,
a forecaster that peeks at the current outcome -- inside :func:`olkit.negative_control`, which fails
the notebook when no check catches the variant.  The unit tests (``tests/test_broken_*.py``) use the
same variants.

One module per part of olkit (``olkit.broken.experts``, ``olkit.broken.linear``, ...); each variant's
docstring says what is wrong with it.  Nothing here is imported by ``import olkit``: import the module
you need, e.g. ``from olkit.broken import experts as broken``.
"""

"""Build tools of the book (not part of olkit): browser checks, the student edition, the PDF."""

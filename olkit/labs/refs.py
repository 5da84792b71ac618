"""The book's numbered results that the labs' feedback cites, with the page that states each.

A lab's feedback says which step of which numbered result failed ("Theorem 1.3, step 0'") and links
to it in the published book, so that a student reads the statement and the proof the check ran.  The
numbers are those of the built book (`_ext/chapter_numbers.py` numbers blocks within their chapter);
``tests/test_labs.py`` compares every entry here with the built book, so a renumbering fails CI until
this table follows it (``python3 -m tools.labs --refs`` prints the table of the current build).
"""
from __future__ import annotations

__all__ = ["BOOK_URL", "RESULTS", "cite", "url"]

#: The published book (GitHub Pages of the repository named in _config.yml).
BOOK_URL = "https://online-learning-numerically.github.io/book/"

#: label -> (the book's caption, the page that states it, what it is in a few words)
RESULTS: dict[str, tuple[str, str, str]] = {
    "thm-halving": ("Theorem 1.3", "chapters/ch1/1_2_consistent_halving", "Halving's mistake bound"),
    "alg-halving": ("Algorithm 1.3", "chapters/ch1/1_2_consistent_halving", "Halving"),
    "ldim-def-ldim": ("Definition 2.2", "chapters/ch2/2_1_littlestone_dimension", "the Littlestone dimension"),
    "ldim-lem-recursion": ("Lemma 2.1", "chapters/ch2/2_1_littlestone_dimension", "the recursion of Ldim"),
    "ldim-alg-soa": ("Algorithm 2.1", "chapters/ch2/2_2_soa", "the Standard Optimal Algorithm"),
    "ldim-lem-soa": ("Lemma 2.4", "chapters/ch2/2_2_soa", "SOA's mistake bound"),
    "experts-alg-wm": ("Algorithm 3.1", "chapters/ch3/3_1_weighted_majority", "Weighted Majority"),
    "experts-thm-wm": ("Theorem 3.2", "chapters/ch3/3_1_weighted_majority", "Weighted Majority's bound"),
    "experts-alg-ewa": ("Algorithm 3.3", "chapters/ch3/3_2_exponential_weights", "Hedge"),
    "experts-thm-ewa": ("Theorem 3.4", "chapters/ch3/3_2_exponential_weights", "Hedge's regret bound"),
    "experts-thm-doubling": ("Theorem 3.6", "chapters/ch3/3_2_exponential_weights", "the doubling trick"),
    "experts-alg-soa-experts": ("Algorithm 3.4", "chapters/ch3/3_3_lower_bounds_minimax", "SOA's experts"),
    "experts-lem-mimic": ("Lemma 3.1", "chapters/ch3/3_3_lower_bounds_minimax", "every hypothesis has its expert"),
    "experts-thm-agnostic": ("Theorem 3.10", "chapters/ch3/3_3_lower_bounds_minimax",
                             "agnostic online learning with SOA's experts"),
    "alg-perceptron": ("Algorithm 4.1", "chapters/ch4/4_1_perceptron", "the Perceptron"),
    "thm-perceptron-margin": ("Theorem 4.1", "chapters/ch4/4_1_perceptron", "the Perceptron's margin bound"),
    "thm-perceptron-nonseparable": ("Theorem 4.2", "chapters/ch4/4_2_nonseparable_kernels",
                                    "the Perceptron on non-separable data"),
    "alg-winnow": ("Algorithm 4.2", "chapters/ch4/4_3_winnow", "Winnow"),
    "thm-winnow": ("Theorem 4.4", "chapters/ch4/4_3_winnow", "Winnow's bound"),
    "alg-normalized-winnow": ("Algorithm 4.3", "chapters/ch4/4_3_winnow", "Winnow(eta)"),
    "thm-normalized-winnow": ("Theorem 4.5", "chapters/ch4/4_3_winnow", "the bound of Winnow(eta)"),
    "alg-ogd": ("Algorithm 5.1", "chapters/ch5/5_1_online_gradient_descent", "online gradient descent"),
    "thm-ogd": ("Theorem 5.1", "chapters/ch5/5_1_online_gradient_descent", "OGD's regret bound"),
    "thm-doubling": ("Theorem 5.3", "chapters/ch5/5_2_horizon_curvature_simplex", "the doubling trick for OGD"),
    "thm-eg": ("Theorem 5.5", "chapters/ch5/5_2_horizon_curvature_simplex", "exponentiated gradient"),
    "thm-o2b-expectation": ("Theorem 6.1", "chapters/ch6/6_1_online_to_batch", "online to batch"),
    "thm-o2b-713": ("Theorem 6.3", "chapters/ch6/6_2_high_probability", "online to batch with high probability"),
    "lem-o2b-azuma": ("Lemma 6.1", "chapters/ch6/6_2_high_probability",
                      "the average risk of an online learner with high probability"),
}


def cite(label: str, step: str | None = None) -> str:
    """``"Theorem 1.3, step 0'"``: the book's caption of ``label``, and the step if given."""
    caption = RESULTS[label][0]
    return f"{caption}, step {step}" if step is not None else caption


def url(label: str) -> str:
    """The address of ``label`` in the published book."""
    return f"{BOOK_URL}{RESULTS[label][1]}.html#{label}"

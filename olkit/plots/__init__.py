"""Figures, interactive figures and small displays shared by the chapters, one module per family.

Every figure cell of the book ends with ``plt.show()``; these helpers only draw on the axes they are
given, so a notebook can combine them.  Interactive figures (ipywidgets) need a live kernel; each has
a static fallback in the book.  The algorithm modules hold the algorithms and the quantities their
proofs need; everything that draws lives here, above the learners (a learner never imports a
figure).  Every name is importable from ``olkit.plots``:

* :mod:`olkit.plots.common`: the mistakes plot, the table display, the slider figure;
* :mod:`olkit.plots.animation`: a figure redrawn frame by frame, played in the static page (no kernel);
* :mod:`olkit.plots.ellipses` (Chapter 1), :mod:`olkit.plots.trees` (Chapter 2),
  :mod:`olkit.plots.regret` (Chapter 3), :mod:`olkit.plots.perceptron` (Chapter 4),
  :mod:`olkit.plots.oco` (Chapter 5).
"""
from .animation import Animation, animate
from .common import Table, plot_mistakes, slider_figure
from .ellipses import draw_ellipse, draw_step, draw_update
from .oco import draw_iterates, draw_set, step_size_widget
from .perceptron import draw_perceptron_update
from .regret import eta_widget, plot_regret
from .trees import draw_tree, draw_tree_game, tree_game_widget

__all__ = [
    "Animation",
    "animate",
    "Table",
    "draw_ellipse",
    "draw_iterates",
    "draw_perceptron_update",
    "draw_set",
    "draw_step",
    "draw_tree",
    "draw_tree_game",
    "draw_update",
    "eta_widget",
    "plot_mistakes",
    "plot_regret",
    "slider_figure",
    "step_size_widget",
    "tree_game_widget",
]

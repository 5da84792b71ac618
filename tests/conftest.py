import os
import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

# Property tests explore new random examples on every local run; in CI (CI=true) they draw the same
# examples every time (derandomize), so that a submission's result does not depend on the draw.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

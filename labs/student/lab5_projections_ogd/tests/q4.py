from otter.test_files import test_case

OK_FORMAT = False

name = "q4"
points = 1

@test_case(points=None, hidden=False)
def test_q4_public(ogd_step):
    from olkit import labs
    labs.check_ogd_step(ogd_step, 'ball', 'public')


from otter.test_files import test_case

OK_FORMAT = False

name = "q3"
points = 2

@test_case(points=None, hidden=False)
def test_q3_public(halving_run):
    from olkit import labs
    labs.check_halving_run(halving_run, 'public')


from otter.test_files import test_case

OK_FORMAT = False

name = "q1"
points = 1

@test_case(points=None, hidden=False)
def test_q1_public(halving_hypothesis):
    from olkit import labs
    labs.check_halving_hypothesis(halving_hypothesis, 'public')


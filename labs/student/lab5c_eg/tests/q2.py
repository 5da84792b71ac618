from otter.test_files import test_case

OK_FORMAT = False

name = "q2"
points = 2

@test_case(points=None, hidden=False)
def test_q2_public(eg_regret):
    from olkit import labs
    labs.check_eg_regret(eg_regret, 'public')


from otter.test_files import test_case

OK_FORMAT = False

name = "q2"
points = 2

@test_case(points=None, hidden=False)
def test_q2_public(hedge_regret):
    from olkit import labs
    labs.check_hedge_regret(hedge_regret, 'public')


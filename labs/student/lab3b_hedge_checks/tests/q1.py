from otter.test_files import test_case

OK_FORMAT = False

name = "q1"
points = 4

@test_case(points=None, hidden=False)
def test_q1_public(hedge_round_checks):
    from olkit import labs
    labs.check_hedge_round_checks(hedge_round_checks, 'unnormalized', ('public', 'ties'))


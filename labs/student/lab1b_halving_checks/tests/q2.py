from otter.test_files import test_case

OK_FORMAT = False

name = "q2"
points = 3

@test_case(points=None, hidden=False)
def test_q2_public(halving_bound_checks):
    from olkit import labs
    labs.check_halving_bound_checks(halving_bound_checks, 'minority', ('public',))


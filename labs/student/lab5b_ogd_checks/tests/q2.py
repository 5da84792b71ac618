from otter.test_files import test_case

OK_FORMAT = False

name = "q2"
points = 3

@test_case(points=None, hidden=False)
def test_q2_public(ogd_bound_checks):
    from olkit import labs
    labs.check_ogd_bound_checks(ogd_bound_checks, 'nonconvex', ('public',))


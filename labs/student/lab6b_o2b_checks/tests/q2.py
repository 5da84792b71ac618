from otter.test_files import test_case

OK_FORMAT = False

name = "q2"
points = 3

@test_case(points=None, hidden=False)
def test_q2_public(o2b_bound_checks):
    from olkit import labs
    labs.check_o2b_bound_checks(o2b_bound_checks, 'consistent', ('public', 'two_point'))


from otter.test_files import test_case

OK_FORMAT = False

name = "q1"
points = 3

@test_case(points=None, hidden=False)
def test_q1_public(o2b_identity_checks):
    from olkit import labs
    labs.check_o2b_identity_checks(o2b_identity_checks, 'risk_ignores_p', ('public', 'two_point'))


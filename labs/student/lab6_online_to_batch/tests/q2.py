from otter.test_files import test_case

OK_FORMAT = False

name = "q2"
points = 1

@test_case(points=None, hidden=False)
def test_q2_public(exact_risk):
    from olkit import labs
    labs.check_exact_risk(exact_risk, 'public')


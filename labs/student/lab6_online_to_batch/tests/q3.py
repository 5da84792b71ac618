from otter.test_files import test_case

OK_FORMAT = False

name = "q3"
points = 2

@test_case(points=None, hidden=False)
def test_q3_public(random_iterate_risk):
    from olkit import labs
    labs.check_random_iterate_risk(random_iterate_risk, 'public')


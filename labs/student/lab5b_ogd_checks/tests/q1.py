from otter.test_files import test_case

OK_FORMAT = False

name = "q1"
points = 4

@test_case(points=None, hidden=False)
def test_q1_public(ogd_step_checks):
    from olkit import labs
    labs.check_ogd_step_checks(ogd_step_checks, 'no_projection', ('public', 'inside'))


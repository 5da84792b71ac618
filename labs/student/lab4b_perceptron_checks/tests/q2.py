from otter.test_files import test_case

OK_FORMAT = False

name = "q2"
points = 4

@test_case(points=None, hidden=False)
def test_q2_public(perceptron_bound_checks):
    from olkit import labs
    labs.check_perceptron_bound_checks(perceptron_bound_checks, 'every_round', ('public', 'ties'))


from otter.test_files import test_case

OK_FORMAT = False

name = "q1"
points = 4

@test_case(points=None, hidden=False)
def test_q1_public(perceptron_rule_checks):
    from olkit import labs
    labs.check_perceptron_rule_checks(perceptron_rule_checks, 'every_round', ('public', 'ties'))


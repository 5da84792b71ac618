from otter.test_files import test_case

OK_FORMAT = False

name = "q1"
points = 2

@test_case(points=None, hidden=False)
def test_q1_public(clopper_pearson):
    from olkit import labs
    labs.check_clopper_pearson(clopper_pearson, 'public')


from otter.test_files import test_case

OK_FORMAT = False

name = "q1"
points = 3

@test_case(points=None, hidden=False)
def test_q1_public(eg_update):
    from olkit import labs
    labs.check_eg_update(eg_update, 'public')


from otter.test_files import test_case

OK_FORMAT = False

name = "q1"
points = 1

@test_case(points=None, hidden=False)
def test_q1_public(project_ball):
    from olkit import labs
    labs.check_projection(project_ball, 'ball', 'public')


from otter.test_files import test_case

OK_FORMAT = False

name = "q3"
points = 2

@test_case(points=None, hidden=False)
def test_q3_public(project_simplex):
    from olkit import labs
    labs.check_projection(project_simplex, 'simplex', 'public')


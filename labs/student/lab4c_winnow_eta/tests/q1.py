from otter.test_files import test_case

OK_FORMAT = False

name = "q1"
points = 3

@test_case(points=None, hidden=False)
def test_q1_public(winnow_eta_predict):
    from olkit import labs
    labs.check_winnow_eta_predict(winnow_eta_predict, 'public')


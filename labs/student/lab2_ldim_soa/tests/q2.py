from otter.test_files import test_case

OK_FORMAT = False

name = "q2"
points = 2

@test_case(points=None, hidden=False)
def test_q2_public(soa_predict):
    from olkit import labs
    labs.check_soa_predict(soa_predict, 'public')


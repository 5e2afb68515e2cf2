"""pytest configuration of the Python module's tests."""


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a GPU (skipped, with the "
                                       "reason, where there is none)")

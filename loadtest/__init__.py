"""Load tests: the locust user (``locustfile.py``) and ``make loadtest`` (``run.py``)."""

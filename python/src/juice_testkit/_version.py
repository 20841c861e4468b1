"""The package's version: the ``juice`` binary it runs must print the same (``juice --version``)."""

__version__ = "0.1.0"

"""The package's own tests run the real juice binary (the wheel's, or $JUICE_BIN): nothing is mocked."""

pytest_plugins = ["pytester"]

"""The `pi` command line."""

"""Subcommands of the CLI; each module defines NAME, HELP, ORDER, add_arguments(parser) and run(args)."""

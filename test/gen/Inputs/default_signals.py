"""Runs a command with SIGINT and SIGTERM at their default action: a shell that lit starts may
ignore SIGINT, and an ignored signal is inherited (and rightly respected by lockwright)."""
import os
import signal
import sys

signal.signal(signal.SIGINT, signal.SIG_DFL)
signal.signal(signal.SIGTERM, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])

#!/usr/bin/env python3
"""Runs a command and prints its peak resident memory (the largest RSS of the process and its
waited-for children, from wait4's rusage) on stderr as "peak RSS: N MiB", then exits with the
command's status. Used by scripts/measure-memory.sh."""
import os
import sys

if len(sys.argv) < 2:
    sys.exit("usage: peak-rss.py COMMAND [ARGS...]")
pid = os.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[1], sys.argv[1:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
print(f"peak RSS: {usage.ru_maxrss / 1024:.0f} MiB", file=sys.stderr)
sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))

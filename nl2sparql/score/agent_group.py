"""Run one agent command as the leader of its own process group, so that the agent and all it starts end together.

``nl2sparql-gen ask`` runs each command agent as ``python -I -S agent_group.py FD ARGV…`` in a
new session (see :class:`~nl2sparql.score.agents.CommandAgent`); this script is run as a file,
with the standard library only, so it starts in milliseconds. It forks the agent into its group,
passes its exit status on, and ends every process still in the group once the agent has exited
(an agent's leftover children do not outlive its question). ``ask`` ends a question that runs
past ``--timeout`` by killing the group. File descriptor FD is the read end of a pipe whose
write end only ``ask`` holds: when ``ask`` ends in any way, SIGKILL included, the pipe reads end
of file and this script kills the group at once.
"""

import os
import signal
import sys
import threading


def _others_in_group() -> list[int]:
    """The live processes of this process group other than this one (from ``/proc``)."""
    me, group, found = os.getpid(), os.getpgrp(), []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != b"Z":
            found.append(int(name))
    return found


def _end_group() -> None:
    os.killpg(os.getpgrp(), signal.SIGKILL)  # this script included


def _watch(lifeline: int) -> None:
    try:
        while os.read(lifeline, 1):
            pass
    except OSError:
        pass
    _end_group()  # ``ask`` is gone


def main(argv: list[str]) -> None:
    lifeline, command = int(argv[0]), argv[1:]
    pid = os.fork()
    if pid == 0:
        os.close(lifeline)
        try:
            os.execvp(command[0], command)
        except OSError as exc:
            sys.stderr.write(f"cannot run the agent: {exc.strerror}\n")
            os._exit(127)
    threading.Thread(target=_watch, args=(lifeline,), daemon=True).start()
    signal.signal(signal.SIGTERM, lambda signum, frame: _end_group())
    _, status = os.waitpid(pid, 0)
    for other in _others_in_group():
        try:
            os.kill(other, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if os.WIFSIGNALED(status):
        signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(status))
    os._exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main(sys.argv[1:])

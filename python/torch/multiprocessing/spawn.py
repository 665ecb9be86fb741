"""spawn and start_processes: run fn(i, *args) in nprocs processes and report the first failure.

A child that raises sends its traceback text to the parent through its own error queue and
exits with code 1; ProcessContext.join raises ProcessRaisedException carrying that traceback,
after terminating the other children. A child that dies without raising (os._exit, a signal) is
reported by its exit code or signal as ProcessExitedException. Each child asks the kernel to
send it SIGINT when its parent dies, so no child outlives a parent that was killed.
"""

import ctypes
import multiprocessing
import multiprocessing.connection
import signal
import sys
import traceback
import warnings

_PR_SET_PDEATHSIG = 1


class ProcessException(Exception):
    __slots__ = ["error_index", "pid"]

    def __init__(self, msg, error_index, pid):
        super().__init__(msg)
        self.msg = msg
        self.error_index = error_index
        self.pid = pid

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid)


class ProcessRaisedException(ProcessException):
    """A process failed because its code raised an exception."""


class ProcessExitedException(ProcessException):
    """A process exited with a nonzero code or was killed by a signal."""

    __slots__ = ["exit_code", "signal_name"]

    def __init__(self, msg, error_index, error_pid, exit_code, signal_name=None):
        super().__init__(msg, error_index, error_pid)
        self.exit_code = exit_code
        self.signal_name = signal_name

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid, self.exit_code, self.signal_name)


def _set_parent_death_signal(sig):
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(sig))
    except (OSError, AttributeError):  # not Linux: the child may outlive a killed parent
        pass


def _wrap(fn, i, args, error_queue):
    _set_parent_death_signal(signal.SIGINT)
    try:
        fn(i, *args)
    except KeyboardInterrupt:
        pass  # the parent was killed, or the user pressed Ctrl-C: the parent reports it
    except Exception:
        error_queue.put(traceback.format_exc())
        sys.exit(1)


class ProcessContext:
    """The processes that start_processes started, and a join that reports their failures."""

    def __init__(self, processes, error_queues):
        self.error_queues = error_queues
        self.processes = processes
        self.sentinels = {process.sentinel: index for index, process in enumerate(processes)}

    def pids(self):
        return [int(process.pid) for process in self.processes]

    def join(self, timeout=None):
        """Waits up to timeout seconds (None: until one exits) for the processes. True once all
        have exited successfully, False while some still run; raises ProcessRaisedException or
        ProcessExitedException when one failed, after terminating the others."""
        if not self.sentinels:
            return True
        ready = multiprocessing.connection.wait(list(self.sentinels), timeout=timeout)
        error_index = None
        for sentinel in ready:
            index = self.sentinels.pop(sentinel)
            process = self.processes[index]
            process.join()
            if process.exitcode != 0:
                error_index = index
                break
        if error_index is None:
            return not self.sentinels
        for process in self.processes:
            if process.is_alive():
                process.terminate()
            process.join()
        failed = self.processes[error_index]
        if self.error_queues[error_index].empty():
            exitcode = failed.exitcode
            if exitcode < 0:
                name = signal.Signals(-exitcode).name
                raise ProcessExitedException(
                    "process %d terminated with signal %s" % (error_index, name),
                    error_index=error_index,
                    error_pid=failed.pid,
                    exit_code=exitcode,
                    signal_name=name,
                )
            raise ProcessExitedException(
                "process %d terminated with exit code %d" % (error_index, exitcode),
                error_index=error_index,
                error_pid=failed.pid,
                exit_code=exitcode,
            )
        original_trace = self.error_queues[error_index].get()
        msg = "\n\n-- Process %d terminated with the following error:\n" % error_index
        msg += original_trace
        raise ProcessRaisedException(msg, error_index, failed.pid)


class SpawnContext(ProcessContext):
    """The old name of ProcessContext."""

    def __init__(self, processes, error_queues):
        warnings.warn("SpawnContext is renamed to ProcessContext since 1.4 release.")
        super().__init__(processes, error_queues)


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """Runs fn(i, *args) for i in range(nprocs), each in a process started by start_method.
    join=True: waits for all and raises if one failed; else returns their ProcessContext."""
    context = multiprocessing.get_context(start_method)
    error_queues = []
    processes = []
    for i in range(nprocs):
        error_queue = context.SimpleQueue()
        process = context.Process(target=_wrap, args=(fn, i, args, error_queue), daemon=daemon)
        process.start()
        error_queues.append(error_queue)
        processes.append(process)
    process_context = ProcessContext(processes, error_queues)
    if not join:
        return process_context
    while not process_context.join():
        pass
    return None


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method="spawn"):
    """start_processes with the spawn start method: fn must be picklable (defined at the top
    level of a module), and so must args; tensors among them arrive as shared memory."""
    if start_method != "spawn":
        warnings.warn(
            "This method only supports start_method=spawn (got: %s).\n"
            "To use a different start_method use:\n\t\t torch.multiprocessing.start_processes(...)" % start_method
        )
    return start_processes(fn, args, nprocs, join, daemon, start_method="spawn")

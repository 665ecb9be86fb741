"""torch.futures (PyTorch 1.13): Future, a result that arrives later (from another thread, an
RPC, torch.jit.fork), with callbacks chained on it; collect_all and wait_all over several.
Thread-safe: wait() blocks until another thread sets the result or an exception."""

import threading

__all__ = ["Future", "collect_all", "wait_all"]


class Future:
    """A value (or an exception) set once, by set_result or set_exception; wait() returns it
    (raises it) once set, then() chains a callback's result into a new Future."""

    def __init__(self, *, devices=None):
        self._done = False
        self._result = None
        self._exception = None
        self._callbacks = []
        self._condition = threading.Condition()

    def done(self):
        return self._done

    def wait(self):
        with self._condition:
            while not self._done:
                self._condition.wait()
        if self._exception is not None:
            raise self._exception
        return self._result

    def value(self):
        """The result of a completed Future (raising its exception): no waiting."""
        if self._exception is not None:
            raise self._exception
        return self._result

    def _complete(self, result, exception):
        with self._condition:
            if self._done:
                raise RuntimeError(
                    "Attempting to mark a completed Future as complete again. Note that a Future can only be "
                    "marked completed once."
                )
            self._result, self._exception, self._done = result, exception, True
            callbacks, self._callbacks = self._callbacks, []
            self._condition.notify_all()
        for callback in callbacks:
            callback(self)

    def set_result(self, result):
        self._complete(result, None)

    def set_exception(self, result):
        if not isinstance(result, Exception):
            raise AssertionError(f"{result} is of type {type(result)}, not an Exception.")
        self._complete(None, result)

    def add_done_callback(self, callback):
        """callback(self) once this completes (now, if it has)."""
        with self._condition:
            if not self._done:
                self._callbacks.append(callback)
                return
        callback(self)

    def then(self, callback):
        """A Future of callback(self), run when this completes; an exception in the callback
        completes it with a RuntimeError."""
        result = Future()

        def run(fut):
            try:
                value = callback(fut)
            except Exception as exc:  # noqa: BLE001  (reported through the chained Future)
                result.set_exception(
                    RuntimeError(
                        "Got the following error when running the callback: %s: %s" % (type(exc).__name__, exc)
                    )
                )
                return
            result.set_result(value)

        self.add_done_callback(run)
        return result


def collect_all(futures):
    """A Future of the list of futures, completed when all of them are."""
    futures = list(futures)
    result = Future()
    if not futures:
        result.set_result([])
        return result
    remaining = [len(futures)]
    lock = threading.Lock()

    def one_done(_):
        with lock:
            remaining[0] -= 1
            last = remaining[0] == 0
        if last:
            result.set_result(futures)

    for fut in futures:
        fut.add_done_callback(one_done)
    return result


def wait_all(futures):
    """The futures' values, waiting for each (raising the first exception met)."""
    return [fut.wait() for fut in collect_all(futures).wait()]

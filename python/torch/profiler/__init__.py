"""torch.profiler: PyTorch 1.8+'s profiler interface over torch.autograd.profiler's recording
(Note [Recording at the API] there): profile with activities, a schedule of wait/warmup/active
steps and on_trace_ready, record_function, tensorboard_trace_handler (Chrome traces)."""

import enum
import os
import socket
import time
import warnings

from torch.autograd import profiler as _autograd_profiler
from torch.autograd.profiler import ProfilerActivity, record_function

__all__ = [
    "profile",
    "record_function",
    "ProfilerActivity",
    "ProfilerAction",
    "schedule",
    "tensorboard_trace_handler",
    "supported_activities",
]


def supported_activities():
    return {ProfilerActivity.CPU}


class ProfilerAction(enum.Enum):
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def schedule(*, wait, warmup, active, repeat=0, skip_first=0):
    """step number -> ProfilerAction: skip_first steps, then cycles of wait, warmup and active
    steps (repeat of them, 0: forever); the last active step of a cycle saves."""
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise ValueError("schedule: wait, warmup, repeat, skip_first must be >= 0 and active > 0")

    def action(step):
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        cycle = wait + warmup + active
        if repeat > 0 and step // cycle >= repeat:
            return ProfilerAction.NONE
        position = step % cycle
        if position < wait:
            return ProfilerAction.NONE
        if position < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if position < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    return action


def _always_record(step):
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False):
    """on_trace_ready that writes each trace as <worker>.<time>.pt.trace.json into dir_name."""

    def handler(prof):
        os.makedirs(dir_name, exist_ok=True)
        worker = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        path = os.path.join(dir_name, f"{worker}.{int(time.time() * 1000)}.pt.trace.json")
        prof.export_chrome_trace(path)
        if use_gzip:
            import gzip
            import shutil

            with open(path, "rb") as src, gzip.open(path + ".gz", "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.remove(path)

    return handler


class profile:
    """profile(activities=None, schedule=None, on_trace_ready=None, record_shapes=False, ...):
    records CPU ops; with a schedule, call step() after each training step."""

    def __init__(
        self,
        *,
        activities=None,
        schedule=None,
        on_trace_ready=None,
        record_shapes=False,
        profile_memory=False,
        with_stack=False,
        with_flops=False,
        with_modules=False,
        experimental_config=None,
        use_cuda=None,
    ):
        activities = set(activities) if activities else supported_activities()
        if ProfilerActivity.CUDA in activities or use_cuda:
            warnings.warn("torch.profiler: CUDA activity is not recorded: this build has no CUDA tensors")
        self.schedule = schedule or _always_record
        self.on_trace_ready = on_trace_ready
        self.record_shapes = record_shapes
        self.step_num = 0
        self._current = None
        self._last = None

    def _start_recording(self):
        if self._current is None:
            self._current = _autograd_profiler.profile(record_shapes=self.record_shapes)
            self._current.__enter__()

    def _stop_recording(self):
        if self._current is not None:
            self._current.__exit__(None, None, None)
            self._last, self._current = self._current, None

    def _apply(self, action, finishing=False):
        if action in (ProfilerAction.WARMUP, ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE):
            self._start_recording()
        if action == ProfilerAction.NONE or finishing:
            self._stop_recording()

    def start(self):
        self._apply(self.schedule(self.step_num))

    def stop(self):
        saving = self._current is not None
        self._stop_recording()
        if saving and self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def step(self):
        previous = self.schedule(self.step_num)
        self.step_num += 1
        current = self.schedule(self.step_num)
        if previous == ProfilerAction.RECORD_AND_SAVE:
            self._stop_recording()
            if self.on_trace_ready is not None:
                self.on_trace_ready(self)
        elif previous == ProfilerAction.WARMUP and current != ProfilerAction.WARMUP:
            # warm-up steps are run under the profiler and then dropped
            self._stop_recording()
            self._last = None
        self._apply(current)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def _result(self):
        if self._last is None:
            raise RuntimeError("torch.profiler.profile: no steps were recorded")
        return self._last

    @property
    def profiler(self):
        return self._result()

    def events(self):
        return self._result().function_events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        return self._result().key_averages(group_by_input_shape, group_by_stack_n)

    def export_chrome_trace(self, path):
        self._result().export_chrome_trace(path)

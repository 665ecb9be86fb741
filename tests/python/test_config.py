"""torch.__config__: what it reports is checked against the libraries and the processor asked
directly (ctypes calls into the same OpenBLAS and oneDNN, /proc/cpuinfo), and OpenBLAS's core
choice (Note [A BLAS core that knows the processor]) in fresh processes."""

import ctypes
import os
import subprocess
import sys

import torch


def cpu_flags():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    raise AssertionError("no flags line in /proc/cpuinfo")


def openblas_core():
    openblas = ctypes.CDLL("libopenblas.so.0")
    openblas.openblas_get_corename.restype = ctypes.c_char_p
    return openblas.openblas_get_corename().decode()


def test_show_names_the_libraries_in_use():
    text = torch.__config__.show()
    assert f"core in use: {openblas_core()}" in text

    class Version(ctypes.Structure):
        _fields_ = [
            ("major", ctypes.c_int),
            ("minor", ctypes.c_int),
            ("patch", ctypes.c_int),
            ("hash", ctypes.c_char_p),
        ]

    dnnl = ctypes.CDLL("libdnnl.so.2")
    dnnl.dnnl_version.restype = ctypes.POINTER(Version)
    v = dnnl.dnnl_version().contents
    assert f"oneDNN v{v.major}.{v.minor}.{v.patch}" in text

    flags = cpu_flags()
    if {"avx512f", "avx2", "fma"} <= flags:
        isa = "AVX512"
    elif {"avx2", "fma"} <= flags:
        isa = "AVX2"
    else:
        isa = "DEFAULT"
    assert f"CPU capability usage: {isa}\n" in text
    assert ("CUDA: no GPU available" in text) == (not torch.cuda.is_available())


def test_parallel_info_follows_set_num_threads():
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        info = torch.__config__.parallel_info()
        assert "at::get_num_threads() : 1\n" in info
        assert "omp_get_max_threads() : 1\n" in info
    finally:
        torch.set_num_threads(before)


def core_in_fresh_process(coretype):
    """The core a new process runs on, with OPENBLAS_CORETYPE set to coretype (None: unset)."""
    script = "import torch; print(torch._C._build_config()['blas_core'])"
    environment = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    if coretype is not None:
        environment["OPENBLAS_CORETYPE"] = coretype
    out = subprocess.run([sys.executable, "-c", script], env=environment, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_the_users_coretype_is_kept_and_none_is_left_behind():
    assert core_in_fresh_process("Prescott") == "Prescott"
    # TH's own choice must not leak OPENBLAS_CORETYPE into the environment of the children
    script = "import os, torch; print(os.environ.get('OPENBLAS_CORETYPE', 'unset'))"
    environment = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    out = subprocess.run([sys.executable, "-c", script], env=environment, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "unset"


def test_no_generic_core_on_a_processor_with_avx2():
    core = core_in_fresh_process(None)  # OpenBLAS detects, TH may mend
    assert {"avx2", "fma"} <= cpu_flags(), "this suite's machines have AVX2"
    assert core not in ("Prescott", "Core2", "Nehalem", "Sandybridge", "Unknown")

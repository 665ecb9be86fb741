"""python -m torch.distributed.run (torchrun): starts nproc_per_node copies of a script with
the environment init_process_group("gloo") reads (env://), watches them, and ends the group
when one fails.

    python -m torch.distributed.run --nproc_per_node 2 train.py --epochs 3
    python -m torch.distributed.run --nnodes 2 --node_rank 0 --master_addr host0 --nproc_per_node 4 train.py

Each worker gets RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE, GROUP_RANK, MASTER_ADDR,
MASTER_PORT and TORCHELASTIC_RUN_ID, and OMP_NUM_THREADS=1 when several share a node and it
is not set (as PyTorch's launcher does). When a worker exits with an error, the others are
stopped (SIGTERM, then SIGKILL after a grace period) and the launcher exits non-zero naming the
failed rank. There is no elastic membership or restart.
"""

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
import uuid

__all__ = ["main", "parse_args", "run"]


def parse_args(args=None):
    parser = argparse.ArgumentParser(
        prog="torchrun", description="Torch Distributed launcher: starts and watches workers"
    )
    parser.add_argument("--nnodes", type=str, default="1", help="number of nodes, or MIN:MAX (MAX is used)")
    parser.add_argument(
        "--nproc_per_node",
        "--nproc-per-node",
        type=str,
        default="1",
        help="workers per node: a number, or 'cpu'/'auto' for the number of CPUs",
    )
    parser.add_argument("--node_rank", "--node-rank", type=int, default=0)
    parser.add_argument("--master_addr", "--master-addr", type=str, default="127.0.0.1")
    parser.add_argument("--master_port", "--master-port", type=int, default=29500)
    parser.add_argument("--standalone", action="store_true", help="one node, on a free port of this machine's loopback")
    parser.add_argument("--rdzv_backend", "--rdzv-backend", type=str, default="static")
    parser.add_argument("--rdzv_endpoint", "--rdzv-endpoint", type=str, default="")
    parser.add_argument("--rdzv_id", "--rdzv-id", type=str, default="none")
    parser.add_argument("--max_restarts", "--max-restarts", type=int, default=0)
    parser.add_argument("--monitor_interval", "--monitor-interval", type=float, default=0.1)
    parser.add_argument(
        "--start_method", "--start-method", type=str, default="spawn", choices=["spawn", "fork", "forkserver"]
    )
    parser.add_argument("--role", type=str, default="default")
    parser.add_argument("-m", "--module", action="store_true", help="run the script as a module (python -m)")
    parser.add_argument(
        "--no_python",
        "--no-python",
        action="store_true",
        help="run the script as a program, not with the Python interpreter",
    )
    parser.add_argument("--log_dir", "--log-dir", type=str, default=None)
    parser.add_argument("--redirects", "-r", type=str, default="0")
    parser.add_argument("--tee", "-t", type=str, default="0")
    parser.add_argument("--use_env", "--use-env", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("training_script", type=str)
    parser.add_argument("training_script_args", nargs=argparse.REMAINDER)
    # The script's own options are not the launcher's, even where a prefix matches one
    # (argparse would take the script's --nproc for an abbreviation of --nproc_per_node).
    args = list(sys.argv[1:] if args is None else args)
    flags = {"--standalone", "-m", "--module", "--no_python", "--no-python", "--use_env", "--use-env", "-h", "--help"}
    i = 0
    while i < len(args) and args[i].startswith("-"):
        i += 1 if "=" in args[i] or args[i] in flags else 2
    options = parser.parse_args(args[: i + 1])
    options.training_script_args = args[i + 1 :]
    return options


def _nproc(value):
    if value in ("cpu", "auto"):
        return os.cpu_count() or 1
    try:
        n = int(value)
    except ValueError:
        raise SystemExit(f"torchrun: --nproc_per_node must be a number, 'cpu' or 'auto', got {value!r}") from None
    if n < 1:
        raise SystemExit(f"torchrun: --nproc_per_node must be at least 1, got {n}")
    return n


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(procs, grace=5.0):
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    for p in procs:
        left = max(0.0, deadline - time.monotonic())
        try:
            p.wait(left)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def run(args, local_rank_arg=False):
    """Starts the workers and waits; returns the exit status the launcher should end with."""
    nproc = _nproc(args.nproc_per_node)
    nnodes = int(str(args.nnodes).split(":")[-1])
    master_addr, master_port = args.master_addr, args.master_port
    if args.standalone:
        nnodes, master_addr, master_port = 1, "127.0.0.1", _free_port()
    elif args.rdzv_endpoint:
        host, _, port = args.rdzv_endpoint.rpartition(":")
        master_addr, master_port = host or args.rdzv_endpoint, int(port or master_port)
    if not 0 <= args.node_rank < nnodes:
        raise SystemExit(f"torchrun: --node_rank {args.node_rank} is not in [0, {nnodes})")
    world_size = nnodes * nproc
    if args.no_python:
        command = [args.training_script]
    elif args.module:
        command = [sys.executable, "-u", "-m", args.training_script]
    else:
        command = [sys.executable, "-u", args.training_script]
    command += args.training_script_args
    run_id = args.rdzv_id if args.rdzv_id != "none" else uuid.uuid4().hex

    procs = []
    for local_rank in range(nproc):
        env = dict(os.environ)
        env.update(
            RANK=str(args.node_rank * nproc + local_rank),
            LOCAL_RANK=str(local_rank),
            WORLD_SIZE=str(world_size),
            LOCAL_WORLD_SIZE=str(nproc),
            GROUP_RANK=str(args.node_rank),
            ROLE_RANK=str(args.node_rank * nproc + local_rank),
            ROLE_WORLD_SIZE=str(world_size),
            MASTER_ADDR=master_addr,
            MASTER_PORT=str(master_port),
            TORCHELASTIC_RUN_ID=run_id,
            TORCHELASTIC_RESTART_COUNT="0",
            TORCHELASTIC_MAX_RESTARTS=str(args.max_restarts),
        )
        if nproc > 1 and "OMP_NUM_THREADS" not in os.environ:
            env["OMP_NUM_THREADS"] = "1"
        worker_command = list(command)
        if local_rank_arg:  # torch.distributed.launch's convention
            worker_command.insert(len(command) - len(args.training_script_args), f"--local_rank={local_rank}")
        procs.append(subprocess.Popen(worker_command, env=env))
    if nproc > 1 and "OMP_NUM_THREADS" not in os.environ:
        print(
            "torchrun: OMP_NUM_THREADS set to 1 for each worker, to keep the node from being "
            "oversubscribed; set it to tune.",
            file=sys.stderr,
        )

    def forward_signal(signum, frame):
        _stop(procs)
        raise SystemExit(128 + signum)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, forward_signal)

    while True:
        failed = [(i, p.returncode) for i, p in enumerate(procs) if p.poll() is not None and p.returncode != 0]
        if failed:
            local_rank, code = failed[0]
            _stop(procs)
            how = f"signal {-code} ({signal.Signals(-code).name})" if code < 0 else f"exit code {code}"
            print(
                f"torchrun: worker failed: rank {args.node_rank * nproc + local_rank} (local_rank "
                f"{local_rank}, pid {procs[local_rank].pid}) ended with {how}; the other workers were "
                f"stopped",
                file=sys.stderr,
            )
            return 1
        if all(p.poll() is not None for p in procs):
            return 0
        time.sleep(args.monitor_interval)


def main(args=None):
    sys.exit(run(parse_args(args)))


if __name__ == "__main__":
    main()

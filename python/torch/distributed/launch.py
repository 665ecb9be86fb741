"""python -m torch.distributed.launch: the older launcher, torch.distributed.run's workers
with `--local_rank=N` added to each one's arguments unless --use_env is given."""

import sys

from .run import parse_args, run


def main(args=None):
    options = parse_args(args)
    sys.exit(run(options, local_rank_arg=not options.use_env))


if __name__ == "__main__":
    main()

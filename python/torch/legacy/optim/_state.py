"""The config/state convention every method shares."""


def config_and_state(config, state):
    """torch7's `config = config or {}; state = state or config` (an explicit empty state
    dict is kept: it is the caller's)."""
    config = {} if config is None else config
    return config, config if state is None else state

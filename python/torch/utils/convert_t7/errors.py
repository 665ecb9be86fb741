"""The error every direction of torch.utils.convert_t7 raises."""


class ConversionError(ValueError):
    """A module that cannot be converted (unknown class, unsupported setting), with its path."""

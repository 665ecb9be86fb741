"""torch.nn.utils: gradient clipping, parameter vectors and packed sequences."""

from torch.nn.utils import rnn  # noqa: F401
from torch.nn.utils.clip_grad import clip_grad_norm, clip_grad_norm_, clip_grad_value_  # noqa: F401
from torch.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters  # noqa: F401

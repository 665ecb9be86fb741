"""torch.nn.utils: gradient clipping, parameter vectors, packed sequences, weight and spectral
normalization, parametrizations."""

from torch.nn.utils import parametrize, rnn  # noqa: F401
from torch.nn.utils.clip_grad import clip_grad_norm, clip_grad_norm_, clip_grad_value_  # noqa: F401
from torch.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters  # noqa: F401
from torch.nn.utils.spectral_norm import remove_spectral_norm, spectral_norm  # noqa: F401
from torch.nn.utils.weight_norm import remove_weight_norm, weight_norm  # noqa: F401

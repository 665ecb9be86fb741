"""nn.MultiheadAttention, F.multi_head_attention_forward and the Transformer modules against
real PyTorch 1.13: the cases of attention_cases.py (outputs, attention weights and gradients
with every kind of mask, and a small language model trained 20 steps) give the same arrays
under both packages, and a state_dict that PyTorch saved loads here."""

import subprocess

import numpy as np
import pytest

import attention_cases
import torch
import torch.nn as nn
import torch.nn.functional as F
from conftest import require_real_torch_env
from real_pytorch import assert_case_matches, real_results


@pytest.fixture(scope="module")
def theirs(tmp_path_factory):
    return real_results("attention_cases.py", tmp_path_factory.mktemp("attention"))


@pytest.mark.parametrize("case", attention_cases.CASES, ids=lambda c: c.__name__)
def test_same_as_pytorch_1_13(case, theirs):
    assert_case_matches(case, case(torch, nn, F), theirs)


def test_language_model_losses_fall(theirs):
    """The training case learns: equal losses alone could hide two packages that both stand still."""
    losses = theirs["transformer_language_model_training_0"]
    assert losses[-1] < losses[0] - 0.1


SAVE_IN_PYTORCH = """
import sys, torch, torch.nn as nn
torch.manual_seed(0)
model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=2, dim_feedforward=6,
                       dropout=0.0, batch_first=True)
mha = nn.MultiheadAttention(6, 3, kdim=4, vdim=2, add_bias_kv=True)
src, tgt = torch.randn(2, 5, 8), torch.randn(2, 3, 8)
q, k, v = torch.randn(3, 2, 6), torch.randn(4, 2, 4), torch.randn(4, 2, 2)
with torch.no_grad():
    out = model(src, tgt, tgt_mask=model.generate_square_subsequent_mask(3))
    attn, weights = mha(q, k, v)
torch.save({"model": model.state_dict(), "mha": mha.state_dict(), "inputs": (src, tgt, q, k, v),
            "outputs": (out, attn, weights)}, sys.argv[1])
"""


def test_state_dict_saved_by_pytorch_loads(tmp_path):
    path = str(tmp_path / "transformer.pt")
    run = subprocess.run(
        ["/usr/bin/python3", "-c", SAVE_IN_PYTORCH, path], capture_output=True, text=True, env=require_real_torch_env()
    )
    assert run.returncode == 0, run.stderr
    saved = torch.load(path)
    model = nn.Transformer(
        d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=2, dim_feedforward=6, dropout=0.0, batch_first=True
    )
    mha = nn.MultiheadAttention(6, 3, kdim=4, vdim=2, add_bias_kv=True)
    assert model.load_state_dict(saved["model"]).missing_keys == []
    assert list(model.state_dict()) == list(saved["model"])
    mha.load_state_dict(saved["mha"])
    assert list(mha.state_dict()) == list(saved["mha"])
    src, tgt, q, k, v = saved["inputs"]
    with torch.no_grad():
        out = model(src, tgt, tgt_mask=model.generate_square_subsequent_mask(3))
        attn, weights = mha(q, k, v)
    for got, want in zip((out, attn, weights), saved["outputs"]):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)


def test_square_subsequent_mask():
    mask = nn.Transformer.generate_square_subsequent_mask(3)
    assert mask.dtype == torch.float32
    inf = float("-inf")
    np.testing.assert_array_equal(mask.numpy(), [[0, inf, inf], [0, 0, inf], [0, 0, 0]])


def test_messages_are_pytorchs():
    mha = nn.MultiheadAttention(4, 2)
    x = torch.randn(3, 2, 4)
    with pytest.raises(
        RuntimeError, match=r"The shape of the 2D attn_mask is torch.Size\(\[3, 4\]\), but should be \(3, 3\)."
    ):
        mha(x, x, x, attn_mask=torch.zeros(3, 4, dtype=torch.bool))
    with pytest.raises(AssertionError, match="only bool and floating types of key_padding_mask are supported"):
        mha(x, x, x, key_padding_mask=torch.zeros(2, 3, dtype=torch.int64))
    with pytest.raises(
        AssertionError, match="Only float, byte, and bool types are supported for attn_mask, not torch.int32"
    ):
        mha(x, x, x, attn_mask=torch.zeros(3, 3, dtype=torch.int32))
    with pytest.raises(AssertionError, match="query should be unbatched 2D or batched 3D tensor but received 4-D"):
        mha(x[None], x[None], x[None])
    with pytest.raises(AssertionError, match="embed_dim must be divisible by num_heads"):
        nn.MultiheadAttention(5, 2)
    with pytest.raises(RuntimeError, match="activation should be relu/gelu, not tanh"):
        nn.TransformerEncoderLayer(4, 2, activation="tanh")
    with pytest.warns(UserWarning, match="Byte tensor for attn_mask in nn.MultiheadAttention is deprecated"):
        mha(x, x, x, attn_mask=torch.zeros(3, 3, dtype=torch.uint8))


def test_layers_are_independent_copies():
    layer = nn.TransformerEncoderLayer(4, 2, dim_feedforward=8)
    encoder = nn.TransformerEncoder(layer, 3)
    weights = [m.linear1.weight for m in encoder.layers]
    assert len({id(w) for w in weights}) == 3
    assert len(list(encoder.parameters())) == 3 * len(list(layer.parameters()))


SAVE_MODULE_IN_PYTORCH = """
import sys, torch, torch.nn as nn
torch.manual_seed(0)
model = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, 0.0, activation="gelu"), 2, norm=nn.LayerNorm(8))
x = torch.randn(5, 3, 8)
torch.save({"model": model, "x": x, "y": model(x).detach()}, sys.argv[1])
"""


def test_whole_module_pickled_by_pytorch_loads(tmp_path):
    """torch.save(model) pickles the classes by module path (torch.nn.modules.transformer,
    activation.MultiheadAttention, linear.NonDynamicallyQuantizableLinear) and the activation
    function by name: each resolves here."""
    path = str(tmp_path / "encoder.pt")
    run = subprocess.run(
        ["/usr/bin/python3", "-c", SAVE_MODULE_IN_PYTORCH, path],
        capture_output=True,
        text=True,
        env=require_real_torch_env(),
    )
    assert run.returncode == 0, run.stderr
    saved = torch.load(path)
    model = saved["model"]
    assert type(model) is nn.TransformerEncoder
    assert type(model.layers[1].self_attn.out_proj).__name__ == "NonDynamicallyQuantizableLinear"
    with torch.no_grad():
        np.testing.assert_allclose(model(saved["x"]).numpy(), saved["y"].numpy(), rtol=1e-5, atol=1e-6)

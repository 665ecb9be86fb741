"""Attention and Transformer cases run the same way by this package and by real PyTorch 1.13
(/usr/bin/python3 with Debian's python3-torch): every parameter and input comes from a seeded
numpy generator, dropout is 0, and each case returns numpy arrays (outputs, attention weights,
gradients, losses). test_attention.py compares the two runs.

Run directly (`python3 attention_cases.py OUT.npz`) it writes every case's arrays to OUT.npz,
with the `torch` that interpreter imports."""

import sys

import numpy as np


def _array(seed, shape, scale=1.0):
    return np.random.default_rng(seed).standard_normal(shape) * scale


def set_weights(torch, module, seed, scale=0.3):
    """Every parameter from numpy, in name order (the same names under both packages)."""
    params = dict(module.named_parameters())
    with torch.no_grad():
        for i, name in enumerate(sorted(params)):
            p = params[name]
            p.copy_(torch.from_numpy(_array(seed + i, tuple(p.shape), scale)))
    return module


def _grads(module):
    params = dict(module.named_parameters())
    return [params[name].grad.numpy().copy() for name in sorted(params)]


def mha_self_attention(torch, nn, F):
    """Self-attention (q is k is v, one packed product), batch_first, bool masks of both kinds."""
    mha = set_weights(torch, nn.MultiheadAttention(8, 2, batch_first=True).double(), 1)
    x = torch.from_numpy(_array(2, (3, 5, 8))).requires_grad_()
    attn_mask = torch.from_numpy(np.triu(np.ones((5, 5), dtype=bool), 1))
    padding = torch.tensor([[False] * 5, [False] * 3 + [True] * 2, [False] * 4 + [True]])
    out, weights = mha(x, x, x, key_padding_mask=padding, attn_mask=attn_mask)
    (out.sum() + (weights * weights).sum()).backward()
    _, per_head = mha(x, x, x, key_padding_mask=padding, average_attn_weights=False)
    return [out.detach().numpy(), weights.detach().numpy(), x.grad.numpy(), per_head.detach().numpy()] + _grads(mha)


def mha_cross_attention(torch, nn, F):
    """Encoder-decoder attention (k is v), sequence-first, float attn_mask, float padding mask."""
    mha = set_weights(torch, nn.MultiheadAttention(6, 3).double(), 10)
    q = torch.from_numpy(_array(11, (4, 2, 6))).requires_grad_()
    kv = torch.from_numpy(_array(12, (7, 2, 6))).requires_grad_()
    attn_mask = torch.from_numpy(_array(13, (4, 7)))
    padding = torch.tensor([[0.0] * 7, [0.0] * 5 + [1.0] * 2], dtype=torch.float64).bool()
    out, weights = mha(q, kv, kv, attn_mask=attn_mask, key_padding_mask=padding)
    out.pow(2).sum().backward()
    return [out.detach().numpy(), weights.detach().numpy(), q.grad.numpy(), kv.grad.numpy()] + _grads(mha)


def mha_kdim_vdim_bias_kv_zero_attn(torch, nn, F):
    """Separate projections (kdim, vdim), bias_k/bias_v, a zero key, a 3-D mask per head."""
    mha = nn.MultiheadAttention(8, 2, kdim=3, vdim=5, add_bias_kv=True, add_zero_attn=True).double()
    set_weights(torch, mha, 20)
    q = torch.from_numpy(_array(21, (4, 2, 8))).requires_grad_()
    k = torch.from_numpy(_array(22, (6, 2, 3))).requires_grad_()
    v = torch.from_numpy(_array(23, (6, 2, 5))).requires_grad_()
    mask = torch.from_numpy(np.random.default_rng(24).random((4, 4, 6)) < 0.3)
    padding = torch.tensor([[False] * 6, [False] * 4 + [True] * 2])
    out, weights = mha(q, k, v, attn_mask=mask, key_padding_mask=padding, average_attn_weights=False)
    (out.sum() + weights.sum()).backward()
    names = sorted(dict(mha.named_parameters()))
    return [
        out.detach().numpy(),
        weights.detach().numpy(),
        q.grad.numpy(),
        k.grad.numpy(),
        v.grad.numpy(),
        np.array(names),
    ] + _grads(mha)


def mha_unbatched_no_bias(torch, nn, F):
    """Unbatched (L, E) inputs, bias=False, need_weights=False, eval mode; the functional form."""
    mha = set_weights(torch, nn.MultiheadAttention(4, 2, bias=False).double(), 30).eval()
    q = torch.from_numpy(_array(31, (3, 4)))
    k = torch.from_numpy(_array(32, (5, 4)))
    out, weights = mha(q, k, k, need_weights=False)
    unbatched, w = mha(q, k, k, key_padding_mask=torch.tensor([False, False, True, False, True]))
    functional, fw = F.multi_head_attention_forward(
        q.unsqueeze(1),
        k.unsqueeze(1),
        k.unsqueeze(1),
        4,
        2,
        mha.in_proj_weight,
        None,
        None,
        None,
        False,
        0.0,
        mha.out_proj.weight,
        None,
        training=False,
    )
    return [
        out.detach().numpy(),
        np.array(weights is None),
        unbatched.detach().numpy(),
        w.detach().numpy(),
        functional.detach().numpy(),
        fw.detach().numpy(),
    ]


def transformer_encoder_decoder(torch, nn, F):
    """nn.Transformer, post-norm, relu, causal tgt mask, padding masks on every side."""
    model = nn.Transformer(
        d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=2, dim_feedforward=12, dropout=0.0
    ).double()
    set_weights(torch, model, 40)
    src = torch.from_numpy(_array(41, (6, 2, 8))).requires_grad_()
    tgt = torch.from_numpy(_array(42, (5, 2, 8))).requires_grad_()
    tgt_mask = model.generate_square_subsequent_mask(5).double()
    src_pad = torch.tensor([[False] * 6, [False] * 4 + [True] * 2])
    tgt_pad = torch.tensor([[False] * 5, [False] * 4 + [True]])
    out = model(
        src,
        tgt,
        tgt_mask=tgt_mask,
        src_key_padding_mask=src_pad,
        tgt_key_padding_mask=tgt_pad,
        memory_key_padding_mask=src_pad,
    )
    out.pow(2).sum().backward()
    return [out.detach().numpy(), src.grad.numpy(), tgt.grad.numpy(), tgt_mask.numpy()] + _grads(model)


def transformer_norm_first_gelu_batch_first(torch, nn, F):
    """Pre-norm layers, "gelu" and a callable activation, batch_first, an encoder without final norm."""
    enc_layer = nn.TransformerEncoderLayer(
        8, 4, dim_feedforward=16, dropout=0.0, activation="gelu", batch_first=True, norm_first=True
    ).double()
    encoder = set_weights(torch, nn.TransformerEncoder(enc_layer, 2), 50)
    dec_layer = nn.TransformerDecoderLayer(
        8,
        2,
        dim_feedforward=10,
        dropout=0.0,
        activation=torch.tanh,
        batch_first=True,
        norm_first=True,
        layer_norm_eps=1e-3,
    ).double()
    decoder = set_weights(torch, nn.TransformerDecoder(dec_layer, 1, nn.LayerNorm(8).double()), 60)
    src = torch.from_numpy(_array(51, (2, 5, 8))).requires_grad_()
    tgt = torch.from_numpy(_array(52, (2, 3, 8)))
    memory = encoder(src, mask=torch.from_numpy(_array(53, (5, 5))))
    out = decoder(tgt, memory, memory_mask=torch.from_numpy(np.random.default_rng(54).random((3, 5)) < 0.2))
    out.sum().backward()
    return [memory.detach().numpy(), out.detach().numpy(), src.grad.numpy()] + _grads(encoder) + _grads(decoder)


def encoder_inference_padding(torch, nn, F):
    """In inference PyTorch runs this encoder on a nested tensor: padded positions come out zero."""
    layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True).double()
    encoder = set_weights(torch, nn.TransformerEncoder(layer, 2), 70).eval()
    src = torch.from_numpy(_array(71, (2, 4, 8)))
    pad = torch.tensor([[False] * 4, [False, False, True, True]])
    with torch.no_grad():
        inference = encoder(src, src_key_padding_mask=pad)
        one_layer = encoder.layers[0](src, src_key_padding_mask=pad)
    training = encoder.train()(src, src_key_padding_mask=pad)
    return [inference.numpy(), one_layer.numpy(), training.detach().numpy()]


class _LanguageModel:
    """A small Transformer encoder language model: embedding, sinusoidal positions, a causal
    encoder, a linear head."""

    @staticmethod
    def build(torch, nn):
        class LM(nn.Module):
            def __init__(self, vocab, d_model, nhead, layers):
                super().__init__()
                self.embed = nn.Embedding(vocab, d_model)
                layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=32, dropout=0.0)
                self.encoder = nn.TransformerEncoder(layer, layers, norm=nn.LayerNorm(d_model))
                self.head = nn.Linear(d_model, vocab)
                position = np.arange(64)[:, None] / (10000 ** (np.arange(0, d_model, 2) / d_model))
                table = np.zeros((64, d_model))
                table[:, 0::2], table[:, 1::2] = np.sin(position), np.cos(position)
                self.register_buffer("positions", torch.from_numpy(table).unsqueeze(1))

            def forward(self, tokens):
                length = tokens.size(0)
                x = self.embed(tokens) * 4.0 + self.positions[:length]
                mask = nn.Transformer.generate_square_subsequent_mask(length).to(x.dtype)
                return self.head(self.encoder(x, mask=mask))

        return LM(11, 16, 4, 2)


def transformer_language_model_training(torch, nn, F):
    """20 Adam steps of a causal LM on a fixed token stream: the losses and final weights."""
    model = set_weights(torch, _LanguageModel.build(torch, nn).double(), 80, scale=0.2)
    tokens = np.random.default_rng(81).integers(0, 11, (13, 4))
    data = torch.from_numpy(tokens[:-1])
    target = torch.from_numpy(tokens[1:])
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    losses = []
    for _ in range(20):
        opt.zero_grad()
        logits = model(data)
        loss = F.cross_entropy(logits.reshape(-1, 11), target.reshape(-1))
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return [
        np.array(losses),
        model.head.weight.detach().numpy(),
        model.encoder.layers[1].self_attn.in_proj_weight.detach().numpy(),
    ]


CASES = [
    mha_self_attention,
    mha_cross_attention,
    mha_kdim_vdim_bias_kv_zero_attn,
    mha_unbatched_no_bias,
    transformer_encoder_decoder,
    transformer_norm_first_gelu_batch_first,
    encoder_inference_padding,
    transformer_language_model_training,
]


def run_all():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    out = {}
    for case in CASES:
        for i, array in enumerate(case(torch, nn, F)):
            out["%s_%d" % (case.__name__, i)] = np.asarray(array)
    return out


if __name__ == "__main__":
    np.savez(sys.argv[1], **run_all())

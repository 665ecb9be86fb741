"""The pytorch/examples regression recipe: a linear model on polynomial features learns a random
degree-4 polynomial from random batches, with F.smooth_l1_loss and hand-written SGD on
param.data, until the loss falls below 1e-3."""

import json
import sys

import torch
import torch.nn.functional as F

POLY_DEGREE = 4
torch.manual_seed(3)
W_target = torch.randn(POLY_DEGREE, 1) * 5
b_target = torch.randn(1) * 5


def make_features(x):
    """Builds features i.e. a matrix with columns [x, x^2, x^3, x^4]."""
    x = x.unsqueeze(1)
    return torch.cat([x**i for i in range(1, POLY_DEGREE + 1)], 1)


def f(x):
    """Approximated function."""
    return x.mm(W_target) + b_target.item()


def poly_desc(W, b):
    """Creates a string description of a polynomial."""
    result = "y = "
    for i, w in enumerate(W):
        result += "{:+.2f} x^{} ".format(w, i + 1)
    result += "{:+.2f}".format(b[0])
    return result


def get_batch(batch_size=32):
    """Builds a batch i.e. (x, f(x)) pair."""
    random = torch.randn(batch_size)
    x = make_features(random)
    y = f(x)
    return x, y


fc = torch.nn.Linear(W_target.size(0), 1)
losses = []
for batch_idx in range(1, 2001):
    batch_x, batch_y = get_batch()
    fc.zero_grad()
    output = F.smooth_l1_loss(fc(batch_x), batch_y)
    loss = output.item()
    losses.append(loss)
    output.backward()
    for param in fc.parameters():
        param.data.add_(-0.1 * param.grad)
    if loss < 1e-3:
        break

print("==> Learned function:\t" + poly_desc(fc.weight.view(-1), fc.bias), file=sys.stderr)
print("==> Actual function:\t" + poly_desc(W_target.view(-1), b_target), file=sys.stderr)
# float32 SGD steps drift apart by rounding over hundreds of steps: the first 100 losses, the
# number of steps and the fit are compared
weights = fc.weight.view(-1).tolist() + fc.bias.tolist()
print(json.dumps({"steps": batch_idx, "losses": losses[:100], "learned": weights}))

"""Fitting a curve in double precision with LBFGS (strong Wolfe line search) and a closure."""

import json

import torch

torch.manual_seed(4)
x = torch.linspace(-2, 2, 50, dtype=torch.float64)
y = 1.5 * torch.sin(2.0 * x) + 0.3 * x + 0.05 * torch.randn(50, dtype=torch.float64)
params = torch.zeros(3, dtype=torch.float64, requires_grad=True)
opt = torch.optim.LBFGS([params], lr=1, max_iter=20, history_size=5, line_search_fn="strong_wolfe")
losses = []


def closure():
    opt.zero_grad()
    a, b, c = params
    loss = ((a * torch.sin(b * x) + c * x - y) ** 2).mean()
    loss.backward()
    return loss


params.data = torch.tensor([1.0, 1.8, 0.0], dtype=torch.float64)
for _ in range(5):
    losses.append(opt.step(closure).item())
print(json.dumps({"losses": losses, "params": params.tolist()}))

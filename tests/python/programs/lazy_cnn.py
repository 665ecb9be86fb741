"""A CNN whose layer sizes come from its first batch (nn.Lazy*), trained, saved and reloaded
into a fresh lazy copy."""

import io
import json
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.filterwarnings("ignore", message="Lazy modules")
torch.manual_seed(5)


def make():
    return nn.Sequential(
        nn.LazyConv2d(6, 3, padding=1),
        nn.LazyBatchNorm2d(),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.LazyConvTranspose2d(4, 2, stride=2),
        nn.LazyInstanceNorm2d(affine=True),
        nn.Flatten(),
        nn.LazyLinear(16),
        nn.Tanh(),
        nn.LazyLinear(3),
        nn.LazyBatchNorm1d(),
    )


model = make()
model(torch.randn(2, 3, 8, 8))  # the dry run that sizes the layers, before the optimizer
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
losses = []
for step in range(8):
    x = torch.randn(4, 3, 8, 8)
    y = torch.randint(0, 3, (4,))
    loss = F.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
buffer = io.BytesIO()
torch.save(model.state_dict(), buffer)
buffer.seek(0)
copy = make()
copy.load_state_dict(torch.load(buffer))
model.eval()
copy.eval()
x = torch.randn(2, 3, 8, 8)
print(
    json.dumps(
        {
            "losses": losses,
            "shapes": [d for p in model.parameters() for d in [-1, *p.shape]],
            "reloaded_same": [bool(torch.equal(model(x), copy(x)))],
        }
    )
)

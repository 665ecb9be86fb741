"""A small CNN trained under CPU autocast (bfloat16 products and convolutions, float32 loss
and parameters), as the PyTorch 1.13 recipe for mixed precision on the CPU has it."""

import json

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 3, padding=1)
        self.conv2 = nn.Conv2d(6, 8, 3)
        self.fc = nn.Linear(8 * 3 * 3, 4)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(torch.flatten(x, 1))


images = torch.randn(64, 1, 16, 16)
labels = torch.randint(0, 4, (64,))
model = Net()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
losses, dtypes = [], []
for epoch in range(2):
    for x, y in zip(images.split(16), labels.split(16)):
        opt.zero_grad()
        with torch.autocast("cpu", dtype=torch.bfloat16):
            out = model(x)
            loss = F.cross_entropy(out, y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
        dtypes = [str(out.dtype), str(loss.dtype), str(model.fc.weight.grad.dtype)]
with torch.no_grad(), torch.cpu.amp.autocast():
    accuracy = (model(images).argmax(1) == labels).float().mean().item()
# the bfloat16 products round once per element in both, but a sum in another order may round
# an element the other way (2^-8 relative): the figures agree to 1e-3, not to float32's 2e-5
print(json.dumps({"rtol": 1e-3, "losses": losses, "accuracy": accuracy, "dtypes": dtypes}))

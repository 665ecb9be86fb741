"""A variational autoencoder on synthetic binary images (the pytorch/examples VAE's recipe)."""

import json

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(2)


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(64, 32)
        self.fc21 = nn.Linear(32, 4)
        self.fc22 = nn.Linear(32, 4)
        self.fc3 = nn.Linear(4, 32)
        self.fc4 = nn.Linear(32, 64)

    def encode(self, x):
        h = F.relu(self.fc1(x))
        return self.fc21(h), self.fc22(h)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        return mu + torch.randn_like(std) * std

    def decode(self, z):
        return torch.sigmoid(self.fc4(F.relu(self.fc3(z))))

    def forward(self, x):
        mu, logvar = self.encode(x)
        return self.decode(self.reparameterize(mu, logvar)), mu, logvar


def loss_function(recon, x, mu, logvar):
    bce = F.binary_cross_entropy(recon, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld


data = (torch.rand(128, 64) > 0.5).float()
model = VAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
losses = []
for epoch in range(3):
    for batch in data.split(32):
        recon, mu, logvar = model(batch)
        loss = loss_function(recon, batch, mu, logvar)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
with torch.no_grad():
    sample = model.decode(torch.randn(4, 4))
print(json.dumps({"losses": losses, "sample_sum": sample.sum().item()}))

"""A Transformer encoder classifying sequences, with a warm-up schedule."""

import json
import math

import torch
import torch.nn as nn

torch.manual_seed(1)


class Classifier(nn.Module):
    def __init__(self, vocab=20, d_model=32, heads=4, layers=2, classes=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        layer = nn.TransformerEncoderLayer(d_model, heads, dim_feedforward=64, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.head = nn.Linear(d_model, classes)
        position = torch.arange(16).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(16, d_model)
        pe[:, 0::2] = torch.sin(position * div)
        pe[:, 1::2] = torch.cos(position * div)
        self.register_buffer("pe", pe)

    def forward(self, x, padding_mask):
        h = self.embed(x) + self.pe[: x.shape[1]]
        h = self.encoder(h, src_key_padding_mask=padding_mask)
        return self.head(h.mean(1))


model = Classifier()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda step: min(1.0, (step + 1) / 5))
losses = []
for step in range(20):
    x = torch.randint(1, 20, (8, 12))
    mask = torch.zeros(8, 12, dtype=torch.bool)
    mask[:, 10:] = True
    y = x[:, 0] % 3
    loss = nn.functional.cross_entropy(model(x, mask), y, label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    losses.append(loss.item())
print(json.dumps({"losses": losses, "lr": sched.get_last_lr()[0]}))

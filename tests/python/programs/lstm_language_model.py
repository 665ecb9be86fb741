"""A character-level LSTM language model, as a user writes one (word_language_model style)."""

import json

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
text = "the quick brown fox jumps over the lazy dog. " * 20
chars = sorted(set(text))
index = {c: i for i, c in enumerate(chars)}
data = torch.tensor([index[c] for c in text])


class CharLM(nn.Module):
    def __init__(self, vocab, embed=16, hidden=32, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, embed)
        self.lstm = nn.LSTM(embed, hidden, layers, dropout=0.1, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, x, state=None):
        out, state = self.lstm(self.embed(x), state)
        return self.head(out), state


model = CharLM(len(chars))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
seq, batch = 20, 8
losses = []
for step in range(30):
    starts = torch.randint(0, len(data) - seq - 1, (batch,))
    x = torch.stack([data[s : s + seq] for s in starts])
    y = torch.stack([data[s + 1 : s + seq + 1] for s in starts])
    logits, _ = model(x)
    loss = F.cross_entropy(logits.reshape(-1, len(chars)), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    losses.append(loss.item())
model.eval()
with torch.no_grad():
    logits, _ = model(data[:seq].unsqueeze(0))
print(json.dumps({"losses": losses, "eval_logits_sum": logits.sum().item()}))

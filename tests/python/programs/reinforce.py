"""REINFORCE with torch.distributions on a small deterministic chain environment."""

import json

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(3)


class Chain:
    """States 0..5; action 1 moves right, 0 left; reward 1 at the right end."""

    def reset(self):
        self.s = 0
        return self.obs()

    def obs(self):
        return F.one_hot(torch.tensor(self.s), 6).float()

    def step(self, a):
        self.s = max(0, min(5, self.s + (1 if a == 1 else -1)))
        done = self.s == 5
        return self.obs(), float(done), done


policy = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 2))
opt = torch.optim.Adam(policy.parameters(), lr=0.05)
env = Chain()
returns_log, losses = [], []
for episode in range(15):
    obs, log_probs, rewards, entropies = env.reset(), [], [], []
    for t in range(12):
        dist = Categorical(logits=policy(obs))
        action = dist.sample()
        log_probs.append(dist.log_prob(action))
        entropies.append(dist.entropy())
        obs, reward, done = env.step(action.item())
        rewards.append(reward)
        if done:
            break
    returns, g = [], 0.0
    for r in reversed(rewards):
        g = r + 0.9 * g
        returns.insert(0, g)
    returns = torch.tensor(returns)
    loss = -(torch.stack(log_probs) * returns).sum() - 0.01 * torch.stack(entropies).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
    returns_log.append(float(returns[0]))
print(json.dumps({"losses": losses, "returns": returns_log}))

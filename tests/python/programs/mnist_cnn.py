"""The pytorch/examples MNIST recipe (two convolutions, max pooling, dropout, log_softmax,
nll_loss, Adadelta with StepLR, train and test loops over DataLoaders) on a synthetic dataset of
28x28 "digits": each class is a blurred bar pattern plus noise."""

import argparse
import json

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, 1)
        self.conv2 = nn.Conv2d(8, 16, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(2304, 32)
        self.fc2 = nn.Linear(32, 10)

    def forward(self, x):
        x = self.conv1(x)
        x = F.relu(x)
        x = self.conv2(x)
        x = F.relu(x)
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = self.fc1(x)
        x = F.relu(x)
        x = self.dropout2(x)
        x = self.fc2(x)
        output = F.log_softmax(x, dim=1)
        return output


def synthetic_digits(count, generator):
    labels = torch.randint(0, 10, (count,), generator=generator)
    images = torch.zeros(count, 1, 28, 28)
    for i, label in enumerate(labels.tolist()):
        images[i, 0, 2 + 2 * label : 6 + 2 * label, 4:24] = 1.0  # a bar whose height says the class
    images = F.avg_pool2d(images, 3, stride=1, padding=1)
    images += 0.3 * torch.randn(images.shape, generator=generator)
    return TensorDataset((images - 0.1307) / 0.3081, labels)


def train(args, model, device, train_loader, optimizer, epoch, losses):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        data, target = data.to(device), target.to(device)
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())


def test(model, device, test_loader):
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        for data, target in test_loader:
            data, target = data.to(device), target.to(device)
            output = model(data)
            test_loss += F.nll_loss(output, target, reduction="sum").item()
            pred = output.argmax(dim=1, keepdim=True)
            correct += pred.eq(target.view_as(pred)).sum().item()
    return test_loss / len(test_loader.dataset), correct


def main():
    parser = argparse.ArgumentParser(description="PyTorch MNIST Example")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--test-batch-size", type=int, default=100)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1.0)
    parser.add_argument("--gamma", type=float, default=0.7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args([])
    torch.manual_seed(args.seed)
    device = torch.device("cpu")

    generator = torch.Generator().manual_seed(0)
    train_loader = DataLoader(synthetic_digits(192, generator), batch_size=args.batch_size, shuffle=True)
    test_loader = DataLoader(synthetic_digits(100, generator), batch_size=args.test_batch_size)

    model = Net().to(device)
    optimizer = optim.Adadelta(model.parameters(), lr=args.lr)
    scheduler = StepLR(optimizer, step_size=1, gamma=args.gamma)
    losses, tests = [], []
    for epoch in range(1, args.epochs + 1):
        train(args, model, device, train_loader, optimizer, epoch, losses)
        tests.append(test(model, device, test_loader))
        scheduler.step()
    print(json.dumps({"losses": losses, "test_losses": [t[0] for t in tests], "correct": [t[1] for t in tests]}))


if __name__ == "__main__":
    main()

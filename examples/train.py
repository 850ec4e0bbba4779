"""Trains a small attention model with torch.compile.

A GraphMend example: `torch.compile(model)` makes every forward below a compile region, so the
graph breaks in attention.py and in `compute_loss` show up as diagnostics.
"""
import argparse
import logging
import time

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from attention import AttentionBlock, AttentionConfig

logger = logging.getLogger(__name__)


class TinyClassifier(nn.Module):
    def __init__(self, config: AttentionConfig, num_labels: int, num_layers: int = 2):
        super().__init__()
        self.blocks = nn.ModuleList([AttentionBlock(config) for _ in range(num_layers)])
        self.head = nn.Linear(config.hidden_size, num_labels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for block in self.blocks:
            x = block(x)
        return self.head(x.mean(dim=1))


@torch.compile
def compute_loss(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    loss = nn.functional.cross_entropy(logits, labels)
    # Scalar extraction and logging inside a compiled function (GM201, GM102).
    if loss.item() > 10.0:
        logger.warning("loss exploded: %s", loss)
    return loss


def make_data(n: int, seq_len: int, hidden: int, num_labels: int) -> TensorDataset:
    x = torch.randn(n, seq_len, hidden)
    y = torch.randint(0, num_labels, (n,))
    return TensorDataset(x, y)


def train(args: argparse.Namespace) -> None:
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    config = AttentionConfig(hidden_size=args.hidden, num_attention_heads=args.heads)
    model = TinyClassifier(config, num_labels=args.labels).to(device)
    model = torch.compile(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)

    loader = DataLoader(make_data(512, args.seq_len, args.hidden, args.labels),
                        batch_size=args.batch_size, shuffle=True)
    for epoch in range(args.epochs):
        model.train()
        start = time.perf_counter()
        total = 0.0
        for step, (x, y) in enumerate(loader):
            x, y = x.to(device), y.to(device)
            logits = model(x)
            loss = compute_loss(logits, y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
            optimizer.step()
            total += loss.detach()
            if step % args.log_every == 0:
                logger.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
        elapsed = time.perf_counter() - start
        logger.info("epoch %d: mean loss %.4f in %.1fs", epoch, (total / len(loader)).item(), elapsed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--seq-len", type=int, default=64)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--labels", type=int, default=10)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--log-every", type=int, default=10)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    train(parser.parse_args())


if __name__ == "__main__":
    main()

"""Fine-tunes TinyBERT for sequence classification on synthetic data, with torch.compile.

GraphMend example. `torch.compile(model, ...)` and `torch.compile(batch_accuracy, ...)` below are
compile roots (docs/compile-regions.md), so the graph breaks in modeling_tiny_bert.py are found from here even
with `assume-compiled = "explicit"`. The training loop itself is not compiled: its `.item()`,
`print` and `time.perf_counter()` calls run eagerly and are not reported.

    python finetune_tiny_bert.py --steps 20 --compile-backend eager
"""
import argparse
import logging
import time

import torch
from torch.utils.data import DataLoader, TensorDataset

from modeling_tiny_bert import TinyBertConfig, TinyBertForSequenceClassification

logger = logging.getLogger(__name__)


def make_dataset(
    config: TinyBertConfig, num_examples: int, seq_len: int, generator: torch.Generator
) -> TensorDataset:
    """Random token ids with right padding; the label says whether the first id is >= vocab/2."""
    input_ids = torch.randint(1, config.vocab_size, (num_examples, seq_len), generator=generator)
    lengths = torch.randint(seq_len // 2, seq_len + 1, (num_examples,), generator=generator)
    attention_mask = (torch.arange(seq_len)[None, :] < lengths[:, None]).long()
    input_ids = input_ids.masked_fill(attention_mask == 0, config.pad_token_id)
    labels = (input_ids[:, 0] >= config.vocab_size // 2).long()
    return TensorDataset(input_ids, attention_mask, labels)


def batch_accuracy(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    accuracy = (logits.argmax(dim=-1) == labels).float().mean()
    logger.info("eval batch accuracy %s", accuracy)  # graph break: logger call (GM102)
    return accuracy


def train(args: argparse.Namespace) -> float:
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    config = TinyBertConfig(hidden_size=args.hidden_size, num_hidden_layers=args.num_layers)
    model = TinyBertForSequenceClassification(config).to(device)
    model = torch.compile(model, backend=args.compile_backend)
    compiled_accuracy = torch.compile(batch_accuracy, backend=args.compile_backend)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate, weight_decay=0.01)

    generator = torch.Generator().manual_seed(args.seed)
    train_data = make_dataset(config, args.batch_size * args.steps, args.seq_len, generator)
    eval_data = make_dataset(config, args.batch_size * 4, args.seq_len, generator)
    train_loader = DataLoader(train_data, batch_size=args.batch_size, shuffle=True)
    eval_loader = DataLoader(eval_data, batch_size=args.batch_size)

    model.train()
    start = time.perf_counter()
    for step, (input_ids, attention_mask, labels) in enumerate(train_loader):
        input_ids, attention_mask, labels = (
            input_ids.to(device), attention_mask.to(device), labels.to(device)
        )
        loss, _ = model(input_ids, attention_mask, labels=labels)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        optimizer.step()
        if step % args.log_every == 0:
            print(f"step {step:4d}  loss {loss.item():.4f}")
    logger.info("trained %d steps in %.1fs", args.steps, time.perf_counter() - start)

    model.eval()
    accuracies = []
    with torch.no_grad():
        for input_ids, attention_mask, labels in eval_loader:
            _, logits = model(input_ids.to(device), attention_mask.to(device))
            accuracies.append(compiled_accuracy(logits, labels.to(device)))
    accuracy = torch.stack(accuracies).mean().item()
    print(f"eval accuracy {accuracy:.3f}")
    return accuracy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--seq-len", type=int, default=16)
    parser.add_argument("--hidden-size", type=int, default=64)
    parser.add_argument("--num-layers", type=int, default=2)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--log-every", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--compile-backend", default="inductor",
                        help="torch.compile backend (eager and aot_eager compile fastest)")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    train(parser.parse_args())


if __name__ == "__main__":
    main()
